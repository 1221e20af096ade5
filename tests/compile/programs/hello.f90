program hello
  implicit none
  print '(a)', 'hello from weft compile'
end program hello
