/* Its loop count comes from the compile command (-DNRECORDS=...). */
#include <stdio.h>

#ifndef NRECORDS
#define NRECORDS 1
#endif

void write_records(FILE *fp, const char *rec)
{
    for (int i = 0; i < NRECORDS; i++)
        fputs("record\n", fp);
}
