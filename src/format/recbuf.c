/* Bounded growable buffer for decoded records. */
#include <stdlib.h>

#include "log_internal.h"

iolens_status iol_recbuf_reserve(struct iolens_recbuf *b, size_t n)
{
    if (n > b->cap)
        return IOLENS_ERR_CORRUPT;
    if (n <= b->alloc)
        return IOLENS_OK;
    size_t want = b->alloc ? b->alloc : 256;
    while (want < n)
        want *= 2;
    if (want > b->cap)
        want = b->cap;
    unsigned char *p = realloc(b->data, want);
    if (!p)
        return IOLENS_ERR_NOMEM;
    b->data = p;
    b->alloc = want;
    return IOLENS_OK;
}
