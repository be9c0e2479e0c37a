/* Fuzz target: the input describes a log by its decompressed regions, and the
 * target builds a well-formed file around them, so mutations land in the job,
 * name-record and module parsers instead of in compressed bytes or offsets.
 *
 * Input: byte 0: bits 0-2 version (3.00, 3.10, 3.20, 3.21, 3.41), bit 3 big-endian
 *                log, bits 4-5 compression (0, 1: none; 2: zlib; 3: zstd);
 *        byte 1: partial flags (module slots 0-7);
 *        then chunks: slot (0xfe job, 0xff names, else module slot), record
 *        version, 16-bit little-endian length, that many bytes. Chunks of one
 *        slot are concatenated; a short last chunk takes what is left. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../tests/bad_input_recompress.h"
#include "fuzz_common.h"

struct buf {
    unsigned char *p;
    size_t n;
};

static void append(struct buf *b, const uint8_t *data, size_t n)
{
    if (n == 0)
        return;
    unsigned char *p = realloc(b->p, b->n + n);
    if (!p)
        abort();
    memcpy(p + b->n, data, n);
    b->p = p;
    b->n += n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const char *const versions[] = {"3.00", "3.10", "3.20", "3.21", "3.41"};
    static const int comps[] = {2, 2, 0, 3};
    struct bi_header h;
    struct buf job = {0}, names = {0}, mods[64];
    unsigned char *mod_p[64];
    size_t mod_n[64];

    if (size < 2)
        return 0;
    memset(&h, 0, sizeof(h));
    memset(mods, 0, sizeof(mods));
    int v = (data[0] & 7) % 5;
    memcpy(h.version, versions[v], 5);
    h.wide = v == 4;
    h.swap = (data[0] >> 3) & 1;
    int comp = comps[(data[0] >> 4) & 3];
    h.partial = data[1];
    int nslots = h.wide ? 64 : 16;

    size_t pos = 2;
    while (pos + 4 <= size) {
        int slot = data[pos];
        uint32_t ver = data[pos + 1];
        size_t n = (size_t)data[pos + 2] | (size_t)data[pos + 3] << 8;
        pos += 4;
        if (n > size - pos)
            n = size - pos;
        if (slot == 0xfe) {
            append(&job, data + pos, n);
        } else if (slot == 0xff) {
            append(&names, data + pos, n);
        } else {
            slot %= nslots;
            h.mod_ver[slot] = ver;
            append(&mods[slot], data + pos, n);
        }
        pos += n;
    }
    for (int i = 0; i < 64; i++) {
        mod_p[i] = mods[i].p;
        mod_n[i] = mods[i].n;
    }

    unsigned char *img;
    size_t len;
    if (bi_build(&h, comp, job.p, job.n, names.p, names.n, mod_p, mod_n, &img, &len) == 0) {
        fuzz_read_log(fuzz_scratch(img, len));
        free(img);
    }
    free(job.p);
    free(names.p);
    for (int i = 0; i < 64; i++)
        free(mods[i].p);
    return 0;
}
