/* small-io: 2,000 writes of 4 KiB (aligned, sequential) where a few of
 * 1 MiB would do. */
#include "ins.h"

int main(int argc, char **argv)
{
    char path[4096];
    char *buf = ins_buffer(4096);
    ins_check(argc > 1, "usage: ins_small_io DIR");
    ins_path(path, sizeof(path), argv[1], "small.bin");
    int fd = open(path, O_CREAT | O_TRUNC | O_WRONLY, 0644);
    ins_check(fd >= 0, "open");
    for (int i = 0; i < 2000; i++)
        ins_check(write(fd, buf, 4096) == 4096, "write");
    ins_check(close(fd) == 0, "close");
    free(buf);
    return 0;
}
