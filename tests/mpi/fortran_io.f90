! MPI-IO from Fortran (use mpi): on fortran.dat, 4 rounds of
! MPI_File_write_at (1024 default integers a rank, round robin), one
! MPI_File_write_at_all and MPI_File_read_at_all of 2048 integers after
! them, a strided view (MPI_Type_vector of 8 blocks of 128 integers, every
! fourth block is the rank's) with one MPI_File_write_all and, after
! MPI_File_seek to 0, one MPI_File_read_all; then MPI_File_iwrite_at of 256
! integers + MPI_Wait and MPI_File_sync. The directory is argument 1.
program fortran_io
  use mpi
  implicit none
  integer, parameter :: n = 1024
  integer :: ierr, rank, nprocs, fh, ftype, req, i
  integer :: status(MPI_STATUS_SIZE)
  integer(kind=MPI_OFFSET_KIND) :: off, disp
  integer :: buf(2048)
  character(len=4096) :: dir

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, nprocs, ierr)
  if (nprocs /= 4) call MPI_Abort(MPI_COMM_WORLD, 2, ierr)
  call get_command_argument(1, dir)
  do i = 1, size(buf)
    buf(i) = i + rank
  end do

  call MPI_File_open(MPI_COMM_WORLD, trim(dir) // '/fortran.dat', &
                     MPI_MODE_CREATE + MPI_MODE_RDWR, MPI_INFO_NULL, fh, ierr)
  call check(ierr, 'MPI_File_open')
  do i = 0, 3
    off = int(i * nprocs + rank, MPI_OFFSET_KIND) * n * 4
    call MPI_File_write_at(fh, off, buf, n, MPI_INTEGER, status, ierr)
    call check(ierr, 'MPI_File_write_at')
  end do
  off = 16 * n * 4 + int(rank, MPI_OFFSET_KIND) * 2048 * 4
  call MPI_File_write_at_all(fh, off, buf, 2048, MPI_INTEGER, status, ierr)
  call check(ierr, 'MPI_File_write_at_all')
  call MPI_File_read_at_all(fh, off, buf, 2048, MPI_INTEGER, status, ierr)
  call check(ierr, 'MPI_File_read_at_all')

  call MPI_Type_vector(8, 128, 128 * nprocs, MPI_INTEGER, ftype, ierr)
  call MPI_Type_commit(ftype, ierr)
  disp = int(rank, MPI_OFFSET_KIND) * 128 * 4
  call MPI_File_set_view(fh, disp, MPI_INTEGER, ftype, 'native', MPI_INFO_NULL, ierr)
  call check(ierr, 'MPI_File_set_view')
  call MPI_File_write_all(fh, buf, 1024, MPI_INTEGER, status, ierr)
  call check(ierr, 'MPI_File_write_all')
  off = 0
  call MPI_File_seek(fh, off, MPI_SEEK_SET, ierr)
  call MPI_File_read_all(fh, buf, 1024, MPI_INTEGER, status, ierr)
  call check(ierr, 'MPI_File_read_all')
  call MPI_Type_free(ftype, ierr)

  off = 0
  call MPI_File_iwrite_at(fh, off, buf, 256, MPI_INTEGER, req, ierr)
  call check(ierr, 'MPI_File_iwrite_at')
  call MPI_Wait(req, status, ierr)
  call MPI_File_sync(fh, ierr)
  call check(ierr, 'MPI_File_sync')
  call MPI_File_close(fh, ierr)
  call check(ierr, 'MPI_File_close')
  call MPI_Finalize(ierr)

contains

  subroutine check(code, what)
    integer, intent(in) :: code
    character(len=*), intent(in) :: what
    integer :: e
    if (code /= MPI_SUCCESS) then
      write (0, '(a, a)') 'fortran_io: failed: ', what
      call MPI_Abort(MPI_COMM_WORLD, 99, e)
    end if
  end subroutine check
end program fortran_io
