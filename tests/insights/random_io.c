/* random-io: 1,100 reads of 512 KiB going backwards through a sparse file
 * (each one below the previous). */
#include "ins.h"

#define BLOCKS 1100

int main(int argc, char **argv)
{
    char path[4096];
    char *buf = ins_buffer(512 * 1024);
    ins_check(argc > 1, "usage: ins_random_io DIR");
    ins_path(path, sizeof(path), argv[1], "sparse.bin");
    int fd = open(path, O_CREAT | O_TRUNC | O_RDWR, 0644);
    ins_check(fd >= 0, "open");
    ins_check(ftruncate(fd, (off_t)BLOCKS * 512 * 1024) == 0, "ftruncate");
    for (int i = BLOCKS - 1; i >= 0; i--)
        ins_check(pread(fd, buf, 512 * 1024, (off_t)i * 512 * 1024) == 512 * 1024, "pread");
    ins_check(close(fd) == 0, "close");
    free(buf);
    return 0;
}
