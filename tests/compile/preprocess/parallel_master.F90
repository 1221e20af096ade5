! Combined constructs OPARI2 2.0.7 leaves whole in Fortran, split by weft
! compile: `parallel master` (OPARI2 put its barrier inside the master
! block, which gfortran refuses), `parallel masked`, and the loop forms
! whose end directive is optional: `master taskloop` and `parallel loop`
! without it, `parallel master taskloop` with it.
program parallel_master
  use omp_lib
  implicit none
  integer :: i, s, n
  n = 0
!$omp parallel master num_threads(2) &
!$omp& shared(n)
  n = n + omp_get_num_threads()
!$omp end parallel master
  s = 0
!$omp parallel num_threads(2)
!$omp master taskloop reduction(+: s)
  do i = 1, 100
    s = s + i
  end do
!$omp end parallel
!$omp parallel masked filter(0) num_threads(2)
  n = n + omp_get_num_threads()
!$omp end parallel masked
!$omp parallel master taskloop num_threads(2) grainsize(10) &
!$omp& reduction(+: s)
  do i = 1, 100
    s = s + 2 * i
  end do
!$omp end parallel master taskloop
!$omp parallel loop reduction(+: s) num_threads(2)
  do i = 1, 10
    s = s + i
  end do
  print *, n, s
end program parallel_master
! SPDX-License-Identifier: BSD-3-Clause
