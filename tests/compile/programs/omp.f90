program omp
  use omp_lib
  implicit none
  integer :: count, threads
  count = 0
  threads = 0
!$omp parallel shared(count, threads)
!$omp critical
  count = count + 1
  threads = omp_get_num_threads()
!$omp end critical
!$omp end parallel
  print '(a,i0,a,i0)', 'threads=', threads, ' count=', count
end program omp
! SPDX-License-Identifier: BSD-3-Clause
