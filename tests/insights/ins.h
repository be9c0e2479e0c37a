/* What the insight workloads share: a failed call ends the program with
 * status 99 and says which. */
#ifndef IOLENS_INS_H
#define IOLENS_INS_H

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MIB (1024L * 1024L)

static inline void ins_check(int ok, const char *what)
{
    if (!ok) {
        perror(what);
        exit(99);
    }
}

/* A buffer of n bytes, filled. */
static inline char *ins_buffer(size_t n)
{
    char *b = malloc(n);
    ins_check(b != NULL, "malloc");
    memset(b, 'x', n);
    return b;
}

/* DIR/NAME into path. */
static inline void ins_path(char *path, size_t len, const char *dir, const char *name)
{
    snprintf(path, len, "%s/%s", dir, name);
}

#endif
