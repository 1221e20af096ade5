program bad
  implicit none
  integer :: i
  i = = 1
end program bad
! SPDX-License-Identifier: BSD-3-Clause
