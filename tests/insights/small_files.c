/* many-small-files: 2,000 files of 2 KiB, each written in one request. */
#include "ins.h"

int main(int argc, char **argv)
{
    char path[4096];
    char *buf = ins_buffer(2048);
    ins_check(argc > 1, "usage: ins_small_files DIR");
    for (int i = 0; i < 2000; i++) {
        snprintf(path, sizeof(path), "%s/piece.%04d", argv[1], i);
        int fd = open(path, O_CREAT | O_TRUNC | O_WRONLY, 0644);
        ins_check(fd >= 0, "open");
        ins_check(write(fd, buf, 2048) == 2048, "write");
        ins_check(close(fd) == 0, "close");
    }
    free(buf);
    return 0;
}
