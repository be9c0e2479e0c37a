/* Counting rules every module applies the same way as Darshan does: cumulative
 * times that do not count overlapping calls twice, first-start/last-end
 * timestamps, and the access-size histogram's buckets. One copy, so that the
 * POSIX, STDIO and MPI-IO records cannot drift apart. */
#ifndef IOL_RT_COUNTING_H
#define IOL_RT_COUNTING_H

#include <stdint.h>

/* Add t1 - t0 to a cumulative time without counting twice the part that
 * overlaps the previous operation of the same kind (whose end is *last_end,
 * moved to t1 if later). */
static inline void iol_add_time(double *timer, double t0, double t1, double *last_end)
{
    double last = *last_end;
    /* (t0 > last ? t1 - t0 : t1 - last), and the later end: without branches */
    *timer += t1 - (t0 > last ? t0 : last);
    *last_end = t1 > last ? t1 : last;
}

/* Widen [*start, *end] to cover [t0, t1] (a start of 0 means none yet). */
static inline void iol_set_start_end(double *start, double *end, double t0, double t1)
{
    if (*start == 0 || *start > t0)
        *start = t0;
    if (*end < t1)
        *end = t1;
}

/* Darshan's access-size histogram: 0-100, 100-1K, ... 1G+ (upper bounds
 * inclusive). @return the bucket of an access of n bytes, 0 to 9. */
static inline int iol_size_bucket(int64_t n)
{
    static const int64_t tops[] = {100, 1024, 10240, 102400, 1048576, 4194304,
                                   10485760, 104857600, 1073741824};
    int i = 0;
    while (i < 9 && n > tops[i])
        i++;
    return i;
}

#endif
