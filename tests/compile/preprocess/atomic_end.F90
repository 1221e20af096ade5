! Atomic constructs written with `!$omp end atomic`: OPARI2 2.0.7 wrote its
! exit call before the end directive (gfortran refused the copy). An update
! with its optional end is recorded as without it; a capture, whose end is
! required, is built but not recorded.
program atomic_end
  implicit none
  integer :: i, k, old, seen(0:19), v
  k = 0
  seen = 0
!$omp parallel do private(old) lastprivate(v)
  do i = 1, 20
!$omp atomic update
    k = k + 1
!$omp end atomic
!$omp atomic capture
    old = k
    k = k + 1
!$omp end atomic
    seen(mod(old, 20)) = 1
!$omp atomic read
    v = k
  end do
!$omp end parallel do
  print *, k, v > 0
end program atomic_end
! SPDX-License-Identifier: BSD-3-Clause
