/* redundant-read: an 8 MiB file written once and read four times over. */
#include "ins.h"

int main(int argc, char **argv)
{
    char path[4096];
    char *buf = ins_buffer(4 * MIB);
    ins_check(argc > 1, "usage: ins_redundant_read DIR");
    ins_path(path, sizeof(path), argv[1], "input.bin");
    int fd = open(path, O_CREAT | O_TRUNC | O_RDWR, 0644);
    ins_check(fd >= 0, "open");
    for (int i = 0; i < 2; i++)
        ins_check(write(fd, buf, 4 * MIB) == 4 * MIB, "write");
    for (int pass = 0; pass < 4; pass++) {
        ins_check(lseek(fd, 0, SEEK_SET) == 0, "lseek");
        for (int i = 0; i < 2; i++)
            ins_check(read(fd, buf, 4 * MIB) == 4 * MIB, "read");
    }
    ins_check(close(fd) == 0, "close");
    free(buf);
    return 0;
}
