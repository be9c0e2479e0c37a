! A Fortran program's I/O, for the static-linking tests (link_test.sh
! fortran): libgfortran turns each statement into libc calls (open, read,
! write, lseek, fstat, ...), which the runtime must see whether it is
! preloaded into the dynamically linked program or linked into the static one
! (gfortran -static ... $(iolens link-flags)).
!
!   fortran_io DIR
program fortran_io
  implicit none
  character(len=4096) :: dir
  integer :: i, u, ios, fsize
  real(8) :: a(512), b(512)
  character(len=64) :: line
  logical :: there

  call get_command_argument(1, dir)
  do i = 1, 512
    a(i) = i
  end do

  ! sequential unformatted: 4 records of 4 KiB, rewound and read back
  open(newunit=u, file=trim(dir)//'/seq.dat', form='unformatted', access='sequential', &
       status='replace', action='readwrite')
  do i = 1, 4
    write(u) a
  end do
  rewind(u)
  do i = 1, 4
    read(u) b
  end do
  close(u)

  ! direct access: 8 records written, one read at a random place
  open(newunit=u, file=trim(dir)//'/direct.dat', form='unformatted', access='direct', &
       recl=4096, status='replace', action='readwrite')
  do i = 1, 8
    write(u, rec=i) a
  end do
  read(u, rec=3) b
  close(u)

  ! stream access at explicit positions
  open(newunit=u, file=trim(dir)//'/stream.dat', form='unformatted', access='stream', &
       status='replace', action='readwrite')
  write(u, pos=1) a(1:128)
  write(u, pos=8193) a(1:64)
  read(u, pos=513) b(1:32)
  close(u)

  ! formatted: 100 lines written, the file reopened and read to its end,
  ! then deleted
  open(newunit=u, file=trim(dir)//'/text.txt', form='formatted', status='replace')
  do i = 1, 100
    write(u, '(A,I6)') 'line ', i
  end do
  close(u)
  inquire(file=trim(dir)//'/text.txt', exist=there, size=fsize)
  if (.not. there .or. fsize /= 1200) error stop 'text.txt: wrong size'
  open(newunit=u, file=trim(dir)//'/text.txt', form='formatted', status='old', action='read')
  do
    read(u, '(A)', iostat=ios) line
    if (ios /= 0) exit
  end do
  close(u, status='delete')
end program fortran_io
