      program hello
      implicit none
      print '(a)', 'hello from weft compile'
      end
! SPDX-License-Identifier: BSD-3-Clause
