/* The "four most common values" (access sizes, strides) of two records of
 * one file, merged as Darshan 3.5's runtime merges them when it reduces a
 * shared record. Lossy and order-dependent on purpose: shared records must
 * hold what the reference holds. */
#include <stdint.h>
#include <string.h>

#include "reduce.h"

/* Darshan keeps the count of the value being placed in a C int; a count past
 * 2^31 wraps there, and so does it here (two's complement, as gcc does). */
static int64_t low32(int64_t x)
{
    return (int32_t)(uint32_t)(uint64_t)x;
}

/* Place (value, count) into the list v/c, ordered by count then by larger
 * value, adding the count the list already holds for value. A value of 0
 * means "empty" and is never placed. */
static void place(int64_t v[4], int64_t c[4], int64_t value, int64_t count)
{
    int64_t nv[4] = {0, 0, 0, 0}, nc[4] = {0, 0, 0, 0};
    int64_t total = low32(count);
    int i, k = 0;

    if (value == 0)
        return;
    for (i = 0; i < 4; i++) {
        if (v[i] == value) {
            total = low32((int64_t)((uint64_t)total + (uint64_t)c[i]));
            break;
        }
    }
    for (i = 0; i < 4; i++) {
        if (!(c[i] > total || (c[i] == total && v[i] > value)))
            break;
        nv[k] = v[i];
        nc[k] = c[i];
        k++;
    }
    if (k == 4)
        return; /* ranks below all four: lost */
    nv[k] = value;
    nc[k] = total;
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
}

void iol_reduce_top4(const int64_t in_v[4], const int64_t in_c[4], int64_t acc_v[4],
                     int64_t acc_c[4])
{
    int64_t iv[4], ic[4], av[4], ac[4], ov[4] = {0, 0, 0, 0}, oc[4] = {0, 0, 0, 0};

    memcpy(iv, in_v, sizeof(iv));
    memcpy(ic, in_c, sizeof(ic));
    memcpy(av, acc_v, sizeof(av));
    memcpy(ac, acc_c, sizeof(ac));
    /* A value both hold moves its accumulated count over to the incoming
     * entry, whose slot in acc empties (empty slots match each other too,
     * harmlessly: their counts are 0). */
    for (int j = 0; j < 4; j++) {
        for (int k = 0; k < 4; k++) {
            if (iv[j] == av[k]) {
                ic[j] = (int64_t)((uint64_t)ic[j] + (uint64_t)ac[k]);
                av[k] = 0;
                ac[k] = 0;
            }
        }
    }
    /* A fresh list: the incoming entries first, then the accumulated ones. */
    for (int j = 0; j < 4; j++)
        place(ov, oc, iv[j], ic[j]);
    for (int j = 0; j < 4; j++)
        place(ov, oc, av[j], ac[j]);
    memcpy(acc_v, ov, sizeof(ov));
    memcpy(acc_c, oc, sizeof(oc));
}
