! `parallel master` in a source gfortran does not preprocess: OPARI2 alone
! cannot instrument it, weft compile says to add -cpp.
program parallel_master
  implicit none
  integer :: n
  n = 0
!$omp parallel master num_threads(2) shared(n)
  n = n + 7
!$omp end parallel master
  print *, n
end program parallel_master
! SPDX-License-Identifier: BSD-3-Clause
