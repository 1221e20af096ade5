program hello
  implicit none
  print '(a)', 'hello from weft compile'
end program hello
! SPDX-License-Identifier: BSD-3-Clause
