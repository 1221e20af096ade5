! A doacross loop in a source gfortran does not preprocess (.f90): OPARI2
! reads it as written and fails on the stand-alone `ordered depend`
! directives; weft compile says to add -cpp, with which it hides them.
program doacross
  implicit none
  integer :: a(8), i
  a = 0
!$omp parallel do ordered(1)
  do i = 2, 8
!$omp ordered depend(sink: i-1)
    a(i) = a(i-1) + 1
!$omp ordered depend(source)
  end do
!$omp end parallel do
  print *, a(8)
end program doacross
! SPDX-License-Identifier: BSD-3-Clause
