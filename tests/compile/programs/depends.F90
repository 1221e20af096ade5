! A preprocessed Fortran source that depends on a header (#include) and a
! module (use): its dependency file must name both, and no work file.
#include "depends.h"
program depends
  use mod_const
  implicit none
  integer :: i, s
  s = 0
!$omp parallel do reduction(+:s)
  do i = 1, DEPENDS_N
     s = s + i * factor
  end do
  print '(a,i0)', 'sum=', s
end program depends
! SPDX-License-Identifier: BSD-3-Clause
