! Cancellation of a loop (OpenMP 4.0) in Fortran: OPARI2 ends the loop with
! `end do nowait`, which weft compile takes back so that `cancel do` binds
! to a loop that waits (gfortran otherwise ignores it). Run with
! OMP_CANCELLATION=true.
program cancel
  implicit none
  integer :: i, found
  found = -1
!$omp parallel
!$omp do schedule(static)
  do i = 1, 1000
    if (i == 100) then
!$omp atomic write
      found = i
!$omp cancel do
    end if
!$omp cancellation point do
  end do
!$omp end do
!$omp end parallel
  print *, found
end program cancel
! SPDX-License-Identifier: BSD-3-Clause
