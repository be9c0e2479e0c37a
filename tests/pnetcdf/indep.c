/* Independent PnetCDF: indep.nc is created by the 4 ranks; in independent
 * data mode (ncmpi_begin_indep_data) each rank writes its row of "a" (int)
 * with ncmpi_put_vara_int, 3 elements of "b" (double) with ncmpi_put_var1,
 * every other element of "c" (float) with the flexible ncmpi_put_vars, then
 * reads its row of "a" back (ncmpi_get_vara_int) and one element of "b"
 * (ncmpi_get_var1_double), and writes "a" again: reads and writes alternate.
 * Each rank also creates self.nc.RANK on MPI_COMM_SELF (records of one rank
 * only), writes its whole variable with ncmpi_put_var_int_all, and reads it
 * back with the flexible ncmpi_get_var_all and, in independent mode,
 * ncmpi_get_vara_text on a text variable of 100 characters. */
#include "pncwl.h"

#define NX 32

int main(int argc, char **argv)
{
    const char *dir = wl_dir(argc, argv);
    char path[4096];
    int rank, ncid, dim[2], a, b, c, v, txt;
    int ibuf[NX];
    float fbuf[NX];
    double dbuf[NX];
    char text[100];

    MW_OK(MPI_Init(&argc, &argv), "MPI_Init");
    rank = mw_rank();
    for (int i = 0; i < NX; i++) {
        ibuf[i] = rank * 1000 + i;
        fbuf[i] = (float)i;
        dbuf[i] = i * 0.5;
    }
    memset(text, 'a' + rank, sizeof text);

    wl_path(path, sizeof path, dir, "indep.nc");
    PNC_OK(ncmpi_create(MPI_COMM_WORLD, path, NC_CLOBBER, MPI_INFO_NULL, &ncid), "create");
    PNC_OK(ncmpi_def_dim(ncid, "y", MW_NPROCS, &dim[0]), "def_dim y");
    PNC_OK(ncmpi_def_dim(ncid, "x", NX, &dim[1]), "def_dim x");
    PNC_OK(ncmpi_def_var(ncid, "a", NC_INT, 2, dim, &a), "def_var a");
    PNC_OK(ncmpi_def_var(ncid, "b", NC_DOUBLE, 2, dim, &b), "def_var b");
    PNC_OK(ncmpi_def_var(ncid, "c", NC_FLOAT, 2, dim, &c), "def_var c");
    PNC_OK(ncmpi_enddef(ncid), "enddef");
    PNC_OK(ncmpi_begin_indep_data(ncid), "begin_indep_data");
    MPI_Offset start[2] = {rank, 0}, count[2] = {1, NX}, stride[2] = {1, 2};
    PNC_OK(ncmpi_put_vara_int(ncid, a, start, count, ibuf), "put_vara_int");
    for (int i = 0; i < 3; i++) {
        MPI_Offset at[2] = {rank, i * 5};
        PNC_OK(ncmpi_put_var1_double(ncid, b, at, &dbuf[i]), "put_var1_double");
    }
    count[1] = NX / 2;
    PNC_OK(ncmpi_put_vars(ncid, c, start, count, stride, fbuf, NX / 2, MPI_FLOAT), "put_vars");
    count[1] = NX;
    PNC_OK(ncmpi_get_vara_int(ncid, a, start, count, ibuf), "get_vara_int");
    WL_EXPECT_N(ibuf[7], rank * 1000 + 7, "a read back");
    MPI_Offset at[2] = {rank, 5};
    PNC_OK(ncmpi_get_var1_double(ncid, b, at, &dbuf[0]), "get_var1_double");
    PNC_OK(ncmpi_put_vara_int(ncid, a, start, count, ibuf), "put_vara_int again");
    PNC_OK(ncmpi_end_indep_data(ncid), "end_indep_data");
    PNC_OK(ncmpi_close(ncid), "close");

    mw_rank_path(path, sizeof path, dir, "self.nc", rank);
    PNC_OK(ncmpi_create(MPI_COMM_SELF, path, NC_CLOBBER, MPI_INFO_NULL, &ncid), "create self");
    PNC_OK(ncmpi_def_dim(ncid, "x", NX, &dim[0]), "def_dim self x");
    PNC_OK(ncmpi_def_dim(ncid, "len", sizeof text, &dim[1]), "def_dim self len");
    PNC_OK(ncmpi_def_var(ncid, "v", NC_INT, 1, dim, &v), "def_var v");
    PNC_OK(ncmpi_def_var(ncid, "txt", NC_CHAR, 1, &dim[1], &txt), "def_var txt");
    PNC_OK(ncmpi_enddef(ncid), "enddef self");
    PNC_OK(ncmpi_put_var_int_all(ncid, v, ibuf), "put_var_int_all self");
    PNC_OK(ncmpi_put_var_text_all(ncid, txt, text), "put_var_text_all self");
    PNC_OK(ncmpi_get_var_all(ncid, v, ibuf, NX, MPI_INT), "get_var_all self");
    PNC_OK(ncmpi_begin_indep_data(ncid), "begin_indep_data self");
    MPI_Offset ts[1] = {10}, tc[1] = {50};
    PNC_OK(ncmpi_get_vara_text(ncid, txt, ts, tc, text), "get_vara_text self");
    PNC_OK(ncmpi_end_indep_data(ncid), "end_indep_data self");
    PNC_OK(ncmpi_close(ncid), "close self");

    MW_OK(MPI_Finalize(), "MPI_Finalize");
    return 0;
}
