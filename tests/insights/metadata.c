/* metadata-heavy: 2,000 empty files created, closed and stat'ed: no data,
 * all metadata. */
#include <sys/stat.h>

#include "ins.h"

int main(int argc, char **argv)
{
    char path[4096];
    struct stat sb;
    ins_check(argc > 1, "usage: ins_metadata DIR");
    for (int i = 0; i < 2000; i++) {
        snprintf(path, sizeof(path), "%s/empty.%04d", argv[1], i);
        int fd = open(path, O_CREAT | O_TRUNC | O_WRONLY, 0644);
        ins_check(fd >= 0, "open");
        ins_check(close(fd) == 0, "close");
        ins_check(stat(path, &sb) == 0, "stat");
    }
    return 0;
}
