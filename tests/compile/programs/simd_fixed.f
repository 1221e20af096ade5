! A fixed-form `parallel do simd`: OPARI2 gives simd to parallel, and weft
! compile cannot pass it in 72 columns; the message says how to write it.
      program simdfix
      implicit none
      integer i
      double precision s
      s = 0.0d0
c$omp parallel do simd reduction(+:s)
      do 10 i = 1, 64
         s = s + dble(i)
   10 continue
c$omp end parallel do simd
      print *, s
      end
! SPDX-License-Identifier: BSD-3-Clause
