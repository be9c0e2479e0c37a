/* Collective PnetCDF: coll.nc is created by the 4 ranks with a record
 * dimension "time" and fixed dimensions y (one row per rank) and x (16), and
 * 7 variables of 5 types: each rank writes its row with _all calls of every
 * kind Darshan counts (var, var1, vara, vars, varm, varn, vard; typed and
 * flexible), the file goes back to define mode once and is synced; then the
 * file is opened again, 5 of the variables are looked up by name and read
 * back with the same kinds (and "grid" whole), and "flag" is read through
 * the variable id kept from the first open, without a lookup. */
#include "pncwl.h"

#define NX 16

int main(int argc, char **argv)
{
    const char *dir = wl_dir(argc, argv);
    char path[4096];
    int rank, ncid, dim[3], grid, pres, temp, cells, step, flag, vd;
    int ibuf[NX], ibuf2[NX], whole[MW_NPROCS * NX];
    float fbuf[NX];
    double dbuf[NX];
    short sval;
    MPI_Datatype filetype;

    MW_OK(MPI_Init(&argc, &argv), "MPI_Init");
    rank = mw_rank();
    for (int i = 0; i < NX; i++) {
        ibuf[i] = rank * 100 + i;
        fbuf[i] = (float)i / 2;
        dbuf[i] = rank + i / 4.0;
    }
    sval = (short)rank;
    int sizes[2] = {MW_NPROCS, NX}, subsizes[2] = {1, NX}, starts[2] = {rank, 0};
    MW_OK(MPI_Type_create_subarray(2, sizes, subsizes, starts, MPI_ORDER_C, MPI_INT, &filetype),
          "subarray");
    MW_OK(MPI_Type_commit(&filetype), "commit");

    wl_path(path, sizeof path, dir, "coll.nc");
    PNC_OK(ncmpi_create(MPI_COMM_WORLD, path, NC_CLOBBER | NC_64BIT_DATA, MPI_INFO_NULL, &ncid),
           "create");
    PNC_OK(ncmpi_def_dim(ncid, "time", NC_UNLIMITED, &dim[0]), "def_dim time");
    PNC_OK(ncmpi_def_dim(ncid, "y", MW_NPROCS, &dim[1]), "def_dim y");
    PNC_OK(ncmpi_def_dim(ncid, "x", NX, &dim[2]), "def_dim x");
    PNC_OK(ncmpi_def_var(ncid, "grid", NC_INT, 2, &dim[1], &grid), "def_var grid");
    PNC_OK(ncmpi_def_var(ncid, "pres", NC_DOUBLE, 2, &dim[1], &pres), "def_var pres");
    PNC_OK(ncmpi_def_var(ncid, "temp", NC_FLOAT, 3, dim, &temp), "def_var temp");
    PNC_OK(ncmpi_def_var(ncid, "cells", NC_INT, 2, &dim[1], &cells), "def_var cells");
    PNC_OK(ncmpi_def_var(ncid, "step", NC_INT64, 0, NULL, &step), "def_var step");
    PNC_OK(ncmpi_def_var(ncid, "flag", NC_SHORT, 1, &dim[1], &flag), "def_var flag");
    PNC_OK(ncmpi_def_var(ncid, "vd", NC_INT, 2, &dim[1], &vd), "def_var vd");
    PNC_OK(ncmpi_enddef(ncid), "enddef");

    MPI_Offset start[3] = {rank, 0, 0}, count[3] = {1, NX, 0}, stride[2] = {1, 2},
               imap[2] = {NX, 1};
    PNC_OK(ncmpi_put_vara_int_all(ncid, grid, start, count, ibuf), "put_vara_int_all");
    count[1] = NX / 2;
    PNC_OK(ncmpi_put_vars_double_all(ncid, pres, start, count, stride, dbuf), "put_vars_all");
    start[1] = 1;
    PNC_OK(ncmpi_put_varm_all(ncid, pres, start, count, stride, imap, dbuf, NX / 2, MPI_DOUBLE),
           "put_varm_all");
    for (int t = 0; t < 2; t++) {
        MPI_Offset ts[3] = {t, rank, 0}, tc[3] = {1, 1, NX};
        PNC_OK(ncmpi_put_vara_float_all(ncid, temp, ts, tc, fbuf), "put_vara_float_all");
    }
    MPI_Offset n0[2] = {rank, 0}, n1[2] = {rank, 8}, c0[2] = {1, 4}, c1[2] = {1, 6};
    MPI_Offset *nstarts[2] = {n0, n1}, *ncounts[2] = {c0, c1};
    PNC_OK(ncmpi_put_varn_int_all(ncid, cells, 2, nstarts, ncounts, ibuf), "put_varn_int_all");
    long long stepval = 7;
    PNC_OK(ncmpi_put_var_longlong_all(ncid, step, &stepval), "put_var_longlong_all");
    MPI_Offset one[1] = {rank};
    PNC_OK(ncmpi_put_var1_short_all(ncid, flag, one, &sval), "put_var1_short_all");
    PNC_OK(ncmpi_put_vard_all(ncid, vd, filetype, ibuf, NX, MPI_INT), "put_vard_all");
    PNC_OK(ncmpi_redef(ncid), "redef");
    PNC_OK(ncmpi_put_att_int(ncid, NC_GLOBAL, "ranks", NC_INT, 1, &(int){MW_NPROCS}),
           "put_att");
    PNC_OK(ncmpi_enddef(ncid), "enddef 2");
    PNC_OK(ncmpi_sync(ncid), "sync");
    PNC_OK(ncmpi_close(ncid), "close");

    PNC_OK(ncmpi_open(MPI_COMM_WORLD, path, NC_NOWRITE, MPI_INFO_NULL, &ncid), "open");
    PNC_OK(ncmpi_inq_varid(ncid, "grid", &grid), "inq_varid grid");
    PNC_OK(ncmpi_inq_varid(ncid, "pres", &pres), "inq_varid pres");
    PNC_OK(ncmpi_inq_varid(ncid, "temp", &temp), "inq_varid temp");
    PNC_OK(ncmpi_inq_varid(ncid, "cells", &cells), "inq_varid cells");
    PNC_OK(ncmpi_inq_varid(ncid, "vd", &vd), "inq_varid vd");
    start[1] = 0;
    count[1] = NX;
    PNC_OK(ncmpi_get_vara_int_all(ncid, grid, start, count, ibuf2), "get_vara_int_all");
    WL_EXPECT_N(ibuf2[5], ibuf[5], "grid read back");
    count[1] = NX / 2;
    PNC_OK(ncmpi_get_vars_double_all(ncid, pres, start, count, stride, dbuf), "get_vars_all");
    PNC_OK(ncmpi_get_varm_all(ncid, pres, start, count, NULL, imap, dbuf, NX / 2, MPI_DOUBLE),
           "get_varm_all");
    MPI_Offset ts[3] = {1, rank, 0}, tc[3] = {1, 1, NX};
    PNC_OK(ncmpi_get_vara_float_all(ncid, temp, ts, tc, fbuf), "get_vara_float_all");
    PNC_OK(ncmpi_get_varn_int_all(ncid, cells, 2, nstarts, ncounts, ibuf2), "get_varn_int_all");
    PNC_OK(ncmpi_get_var1_short_all(ncid, flag, one, &sval), "get_var1_short_all");
    PNC_OK(ncmpi_get_vard_all(ncid, vd, filetype, ibuf2, NX, MPI_INT), "get_vard_all");
    PNC_OK(ncmpi_get_var_int_all(ncid, grid, whole), "get_var_int_all");
    WL_EXPECT_N(whole[NX * rank + 3], ibuf[3], "whole grid read back");
    PNC_OK(ncmpi_close(ncid), "close 2");

    MW_OK(MPI_Type_free(&filetype), "type free");
    MW_OK(MPI_Finalize(), "MPI_Finalize");
    return 0;
}
