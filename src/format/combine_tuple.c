/* The "four most common accesses" of the H5D and PNETCDF_VAR records: four
 * tuples of IOL_TUPLE_WORDS words (the access size, then five lengths and
 * five strides) and their four counts, ranked by count, then by larger size,
 * as Darshan 3.5 ranks them (DARSHAN_UPDATE_COMMON_VAL_COUNTERS in
 * darshan-common.h, and each module's reduction). */
#include "combine.h"
#include "words.h"

static int same(const int64_t *a, const int64_t *b)
{
    return memcmp(a, b, IOL_TUPLE_WORDS * sizeof(int64_t)) == 0;
}

void iol_tuple4_place(int64_t *vals, int64_t cnts[4], const int64_t *tuple, int64_t count)
{
    int64_t nv[4 * IOL_TUPLE_WORDS] = {0}, nc[4] = {0, 0, 0, 0};
    int64_t rank = iol_rank_count(count);
    int i, k = 0;

    if (tuple[0] == 0)
        return;
    for (i = 0; i < 4 && (cnts[i] > rank || (cnts[i] == rank &&
                                             vals[i * IOL_TUPLE_WORDS] > tuple[0])); i++) {
        memcpy(&nv[k * IOL_TUPLE_WORDS], &vals[i * IOL_TUPLE_WORDS],
               IOL_TUPLE_WORDS * sizeof(int64_t));
        nc[k++] = cnts[i];
    }
    if (k == 4)
        return;
    memcpy(&nv[k * IOL_TUPLE_WORDS], tuple, IOL_TUPLE_WORDS * sizeof(int64_t));
    nc[k++] = rank;
    /* The rest, without the tuple's old entry. */
    for (; k < 4 && i < 4; i++) {
        if (!same(&vals[i * IOL_TUPLE_WORDS], tuple)) {
            memcpy(&nv[k * IOL_TUPLE_WORDS], &vals[i * IOL_TUPLE_WORDS],
                   IOL_TUPLE_WORDS * sizeof(int64_t));
            nc[k++] = cnts[i];
        }
    }
    memcpy(vals, nv, sizeof(nv));
    memcpy(cnts, nc, sizeof(nc));
}

void iol_tuple4_reduce(int64_t *dst_v, int64_t dst_c[4], const int64_t *src_v,
                       const int64_t src_c[4])
{
    int64_t ic[4], ov[4 * IOL_TUPLE_WORDS] = {0}, oc[4] = {0, 0, 0, 0};

    /* A tuple both hold moves dst's count over to src's entry and empties
     * its slot in dst (empty slots match each other too, with counts 0). */
    memcpy(ic, src_c, sizeof(ic));
    for (int j = 0; j < 4; j++) {
        for (int k = 0; k < 4; k++) {
            if (same(&src_v[j * IOL_TUPLE_WORDS], &dst_v[k * IOL_TUPLE_WORDS])) {
                memset(&dst_v[k * IOL_TUPLE_WORDS], 0, IOL_TUPLE_WORDS * sizeof(int64_t));
                ic[j] = iol_add_wrap(ic[j], dst_c[k]);
                dst_c[k] = 0;
            }
        }
    }
    /* A new list: src's tuples, then dst's (a size of 0 is never placed). */
    for (int j = 0; j < 4; j++)
        iol_tuple4_place(ov, oc, &src_v[j * IOL_TUPLE_WORDS], ic[j]);
    for (int j = 0; j < 4; j++)
        iol_tuple4_place(ov, oc, &dst_v[j * IOL_TUPLE_WORDS], dst_c[j]);
    memcpy(dst_v, ov, sizeof(ov));
    memcpy(dst_c, oc, sizeof(oc));
}
