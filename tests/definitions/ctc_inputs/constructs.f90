! Every OpenMP construct OPARI2 instruments, free-form Fortran, for the
! CTC-string fixtures of test_ctc (see README.md). test_ctc asserts the line
! numbers, so keep edits below the last construct.
program constructs
    implicit none
    integer :: i, j, total, last, priv, first, x, secsum
    integer, save :: counter
    real :: a(8), b(8)
    !$omp threadprivate(counter)
    total = 0; last = 0; priv = 0; first = 1; x = 0; secsum = 0; counter = 0
    a = 1.0; b = 0.0

    !$omp parallel if(total == 0) num_threads(2) default(shared) private(priv) &
    !$omp& firstprivate(first) shared(a) copyin(counter) reduction(+:total)
    !$omp do schedule(dynamic, 2) collapse(2)
    do i = 1, 2
        do j = 1, 4
            b((i - 1) * 4 + j) = a(j) * i
        end do
    end do
    !$omp end do nowait
    !$omp do ordered schedule(static) lastprivate(last)
    do i = 1, 8
        !$omp ordered
        last = i
        !$omp end ordered
    end do
    !$omp end do
    !$omp sections reduction(+:secsum)
    !$omp section
    secsum = secsum + 1
    !$omp section
    secsum = secsum + 2
    !$omp end sections
    !$omp single
    priv = 5
    !$omp end single copyprivate(priv)
    !$omp master
    x = x + 1
    !$omp end master
    !$omp critical
    x = x + 1
    !$omp end critical
    !$omp critical (named_lock)
    x = x - 1
    !$omp end critical (named_lock)
    !$omp atomic
    x = x + 1
    !$omp barrier
    !$omp flush
    !$omp flush(x)
    !$omp workshare
    b = a + 1.0
    !$omp end workshare
    !$omp task if(.true.) shared(x)
    x = x + 1
    !$omp end task
    !$omp task untied
    x = x + 1
    !$omp end task
    !$omp taskwait
    !$omp end parallel

    !$omp parallel do schedule(guided, 4) reduction(+:total) num_threads(2)
    do i = 1, 8
        total = total + i
    end do
    !$omp end parallel do

    !$omp parallel sections default(none) shared(total)
    !$omp section
    total = total + 1
    !$omp end parallel sections

    !$omp parallel workshare if(.true.)
    a = b
    !$omp end parallel workshare

    !$pomp inst begin(f90_phase)
    x = x + 1
    !$pomp inst end(f90_phase)

    print *, total, last, priv, x, secsum
end program constructs
