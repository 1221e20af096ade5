! A combined `parallel do simd` with a simd clause on a continuation line:
! OPARI2 2.0.7 gives `simd` and `safelen` to the parallel region, where
! gfortran refuses them; weft compile passes them to the loop, whose end
! directive then says `end do simd`.
program combined
  implicit none
  real :: a(1000), s
  integer :: i
  s = 0
!$omp parallel do simd reduction(+: s) &
!$omp& safelen(8)
  do i = 1, 1000
    a(i) = i * 0.5
    s = s + a(i)
  end do
!$omp end parallel do simd
  print *, s
end program combined
! SPDX-License-Identifier: BSD-3-Clause
