/* Which names are shared (see shared.h). Only rank 0's names are offered,
 * as in Darshan 3.5: a name is shared in module M when every rank has a
 * record of it registered by M, which the bitwise AND of the ranks' module
 * masks says in one reduction. */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "shared.h"

const struct iol_mpi_name *iol_mpi_name_find(const struct iol_mpi_local *l, uint64_t id)
{
    size_t lo = 0, hi = l->nnames;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (l->names[mid].id < id)
            lo = mid + 1;
        else if (l->names[mid].id > id)
            hi = mid;
        else
            return &l->names[mid];
    }
    return NULL;
}

int iol_mpi_shared_find(struct iol_mpi_local *l, uint64_t *shared)
{
    uint64_t n = iol_mpi.rank == 0 ? l->nnames : 0;
    uint64_t *ids = NULL, *mine = NULL, *all = NULL;
    int rc = -1;

    memset(shared, 0, l->nnames * sizeof(*shared));
    if (PMPI_Bcast(&n, 1, MPI_UINT64_T, 0, iol_mpi.comm) != MPI_SUCCESS)
        return -1;
    if (n == 0)
        return 0;
    /* Every rank learns n, so every rank takes the same branch here. */
    int failed = n > INT_MAX || !(ids = malloc(n * sizeof(*ids))) ||
                 !(mine = malloc(n * sizeof(*mine))) || !(all = malloc(n * sizeof(*all)));
    if (iol_mpi_any_failed(failed))
        goto out;
    for (size_t i = 0; iol_mpi.rank == 0 && i < n; i++)
        ids[i] = l->names[i].id;
    if (PMPI_Bcast(ids, (int)n, MPI_UINT64_T, 0, iol_mpi.comm) != MPI_SUCCESS)
        goto out;
    for (size_t i = 0; i < n; i++) {
        const struct iol_mpi_name *nm = iol_mpi_name_find(l, ids[i]);
        mine[i] = nm ? nm->mods : 0;
    }
    if (PMPI_Allreduce(mine, all, (int)n, MPI_UINT64_T, MPI_BAND, iol_mpi.comm) != MPI_SUCCESS)
        goto out;
    for (size_t i = 0; i < n; i++) {
        const struct iol_mpi_name *nm = all[i] ? iol_mpi_name_find(l, ids[i]) : NULL;
        if (nm) /* a non-zero AND means this rank has it too */
            shared[nm - l->names] = all[i];
    }
    rc = 0;
out:
    free(all);
    free(mine);
    free(ids);
    return rc;
}
