! A `parallel do simd` directive of 116 columns, which gfortran takes: the
! clause weft compile shields from OPARI2 is longer, and OPARI2 keeps the
! directive's columns and adds ` &`, so the copy's line grew past 132
! ("Line truncated", an error). The copy is compiled without that limit.
program long_directive
  implicit none
  integer :: i
  double precision :: v00, v01, v02, v03, v04, v05
  double precision :: s
  s = 0.0d0
!$omp parallel do simd                                       private(i, v00, v01, v02, v03, v04, v05) reduction(+:s)
  do i = 1, 10
    v00 = dble(i); s = s + v00
  end do
!$omp end parallel do simd
  print *, s
end program long_directive
! SPDX-License-Identifier: BSD-3-Clause
