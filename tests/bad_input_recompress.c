/* Test helper: re-encode the regions of a Darshan-format log image. */
#include "bad_input_recompress.h"

#include <bzlib.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#include <zstd.h>

#define MAGIC 6567223ULL
#define MAX_OUT ((size_t)64 << 20) /* refuse to inflate a region past this */

static uint64_t bswap64(uint64_t v)
{
    return __builtin_bswap64(v);
}

static uint64_t rd64(const unsigned char *p, int swap)
{
    uint64_t v;
    memcpy(&v, p, 8);
    return swap ? bswap64(v) : v;
}

static uint32_t rd32(const unsigned char *p, int swap)
{
    uint32_t v;
    memcpy(&v, p, 4);
    return swap ? __builtin_bswap32(v) : v;
}

static void wr64(unsigned char *p, uint64_t v, int swap)
{
    if (swap)
        v = bswap64(v);
    memcpy(p, &v, 8);
}

static void wr32(unsigned char *p, uint32_t v, int swap)
{
    if (swap)
        v = __builtin_bswap32(v);
    memcpy(p, &v, 4);
}

int bi_read_header(const unsigned char *img, size_t len, struct bi_header *h)
{
    memset(h, 0, sizeof(*h));
    if (len < 360 || img[0] != '3' || img[1] != '.')
        return -1;
    memcpy(h->version, img, 8);
    h->wide = !strncmp((const char *)img, "3.41", 4);
    h->size = h->wide ? 1328 : 360;
    h->nslots = h->wide ? 64 : 16;
    if (len < h->size)
        return -1;
    uint64_t magic;
    memcpy(&magic, img + 8, 8);
    if (magic == MAGIC)
        h->swap = 0;
    else if (bswap64(magic) == MAGIC)
        h->swap = 1;
    else
        return -1;
    h->comp = img[16];
    const unsigned char *p;
    if (h->wide) {
        h->partial = rd64(img + 24, h->swap);
        p = img + 32;
    } else {
        h->partial = rd32(img + 20, h->swap);
        p = img + 24;
    }
    h->name_off = rd64(p, h->swap);
    h->name_len = rd64(p + 8, h->swap);
    p += 16;
    for (int i = 0; i < h->nslots; i++, p += 16) {
        h->mod_off[i] = rd64(p, h->swap);
        h->mod_len[i] = rd64(p + 8, h->swap);
    }
    for (int i = 0; i < h->nslots; i++, p += 4)
        h->mod_ver[i] = rd32(p, h->swap);

    uint64_t end = len;
    if (h->name_off)
        end = h->name_off;
    else
        for (int i = 0; i < h->nslots; i++)
            if (h->mod_off[i]) {
                end = h->mod_off[i];
                break;
            }
    if (end < h->size || end > len)
        return -1;
    h->job_off = h->size;
    h->job_len = end - h->size;
    if (h->name_off > len || h->name_len > len - h->name_off)
        return -1;
    for (int i = 0; i < h->nslots; i++)
        if (h->mod_off[i] > len || h->mod_len[i] > len - h->mod_off[i])
            return -1;
    return 0;
}

/* Append n bytes to a growing buffer. @return 0 or -1. */
static int grow(unsigned char **buf, size_t *len, size_t *alloc, size_t need)
{
    if (*len + need <= *alloc)
        return 0;
    size_t a = *alloc ? *alloc : 4096;
    while (a < *len + need)
        a *= 2;
    if (a > MAX_OUT)
        return -1;
    unsigned char *p = realloc(*buf, a);
    if (!p)
        return -1;
    *buf = p;
    *alloc = a;
    return 0;
}

static int inflate_all(const unsigned char *in, size_t len, unsigned char **out, size_t *olen)
{
    unsigned char *buf = NULL;
    size_t n = 0, alloc = 0, pos = 0;
    int ok = 0;
    while (pos < len) {
        z_stream z;
        memset(&z, 0, sizeof(z));
        if (inflateInit(&z) != Z_OK)
            goto fail;
        z.next_in = (unsigned char *)in + pos;
        z.avail_in = (uInt)(len - pos);
        int rc;
        do {
            if (grow(&buf, &n, &alloc, 65536) < 0) {
                inflateEnd(&z);
                goto fail;
            }
            z.next_out = buf + n;
            z.avail_out = (uInt)(alloc - n);
            rc = inflate(&z, Z_NO_FLUSH);
            n = alloc - z.avail_out;
        } while (rc == Z_OK);
        pos = len - z.avail_in;
        inflateEnd(&z);
        if (rc != Z_STREAM_END)
            goto fail;
    }
    ok = 1;
fail:
    if (!ok) {
        free(buf);
        return -1;
    }
    *out = buf;
    *olen = n;
    return 0;
}

