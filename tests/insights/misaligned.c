/* misaligned-io: 16 large writes of 2 MiB + 1 byte: all but the first start
 * off the file system's block boundaries. */
#include "ins.h"

int main(int argc, char **argv)
{
    char path[4096];
    size_t n = 2 * MIB + 1;
    char *buf = ins_buffer(n);
    ins_check(argc > 1, "usage: ins_misaligned DIR");
    ins_path(path, sizeof(path), argv[1], "odd.bin");
    int fd = open(path, O_CREAT | O_TRUNC | O_WRONLY, 0644);
    ins_check(fd >= 0, "open");
    for (int i = 0; i < 16; i++)
        ins_check(write(fd, buf, n) == (ssize_t)n, "write");
    ins_check(close(fd) == 0, "close");
    free(buf);
    return 0;
}
