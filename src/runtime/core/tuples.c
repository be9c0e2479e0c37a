/* Access-tuple counting for the four most common tuples (tuples.h). */
#include "tuples.h"

#include <string.h>

/* @return tuple's index in t, added if there is room, or -1. */
static int find_or_add(struct iol_tuples *t, const int64_t *tuple)
{
    uint32_t h = t->hint;
    if (h < t->n && memcmp(t->tuple[h], tuple, sizeof(t->tuple[h])) == 0)
        return (int)h;
    for (uint32_t i = 0; i < t->n; i++)
        if (memcmp(t->tuple[i], tuple, sizeof(t->tuple[i])) == 0)
            return (int)i;
    if (t->n == IOL_TUPLES_MAX)
        return -1;
    memcpy(t->tuple[t->n], tuple, sizeof(t->tuple[t->n]));
    t->count[t->n] = 0;
    return (int)t->n++;
}

void iol_tuples_note(struct iol_tuples *t, int64_t *vals, int64_t cnts[4], const int64_t *tuple)
{
    int i = find_or_add(t, tuple);
    if (i < 0)
        return;
    t->hint = (uint32_t)i;
    iol_tuple4_place(vals, cnts, tuple, ++t->count[i]);
}
