/* Print, for each message size of order_mix.h, how the MPI library's
 * MPI_Reduce (a commutative operation on a contiguous type, root 0, as the
 * runtime's reduction calls it) combined the ranks' operands: one line
 * "NPROCS BYTES HASH" on rank 0 (see reduce_order.c, which prints the same
 * from iolens_combine_reduce_order). */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "order_mix.h"

static int elem_size;

static void op(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    (void)dt;
    for (int i = 0; i < *len; i++) {
        uint64_t a, b;
        memcpy(&a, (char *)in + (size_t)i * elem_size, sizeof(a));
        memcpy(&b, (char *)inout + (size_t)i * elem_size, sizeof(b));
        b = order_mix(a, b);
        memcpy((char *)inout + (size_t)i * elem_size, &b, sizeof(b));
    }
}

int main(int argc, char **argv)
{
    int rank, np;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    for (size_t s = 0; s < sizeof(order_sizes) / sizeof(*order_sizes); s++) {
        for (size_t c = 0; c < sizeof(order_counts) / sizeof(*order_counts); c++) {
            int n = order_counts[c];
            elem_size = order_sizes[s];
            char *send = calloc((size_t)n, (size_t)elem_size);
            char *recv = calloc((size_t)n, (size_t)elem_size);
            uint64_t mine = (uint64_t)rank + 1, first, last;
            MPI_Datatype t;
            MPI_Op o;
            if (!send || !recv)
                MPI_Abort(MPI_COMM_WORLD, 1);
            for (int i = 0; i < n; i++)
                memcpy(send + (size_t)i * elem_size, &mine, sizeof(mine));
            MPI_Type_contiguous(elem_size, MPI_BYTE, &t);
            MPI_Type_commit(&t);
            MPI_Op_create(op, 1, &o);
            MPI_Reduce(send, recv, n, t, o, 0, MPI_COMM_WORLD);
            memcpy(&first, recv, sizeof(first));
            memcpy(&last, recv + (size_t)(n - 1) * elem_size, sizeof(last));
            if (rank == 0)
                printf("%d %d %llu%s\n", np, n * elem_size, (unsigned long long)first,
                       first == last ? "" : " (elements differ)");
            MPI_Op_free(&o);
            MPI_Type_free(&t);
            free(send);
            free(recv);
        }
    }
    MPI_Finalize();
    return 0;
}
