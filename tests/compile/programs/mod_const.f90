module mod_const
  implicit none
  integer, parameter :: factor = 2
end module mod_const
! SPDX-License-Identifier: BSD-3-Clause
