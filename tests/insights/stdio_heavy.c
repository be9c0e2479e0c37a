/* stdio-heavy: 32 MiB of bulk data written through a STDIO stream. */
#include "ins.h"

int main(int argc, char **argv)
{
    char path[4096];
    char *buf = ins_buffer(MIB);
    ins_check(argc > 1, "usage: ins_stdio_heavy DIR");
    ins_path(path, sizeof(path), argv[1], "bulk.txt");
    FILE *f = fopen(path, "w");
    ins_check(f != NULL, "fopen");
    for (int i = 0; i < 32; i++)
        ins_check(fwrite(buf, 1, MIB, f) == MIB, "fwrite");
    ins_check(fclose(f) == 0, "fclose");
    free(buf);
    return 0;
}
