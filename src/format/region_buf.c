/* One region's bytes built in memory, for writers that place regions
 * themselves (log_build.h). */
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "log_build.h"
#include "log_internal.h"
#include "region_par.h"

/* Append len bytes to the growing buffer *buf of *used bytes (*cap allocated). */
static iolens_status append(unsigned char **buf, size_t *used, size_t *cap, const void *src,
                            size_t len)
{
    if (len > *cap - *used) {
        size_t want = *cap ? *cap : 4096;
        while (want - *used < len)
            want *= 2;
        unsigned char *p = realloc(*buf, want);
        if (!p)
            return IOLENS_ERR_NOMEM;
        *buf = p;
        *cap = want;
    }
    memcpy(*buf + *used, src, len);
    *used += len;
    return IOLENS_OK;
}

iolens_status iol_log_records_bytes(int mod_id, const void *recs, size_t n, size_t stride,
                                    unsigned char **out, size_t *out_len)
{
    const struct iolens_module_desc *mod = iolens_module(mod_id);
    struct iolens_recbuf enc = {.cap = IOL_MAX_RECORD_BYTES};
    unsigned char *buf = NULL;
    size_t used = 0, cap = 0;
    iolens_status st = IOLENS_OK;

    *out = NULL;
    *out_len = 0;
    if (!mod || (!mod->encode && mod->record_size == 0))
        return IOLENS_ERR_UNKNOWN_MODULE;
    for (size_t i = 0; i < n && st == IOLENS_OK; i++) {
        const unsigned char *rec = (const unsigned char *)recs + i * stride;
        if (!mod->encode) {
            st = append(&buf, &used, &cap, rec, mod->record_size);
            continue;
        }
        enc.size = 0;
        if ((st = mod->encode(rec, &enc)) == IOLENS_OK)
            st = append(&buf, &used, &cap, enc.data, enc.size);
    }
    free(enc.data);
    if (st != IOLENS_OK) {
        free(buf);
        return st;
    }
    *out = buf;
    *out_len = used;
    return IOLENS_OK;
}

iolens_status iol_log_compress(const void *in, size_t len, int records, unsigned char **out,
                               size_t *out_len)
{
    z_stream z;
    iolens_status st = IOLENS_ERR_COMPRESSION;

    *out = NULL;
    *out_len = 0;
    if (len == 0)
        return IOLENS_OK;
    if (len > ((size_t)1 << 31))
        return IOLENS_ERR_COMPRESSION; /* one deflate call: avail_in and avail_out are 32-bit */
    size_t cap = compressBound((uLong)len);
    unsigned char *buf = malloc(cap);
    if (!buf)
        return IOLENS_ERR_NOMEM;
    memset(&z, 0, sizeof(z));
    if (deflateInit(&z, Z_DEFAULT_COMPRESSION) != Z_OK) {
        free(buf);
        return IOLENS_ERR_COMPRESSION;
    }
    if (!records || iol_par_tune(&z) == Z_OK) {
        z.next_in = (Bytef *)(uintptr_t)in;
        z.avail_in = (uInt)len;
        z.next_out = buf;
        z.avail_out = (uInt)cap;
        if (deflate(&z, Z_FINISH) == Z_STREAM_END)
            st = IOLENS_OK;
    }
    deflateEnd(&z);
    if (st != IOLENS_OK) {
        free(buf);
        return st;
    }
    *out = buf;
    *out_len = cap - z.avail_out;
    return IOLENS_OK;
}