static int bunzip_all(const unsigned char *in, size_t len, unsigned char **out, size_t *olen)
{
    unsigned char *buf = NULL;
    size_t n = 0, alloc = 0, pos = 0;
    while (pos < len) {
        bz_stream bz;
        memset(&bz, 0, sizeof(bz));
        if (BZ2_bzDecompressInit(&bz, 0, 0) != BZ_OK)
            goto fail;
        bz.next_in = (char *)in + pos;
        bz.avail_in = (unsigned)(len - pos);
        int rc;
        do {
            if (grow(&buf, &n, &alloc, 65536) < 0) {
                BZ2_bzDecompressEnd(&bz);
                goto fail;
            }
            bz.next_out = (char *)buf + n;
            bz.avail_out = (unsigned)(alloc - n);
            rc = BZ2_bzDecompress(&bz);
            n = alloc - bz.avail_out;
        } while (rc == BZ_OK);
        pos = len - bz.avail_in;
        BZ2_bzDecompressEnd(&bz);
        if (rc != BZ_STREAM_END)
            goto fail;
    }
    *out = buf;
    *olen = n;
    return 0;
fail:
    free(buf);
    return -1;
}

static int unzstd_all(const unsigned char *in, size_t len, unsigned char **out, size_t *olen)
{
    unsigned char *buf = NULL;
    size_t n = 0, alloc = 0;
    ZSTD_DStream *ds = ZSTD_createDStream();
    ZSTD_inBuffer ib = {in, len, 0};
    size_t rc = 0;
    if (!ds)
        return -1;
    while (ib.pos < ib.size) {
        if (grow(&buf, &n, &alloc, 65536) < 0)
            goto fail;
        ZSTD_outBuffer ob = {buf + n, alloc - n, 0};
        rc = ZSTD_decompressStream(ds, &ob, &ib);
        if (ZSTD_isError(rc))
            goto fail;
        n += ob.pos;
    }
    if (rc != 0)
        goto fail;
    ZSTD_freeDStream(ds);
    *out = buf;
    *olen = n;
    return 0;
fail:
    ZSTD_freeDStream(ds);
    free(buf);
    return -1;
}

int bi_decompress(int comp, const unsigned char *in, size_t len, unsigned char **out,
                  size_t *out_len)
{
    *out = NULL;
    *out_len = 0;
    switch (comp) {
    case 0: return inflate_all(in, len, out, out_len);
    case 1: return bunzip_all(in, len, out, out_len);
    case 3: return unzstd_all(in, len, out, out_len);
    case 2:
        *out = malloc(len ? len : 1);
        if (!*out)
            return -1;
        if (len)
            memcpy(*out, in, len);
        *out_len = len;
        return 0;
    }
    return -1;
}

int bi_compress(int comp, const unsigned char *in, size_t len, unsigned char **out,
                size_t *out_len)
{
    size_t cap;
    unsigned char *buf = NULL;
    *out = NULL;
    *out_len = 0;
    switch (comp) {
    case 0: {
        uLongf l = compressBound((uLong)len);
        if (!(buf = malloc(l)) || compress2(buf, &l, in, (uLong)len, 6) != Z_OK)
            break;
        *out = buf;
        *out_len = l;
        return 0;
    }
    case 1: {
        unsigned l = (unsigned)(len + len / 100 + 601);
        if (!(buf = malloc(l)) ||
            BZ2_bzBuffToBuffCompress((char *)buf, &l, (char *)in, (unsigned)len, 1, 0, 0) != BZ_OK)
            break;
        *out = buf;
        *out_len = l;
        return 0;
    }
    case 3: {
        cap = ZSTD_compressBound(len);
        if (!(buf = malloc(cap)))
            break;
        size_t l = ZSTD_compress(buf, cap, in, len, 3);
        if (ZSTD_isError(l))
            break;
        *out = buf;
        *out_len = l;
        return 0;
    }
    case 2:
        if (!(buf = malloc(len ? len : 1)))
            return -1;
        if (len)
            memcpy(buf, in, len);
        *out = buf;
        *out_len = len;
        return 0;
    default:
        return -1;
    }
    free(buf);
    return -1;
}

