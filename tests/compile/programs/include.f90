program include_test
  implicit none
  include 'greeting.inc'
  print '(a)', greeting
end program include_test
! SPDX-License-Identifier: BSD-3-Clause
