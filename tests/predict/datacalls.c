/* Two functions moving the same bytes: one in a single write between an
 * open and a close (three I/O calls, one data call), one in two writes on a
 * descriptor it is given (two calls, both data). */
#include <fcntl.h>
#include <unistd.h>

char block[4096];

void one_write(void)
{
    int fd = open("one.dat", O_WRONLY | O_CREAT, 0644);
    write(fd, block, 4096);
    close(fd);
}

void two_writes(int fd)
{
    write(fd, block, 2048);
    write(fd, block + 2048, 2048);
}
