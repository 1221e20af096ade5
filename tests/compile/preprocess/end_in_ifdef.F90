! `!$omp parallel do` without `!$omp end parallel do`, followed by an
! inactive #ifdef block (issue 19): OPARI2 reading the source puts the end it
! inserts inside the #ifdef, where the compiler never sees it.
program end_in_ifdef
  implicit none
  integer :: i, total
  integer :: a(100)
  total = 0
!$omp parallel do
  do i = 1, 100
     a(i) = i
  end do
#ifdef WEFT_TEST_ALTERNATIVE
  print *, 'never compiled'
#endif
!$omp parallel do reduction(+:total)
  do i = 1, 100
     total = total + a(i)
  end do
#if 0
!$omp end parallel do
#endif
  print '(a,i0)', 'total=', total
end program end_in_ifdef
! SPDX-License-Identifier: BSD-3-Clause
