/* The "four most common values" (access sizes, strides) of two records of one
 * file merged into one list, as Darshan 3.5 does it: lossy and
 * order-dependent on purpose, quirks included, so that combined records hold
 * what the reference's hold. Both modes place values one at a time into a
 * list by the same rule; they differ in which list and in what they place. */
#include "combine.h"
#include "words.h"

/* Place (value, count) into the list v/c, ordered by count, then by larger
 * value. A value already listed adds its count to the ranking count and
 * leaves its old place. The count stored is the ranking count if keep_rank,
 * else count as given. @return 0 if value ranks below all four (the list is
 * unchanged), else 1. */
static int place(int64_t v[4], int64_t c[4], int64_t value, int64_t count, int keep_rank)
{
    int64_t nv[4] = {0, 0, 0, 0}, nc[4] = {0, 0, 0, 0};
    int64_t rank = iol_rank_count(count);
    int i, k = 0;

    for (i = 0; i < 4; i++) {
        if (v[i] == value) {
            rank = iol_rank_count(iol_add_wrap(count, c[i]));
            break;
        }
    }
    for (i = 0; i < 4 && (c[i] > rank || (c[i] == rank && v[i] > value)); i++) {
        nv[k] = v[i];
        nc[k] = c[i];
        k++;
    }
    if (k == 4)
        return 0;
    nv[k] = value;
    nc[k] = keep_rank ? rank : count;
    k++;
    /* The rest, without value's old entry. Darshan reads on past the fourth
     * entry if value is listed twice, which only wrapped counts can cause;
     * here the list is then padded with empty entries instead. */
    for (; k < 4 && i < 4; i++) {
        if (v[i] != value) {
            nv[k] = v[i];
            nc[k] = c[i];
            k++;
        }
    }
    memcpy(v, nv, sizeof(nv));
    memcpy(c, nc, sizeof(nc));
    return 1;
}

/* TOTAL (darshan-parser): values dst holds add src's counts in place; src's
 * other values are placed into dst's list with their own counts. A 0 value
 * ends src's list, and so does a value that ranks below all four. */
static void merge_in_place(int64_t dv[4], int64_t dc[4], const int64_t sv[4],
                           const int64_t sc[4])
{
    int seen[4] = {0, 0, 0, 0};

    for (int j = 0; j < 4; j++) {
        for (int k = 0; k < 4; k++) {
            if (dv[k] == sv[j]) {
                dc[k] = iol_add_wrap(dc[k], sc[j]);
                seen[j] = 1;
            }
        }
    }
    for (int j = 0; j < 4; j++) {
        if (seen[j])
            continue;
        if (sv[j] == 0 || !place(dv, dc, sv[j], sc[j], 0))
            break;
    }
}

/* REDUCE (the runtime): a value both hold moves dst's count over to src's
 * entry, whose slot in dst empties (empty slots match each other too,
 * harmlessly: their counts are 0); then a new list takes src's entries, then
 * dst's, with their summed counts. 0 values are never placed. */
static void merge_new_list(int64_t dv[4], int64_t dc[4], const int64_t sv[4],
                           const int64_t sc[4])
{
    int64_t ic[4], ov[4] = {0, 0, 0, 0}, oc[4] = {0, 0, 0, 0};

    memcpy(ic, sc, sizeof(ic));
    for (int j = 0; j < 4; j++) {
        for (int k = 0; k < 4; k++) {
            if (sv[j] == dv[k]) {
                ic[j] = iol_add_wrap(ic[j], dc[k]);
                dv[k] = 0;
                dc[k] = 0;
            }
        }
    }
    for (int j = 0; j < 4; j++)
        if (sv[j] != 0)
            place(ov, oc, sv[j], ic[j], 1);
    for (int j = 0; j < 4; j++)
        if (dv[j] != 0)
            place(ov, oc, dv[j], dc[j], 1);
    memcpy(dv, ov, sizeof(ov));
    memcpy(dc, oc, sizeof(oc));
}

void iol_top4_merge(int64_t dst_v[4], int64_t dst_c[4], const int64_t src_v[4],
                    const int64_t src_c[4], int new_list)
{
    if (new_list)
        merge_new_list(dst_v, dst_c, src_v, src_c);
    else
        merge_in_place(dst_v, dst_c, src_v, src_c);
}
