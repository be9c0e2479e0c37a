/* Seed corpora for the fuzz targets, made from real logs:
 *   mkseeds LOG_CORPUS REGION_CORPUS LOG...
 * LOG_CORPUS gets each log as it is and re-encoded as bzip2, zstd and
 * uncompressed (fuzz_log); REGION_CORPUS gets each log's decompressed regions
 * in fuzz_regions' input format. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../tests/bad_input_recompress.h"

static int slurp(const char *path, unsigned char **out, size_t *len)
{
    FILE *f = fopen(path, "rb");
    long n;
    if (!f)
        return -1;
    if (fseek(f, 0, SEEK_END) != 0 || (n = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) != 0 ||
        !(*out = malloc((size_t)n + 1)) || fread(*out, 1, (size_t)n, f) != (size_t)n) {
        fclose(f);
        return -1;
    }
    fclose(f);
    *len = (size_t)n;
    return 0;
}

static int spill(const char *dir, const char *base, const char *suffix, const unsigned char *p,
                 size_t n)
{
    char path[4096];
    snprintf(path, sizeof(path), "%s/%s%s", dir, base, suffix);
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(p, 1, n, f) != n) {
        if (f)
            fclose(f);
        fprintf(stderr, "mkseeds: cannot write %s\n", path);
        return -1;
    }
    return fclose(f) == 0 ? 0 : -1;
}

/* Region seeds keep at most this much of each region: small inputs fuzz faster. */
#define REGION_SEED_MAX 16384

/* Append chunks (slot, ver, len16, bytes) holding one region. */
static void chunks(FILE *f, int slot, uint32_t ver, const unsigned char *p, size_t n)
{
    if (n > REGION_SEED_MAX)
        n = REGION_SEED_MAX;
    do {
        size_t k = n > 65535 ? 65535 : n;
        unsigned char hdr[4] = {(unsigned char)slot, (unsigned char)ver, (unsigned char)(k & 255),
                                (unsigned char)(k >> 8)};
        fwrite(hdr, 1, 4, f);
        fwrite(p, 1, k, f);
        p += k;
        n -= k;
    } while (n > 0);
}

static int region_seed(const char *dir, const char *base, const unsigned char *img, size_t len)
{
    struct bi_header h;
    unsigned char *r;
    size_t rn;
    char path[4096];
    if (bi_read_header(img, len, &h) < 0)
        return -1;
    snprintf(path, sizeof(path), "%s/%s.regions", dir, base);
    FILE *f = fopen(path, "wb");
    if (!f)
        return -1;
    static const char *const versions[] = {"3.00", "3.10", "3.20", "3.21", "3.41"};
    int v = 4;
    for (int i = 0; i < 5; i++)
        if (!strncmp(h.version, versions[i], 4))
            v = i;
    fputc(v | h.swap << 3, f);
    fputc((int)(h.partial & 255), f);
    if (bi_decompress(h.comp, img + h.job_off, h.job_len, &r, &rn) == 0) {
        chunks(f, 0xfe, 0, r, rn);
        free(r);
    }
    if (h.name_len && bi_decompress(h.comp, img + h.name_off, h.name_len, &r, &rn) == 0) {
        chunks(f, 0xff, 0, r, rn);
        free(r);
    }
    for (int i = 0; i < h.nslots; i++) {
        if (h.mod_len[i] && bi_decompress(h.comp, img + h.mod_off[i], h.mod_len[i], &r, &rn) == 0) {
            chunks(f, i, h.mod_ver[i], r, rn);
            free(r);
        } else if (h.mod_ver[i]) {
            chunks(f, i, h.mod_ver[i], NULL, 0);
        }
    }
    return fclose(f) == 0 ? 0 : -1;
}

int main(int argc, char **argv)
{
    static const struct {
        int comp;
        const char *suffix;
    } re[] = {{1, ".bz2"}, {2, ".none"}, {3, ".zst"}};
    int rc = 0;
    if (argc < 4) {
        fprintf(stderr, "usage: mkseeds LOG_CORPUS REGION_CORPUS LOG...\n");
        return 2;
    }
    for (int a = 3; a < argc; a++) {
        unsigned char *img, *out;
        size_t len, olen;
        const char *base = strrchr(argv[a], '/') ? strrchr(argv[a], '/') + 1 : argv[a];
        if (slurp(argv[a], &img, &len) < 0) {
            fprintf(stderr, "mkseeds: cannot read %s\n", argv[a]);
            rc = 1;
            continue;
        }
        if (spill(argv[1], base, "", img, len) < 0)
            rc = 1;
        for (size_t i = 0; i < sizeof(re) / sizeof(re[0]); i++) {
            if (bi_recompress(img, len, re[i].comp, &out, &olen) == 0) {
                if (spill(argv[1], base, re[i].suffix, out, olen) < 0)
                    rc = 1;
                free(out);
            }
        }
        if (region_seed(argv[2], base, img, len) < 0)
            fprintf(stderr, "mkseeds: no region seed from %s\n", argv[a]);
        free(img);
    }
    return rc;
}
