/* One region's bytes built in memory, for writers that place regions
 * themselves (iolens/log_parts.h). */
#include <stdlib.h>
#include <string.h>

#include "codec.h"
#include "iolens/log_parts.h"
#include "log_internal.h"

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

iolens_status iolens_log_records_bytes(int mod_id, uint32_t version, const void *recs, size_t n,
                                       size_t stride, unsigned char **out, size_t *out_len)
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
    if (stride == 0 && !mod->var_size)
        return IOLENS_ERR_ARGUMENT;
    if (!version)
        version = mod->version;
    if (version != mod->version && (version != mod->darshan_3_5_version || !mod->encode))
        return IOLENS_ERR_VERSION;
    const unsigned char *rec = recs;
    for (size_t i = 0; i < n && st == IOLENS_OK;
         rec += stride ? stride : mod->var_size(rec), i++) {
        if (!mod->encode) {
            st = append(&buf, &used, &cap, rec, mod->record_size);
            continue;
        }
        enc.size = 0;
        if ((st = mod->encode(rec, version, &enc)) == IOLENS_OK)
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

/* Double b's output buffer (first: len bytes and a little more, which every
 * codec's output of len bytes fits). @return IOLENS_OK or IOLENS_ERR_NOMEM. */
static iolens_status grow_out(struct iol_codec_buf *b, size_t len)
{
    size_t cap = b->out_cap ? 2 * b->out_cap : len + len / 64 + 4096;
    unsigned char *p = realloc(b->out, cap);
    if (!p)
        return IOLENS_ERR_NOMEM;
    b->out = p;
    b->out_cap = cap;
    return IOLENS_OK;
}

iolens_status iolens_log_compress(iolens_compression comp, const void *in, size_t len,
                                  int records, unsigned char **out, size_t *out_len)
{
    const struct iol_codec *codec = iol_codec(comp);
    struct iol_codec_buf b = {in, 0, len, NULL, 0, 0};
    void *state = NULL;
    iolens_status st;

    *out = NULL;
    *out_len = 0;
    if (!codec || len > ((size_t)1 << 31)) /* one step: zlib and bzip2 count in 32 bits */
        return IOLENS_ERR_COMPRESSION;
    if (len == 0)
        return IOLENS_OK;
    if ((st = codec->enc_new(&state)) != IOLENS_OK)
        return st;
    /* A large region's settings (the size of the region this part belongs to
     * is not known here), as the parts always had: zlib's default window and
     * memory, and for records the tuned search. */
    if (codec->enc_start)
        st = codec->enc_start(state, SIZE_MAX, records);
    while (st == IOLENS_OK) {
        if (b.out_pos == b.out_cap && (st = grow_out(&b, len)) != IOLENS_OK)
            break;
        st = codec->enc_step(state, &b, 1);
    }
    if (state)
        codec->enc_free(state);
    if (st != IOLENS_END) {
        free(b.out);
        return st;
    }
    *out = b.out;
    *out_len = b.out_pos;
    return IOLENS_OK;
}
