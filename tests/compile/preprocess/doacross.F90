! Doacross loops (OpenMP 4.5) in Fortran: the stand-alone `ordered depend`
! directives, one continued on a second line, are hidden from OPARI2
! (missing endordered directive), and the combined construct's ordered(1)
! kept whole; the loops are recorded.
program doacross
  implicit none
  integer :: a(64), b(64), i
  a = 0
  b = 0
!$omp parallel
!$omp do ordered(1)
  do i = 2, 64
!$omp ordered &
!$omp depend(sink: i-1)
    a(i) = a(i-1) + 1
!$omp ordered depend(source)
  end do
!$omp end do
!$omp end parallel
!$omp parallel do ordered(1)
  do i = 2, 64
!$omp ordered depend(sink: i-1)
    b(i) = b(i-1) + 2
!$omp ordered depend(source)
  end do
!$omp end parallel do
  print *, a(64), b(64)
end program doacross
! SPDX-License-Identifier: BSD-3-Clause
