! OpenMP constructs in Fortran, instrumented by OPARI2 through weft compile;
! check_pomp_trace (kind "fortran") predicts every count. REPEATS = 3
! parallel regions, TASKS = 4 tasks each, ORDERED_ITERATIONS = 8.
program constructs
  use omp_lib
  implicit none
  integer, parameter :: repeats = 3, tasks = 4, ordered_iterations = 8
  integer(kind=omp_lock_kind) :: lock
  integer :: r, i, t
  integer(kind=8) :: total
  ! one counter per synchronisation construct (different locks)
  integer(kind=8) :: in_master, in_named, in_atomic, in_lock
  integer :: a(64)

  total = 0
  in_master = 0
  in_named = 0
  in_atomic = 0
  in_lock = 0
  call omp_init_lock(lock)
  do r = 1, repeats
!$omp parallel shared(total, a, in_master, in_named, in_atomic, in_lock) private(i, t)
!$omp do schedule(static)
    do i = 1, 64
      a(i) = i
    end do
!$omp end do
!$omp single
    total = total + 1
!$omp end single
!$omp master
    in_master = in_master + 1
!$omp end master
!$omp critical (fnamed)
    in_named = in_named + 1
!$omp end critical (fnamed)
!$omp atomic
    in_atomic = in_atomic + 1
!$omp barrier
!$omp flush
!$omp sections
!$omp section
    call add(total, 10_8)
!$omp section
    call add(total, 10_8)
!$omp end sections
!$omp workshare
    a = a + 1
!$omp end workshare
    call omp_set_lock(lock)
    in_lock = in_lock + 1
    call omp_unset_lock(lock)
!$omp single
    do t = 1, tasks
!$omp task
      call add(total, 100_8)
!$omp end task
    end do
!$omp taskwait
!$omp end single nowait
!$omp do schedule(static, 1) ordered
    do i = 1, ordered_iterations
!$omp ordered
      call add(total, int(i, 8))
!$omp end ordered
    end do
!$omp end do
!$omp end parallel
  end do
!$pomp inst begin(fortran_serial)
  total = total + sum(a)
!$pomp inst end(fortran_serial)
  call omp_destroy_lock(lock)
  print *, total, in_master, in_named, in_atomic, in_lock
contains
  subroutine add(x, v)
    integer(kind=8), intent(inout) :: x
    integer(kind=8), value :: v
!$omp atomic
    x = x + v
  end subroutine
end program
! SPDX-License-Identifier: BSD-3-Clause
