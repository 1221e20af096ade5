integer function add(a, b)
  implicit none
  integer, intent(in) :: a, b
  add = a + b
end function add
! SPDX-License-Identifier: BSD-3-Clause
