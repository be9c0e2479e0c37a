/* An I/O benchmark kernel in the manner of IOR: a file written and read
 * sequentially in transfers, then read at random offsets, with the
 * buffer filled and checked in between. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#define TRANSFER 65536
#define NTRANSFERS 256
#define NRANDOM 512

unsigned char buffer[TRANSFER];

void fill_pattern(int seed)
{
    for (int r = 0; r < 8; r++)
        for (int i = 0; i < TRANSFER; i++)
            buffer[i] = (unsigned char)((i * 7 + seed + r) & 0xff);
}

void sequential_write(int fd)
{
    for (int t = 0; t < NTRANSFERS; t++)
        write(fd, buffer, TRANSFER);
    fsync(fd);
}

void sequential_read(int fd)
{
    lseek(fd, 0, SEEK_SET);
    for (int t = 0; t < NTRANSFERS; t++)
        read(fd, buffer, TRANSFER);
}

long verify_read(int fd)
{
    long bad = 0;
    lseek(fd, 0, SEEK_SET);
    for (int t = 0; t < NTRANSFERS / 4; t++) {
        read(fd, buffer, TRANSFER);
        for (int i = 0; i < TRANSFER; i++)
            bad += buffer[i] != (unsigned char)((i * 7 + 3) & 0xff);
    }
    return bad;
}

void random_read(int fd)
{
    for (int k = 0; k < NRANDOM; k++) {
        off_t where = (off_t)(rand() % (NTRANSFERS * 16)) * 4096;
        pread(fd, buffer, 4096, where);
    }
}

long check_pattern(void)
{
    long sum = 0;
    for (int r = 0; r < 8; r++)
        for (int i = 0; i < TRANSFER; i++)
            sum += buffer[i] ^ (i & 0xff);
    return sum;
}

int main(void)
{
    int fd = open("ior.dat", O_RDWR | O_CREAT | O_TRUNC, 0644);
    fill_pattern(3);
    sequential_write(fd);
    sequential_read(fd);
    random_read(fd);
    long sum = check_pattern() + verify_read(fd);
    close(fd);
    printf("iokernel: %ld\n", sum);
    return 0;
}
