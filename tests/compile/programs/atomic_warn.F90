! A warning after an atomic construct: OPARI2 names its own input file in
! the line directive it writes after the construct; the message must name
! this file, at the line of `m = r`.
program atomic_warn
  implicit none
  integer :: k, i, m
  real :: r
  k = 0
  r = 2.5
!$omp parallel do private(m)
  do i = 1, 10
!$omp atomic
    k = k + 1
    m = r
  end do
!$omp end parallel do
  print *, k
end program atomic_warn
! SPDX-License-Identifier: BSD-3-Clause
