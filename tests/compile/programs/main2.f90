program main2
  implicit none
  integer, external :: add
  print '(a,i0)', 'sum=', add(2, 3)
end program main2
! SPDX-License-Identifier: BSD-3-Clause
