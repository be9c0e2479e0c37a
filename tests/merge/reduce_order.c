/* Print, for NPROCS and each message size of order_mix.h, how
 * iolens_combine_reduce_order combines the ranks' operands: the lines
 * order_probe.c prints from the MPI library's MPI_Reduce. With -v, the order
 * as an expression too, "(a b)" being a folded into b.
 *
 *   reduce_order [-v] NPROCS */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iolens/combine.h"
#include "order_mix.h"

int main(int argc, char **argv)
{
    int verbose = argc > 2 && !strcmp(argv[1], "-v");
    if (argc != 2 + verbose) {
        fprintf(stderr, "usage: reduce_order [-v] NPROCS\n");
        return 2;
    }
    size_t np = strtoul(argv[1 + verbose], NULL, 10);
    uint64_t *h = malloc(np * sizeof(*h));
    char (*expr)[1024] = malloc(np * sizeof(*expr));
    struct iolens_reduce_step *steps = malloc(np * sizeof(*steps));
    if (np < 1 || np > 64 || !h || !expr || !steps)
        return 2;
    for (size_t s = 0; s < sizeof(order_sizes) / sizeof(*order_sizes); s++) {
        for (size_t c = 0; c < sizeof(order_counts) / sizeof(*order_counts); c++) {
            uint64_t bytes = (uint64_t)order_sizes[s] * (uint64_t)order_counts[c];
            for (size_t r = 0; r < np; r++) {
                h[r] = r + 1;
                snprintf(expr[r], sizeof(expr[r]), "%zu", r);
            }
            size_t res = iolens_combine_reduce_order(np, bytes, steps);
            for (size_t k = 0; k + 1 < np; k++) {
                char tmp[1024];
                h[steps[k].inout] = order_mix(h[steps[k].in], h[steps[k].inout]);
                snprintf(tmp, sizeof(tmp), "(%.500s %.500s)", expr[steps[k].in],
                         expr[steps[k].inout]);
                memcpy(expr[steps[k].inout], tmp, sizeof(tmp));
            }
            printf("%zu %llu %llu", np, (unsigned long long)bytes, (unsigned long long)h[res]);
            printf(verbose ? " %s\n" : "\n", expr[res]);
        }
    }
    free(steps);
    free(expr);
    free(h);
    return 0;
}
