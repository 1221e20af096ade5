! An interface body with an import statement in a unit with a parallel
! loop: OPARI2 put its include line into the interface body before the
! import, which gfortran refused.
subroutine scale(n, x)
  use iso_c_binding, only: c_double
  implicit none
  integer, intent(in) :: n
  real(c_double), intent(inout) :: x(n)
  integer :: i
  interface
    subroutine callback(a) bind(c)
      import :: c_double
      real(c_double), value :: a
    end subroutine callback
  end interface
!$omp parallel do
  do i = 1, n
    x(i) = 2 * x(i)
  end do
end subroutine scale

program interface_import
  use iso_c_binding, only: c_double
  implicit none
  real(c_double) :: x(4) = 1
  call scale(4, x)
  print *, sum(x)
end program interface_import
! SPDX-License-Identifier: BSD-3-Clause
