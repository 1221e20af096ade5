! Fixed-form Fortran fixtures for test_ctc (see README.md): continued
! directives, the c$omp sentinel and long CTC strings that OPARI2
! splits over continuation lines. Keep edits below the last construct.
      program fixed
      implicit none
      integer i, n, total, x
      real a(100), b(100)
      total = 0
      x = 0
      n = 100
      do i = 1, n
         a(i) = i
      end do
!$omp parallel do schedule(static, 10) reduction(+:total)
!$omp& if(n > 10) num_threads(4) default(shared) shared(a)
      do i = 1, n
         total = total + int(a(i))
      end do
!$omp end parallel do
c$omp parallel
c$omp critical(fixed_lock)
      x = x + 1
c$omp end critical(fixed_lock)
c$omp barrier
*$omp single
      x = x + 1
*$omp end single nowait
c$omp end parallel
!$omp parallel sections
!$omp section
      x = x + 1
!$omp section
      x = x + 2
!$omp section
      x = x + 3
!$omp end parallel sections
!$omp parallel workshare
      b = a
!$omp end parallel workshare
!$pomp inst begin(fixed_form_region_with_a_rather_long_name_to_force_splits)
      x = x + 1
!$pomp inst end(fixed_form_region_with_a_rather_long_name_to_force_splits)
      print *, total, x, b(1)
      end