/* Append a compressed region to the image; empty regions are not written. */
static int put_region(int comp, const unsigned char *data, size_t len, unsigned char **img,
                      size_t *n, size_t *alloc, uint64_t *off, uint64_t *rlen)
{
    unsigned char *c;
    size_t clen;
    *off = 0;
    *rlen = 0;
    if (!data || len == 0)
        return 0;
    if (bi_compress(comp, data, len, &c, &clen) < 0)
        return -1;
    if (grow(img, n, alloc, clen) < 0) {
        free(c);
        return -1;
    }
    memcpy(*img + *n, c, clen);
    *off = *n;
    *rlen = clen;
    *n += clen;
    free(c);
    return 0;
}

int bi_build(const struct bi_header *h, int comp, const unsigned char *job, size_t job_len,
             const unsigned char *names, size_t names_len, unsigned char *const mods[64],
             const size_t mod_lens[64], unsigned char **out, size_t *out_len)
{
    size_t hsize = h->wide ? 1328 : 360, nslots = h->wide ? 64 : 16;
    unsigned char *img = NULL;
    size_t n = 0, alloc = 0;
    uint64_t off, len, name_off, name_len, mod_off[64], mod_len[64];
    int sw = h->swap;

    if (grow(&img, &n, &alloc, hsize) < 0)
        return -1;
    memset(img, 0, hsize);
    n = hsize;
    if (put_region(comp, job, job_len, &img, &n, &alloc, &off, &len) < 0 ||
        put_region(comp, names, names_len, &img, &n, &alloc, &name_off, &name_len) < 0)
        goto fail;
    for (size_t i = 0; i < nslots; i++)
        if (put_region(comp, mods[i], mod_lens[i], &img, &n, &alloc, &mod_off[i],
                       &mod_len[i]) < 0)
            goto fail;

    memcpy(img, h->version, 8);
    wr64(img + 8, MAGIC, sw);
    img[16] = (unsigned char)comp;
    unsigned char *p;
    if (h->wide) {
        wr64(img + 24, h->partial, sw);
        p = img + 32;
    } else {
        wr32(img + 20, (uint32_t)h->partial, sw);
        p = img + 24;
    }
    wr64(p, name_off, sw);
    wr64(p + 8, name_len, sw);
    p += 16;
    for (size_t i = 0; i < nslots; i++, p += 16) {
        wr64(p, mod_off[i], sw);
        wr64(p + 8, mod_len[i], sw);
    }
    for (size_t i = 0; i < nslots; i++, p += 4)
        wr32(p, h->mod_ver[i], sw);
    *out = img;
    *out_len = n;
    return 0;
fail:
    free(img);
    return -1;
}

int bi_recompress(const unsigned char *img, size_t len, int comp, unsigned char **out,
                  size_t *out_len)
{
    struct bi_header h;
    unsigned char *job = NULL, *names = NULL, *mods[64] = {0};
    size_t job_len = 0, names_len = 0, mod_lens[64] = {0};
    int rc = -1;

    if (bi_read_header(img, len, &h) < 0)
        return -1;
    if (bi_decompress(h.comp, img + h.job_off, h.job_len, &job, &job_len) < 0)
        goto done;
    if (h.name_len &&
        bi_decompress(h.comp, img + h.name_off, h.name_len, &names, &names_len) < 0)
        goto done;
    for (int i = 0; i < h.nslots; i++)
        if (h.mod_len[i] &&
            bi_decompress(h.comp, img + h.mod_off[i], h.mod_len[i], &mods[i], &mod_lens[i]) < 0)
            goto done;
    rc = bi_build(&h, comp, job, job_len, names, names_len, mods, mod_lens, out, out_len);
done:
    free(job);
    free(names);
    for (int i = 0; i < 64; i++)
        free(mods[i]);
    return rc;
}
