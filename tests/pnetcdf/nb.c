/* Nonblocking PnetCDF: nb.nc is created by the 4 ranks; each rank posts
 * ncmpi_iput_vara_int, 2 × ncmpi_iput_var1_double, ncmpi_iput_vars_float,
 * the flexible ncmpi_iput_vara and, with an attached buffer, ncmpi_bput_vara_int
 * and ncmpi_bput_varn_int, completed by one ncmpi_wait_all; then
 * ncmpi_iget_vara_int, ncmpi_iget_varn_float and the flexible ncmpi_iget_var1,
 * completed by ncmpi_wait_all with NC_REQ_ALL; then, in independent data
 * mode, ncmpi_iput_var1_int completed by ncmpi_wait. */
#include "pncwl.h"

#define NX 24

int main(int argc, char **argv)
{
    const char *dir = wl_dir(argc, argv);
    char path[4096];
    int rank, ncid, dim[2], a, b, c, d, e, req[8], st[8];
    int ibuf[NX], ibuf2[NX];
    float fbuf[NX];
    double dbuf[NX];

    MW_OK(MPI_Init(&argc, &argv), "MPI_Init");
    rank = mw_rank();
    for (int i = 0; i < NX; i++) {
        ibuf[i] = rank * 10 + i;
        fbuf[i] = (float)i * 2;
        dbuf[i] = i;
    }

    wl_path(path, sizeof path, dir, "nb.nc");
    PNC_OK(ncmpi_create(MPI_COMM_WORLD, path, NC_CLOBBER | NC_64BIT_OFFSET, MPI_INFO_NULL,
                        &ncid), "create");
    PNC_OK(ncmpi_def_dim(ncid, "y", MW_NPROCS, &dim[0]), "def_dim y");
    PNC_OK(ncmpi_def_dim(ncid, "x", NX, &dim[1]), "def_dim x");
    PNC_OK(ncmpi_def_var(ncid, "a", NC_INT, 2, dim, &a), "def_var a");
    PNC_OK(ncmpi_def_var(ncid, "b", NC_DOUBLE, 2, dim, &b), "def_var b");
    PNC_OK(ncmpi_def_var(ncid, "c", NC_FLOAT, 2, dim, &c), "def_var c");
    PNC_OK(ncmpi_def_var(ncid, "d", NC_INT, 2, dim, &d), "def_var d");
    PNC_OK(ncmpi_def_var(ncid, "e", NC_INT, 2, dim, &e), "def_var e");
    PNC_OK(ncmpi_enddef(ncid), "enddef");

    MPI_Offset start[2] = {rank, 0}, count[2] = {1, NX}, stride[2] = {1, 3};
    PNC_OK(ncmpi_iput_vara_int(ncid, a, start, count, ibuf, &req[0]), "iput_vara_int");
    MPI_Offset at0[2] = {rank, 1}, at1[2] = {rank, 2};
    PNC_OK(ncmpi_iput_var1_double(ncid, b, at0, &dbuf[1], &req[1]), "iput_var1_double");
    PNC_OK(ncmpi_iput_var1_double(ncid, b, at1, &dbuf[2], &req[2]), "iput_var1_double 2");
    count[1] = NX / 3;
    PNC_OK(ncmpi_iput_vars_float(ncid, c, start, count, stride, fbuf, &req[3]), "iput_vars");
    count[1] = NX / 2;
    PNC_OK(ncmpi_iput_vara(ncid, d, start, count, ibuf, NX / 2, MPI_INT, &req[4]), "iput_vara");
    PNC_OK(ncmpi_buffer_attach(ncid, 4096), "buffer_attach");
    MPI_Offset ds[2] = {rank, NX / 2};
    PNC_OK(ncmpi_bput_vara_int(ncid, d, ds, count, ibuf, &req[5]), "bput_vara_int");
    MPI_Offset n0[2] = {rank, 0}, n1[2] = {rank, 10}, c0[2] = {1, 5}, c1[2] = {1, 7};
    MPI_Offset *nstarts[2] = {n0, n1}, *ncounts[2] = {c0, c1};
    PNC_OK(ncmpi_bput_varn_int(ncid, e, 2, nstarts, ncounts, ibuf, &req[6]), "bput_varn_int");
    PNC_OK(ncmpi_wait_all(ncid, 7, req, st), "wait_all puts");
    for (int i = 0; i < 7; i++)
        PNC_OK(st[i], "put request");
    PNC_OK(ncmpi_buffer_detach(ncid), "buffer_detach");

    count[1] = NX;
    PNC_OK(ncmpi_iget_vara_int(ncid, a, start, count, ibuf2, &req[0]), "iget_vara_int");
    PNC_OK(ncmpi_iget_varn_float(ncid, c, 2, nstarts, ncounts, fbuf, &req[1]), "iget_varn");
    PNC_OK(ncmpi_iget_var1(ncid, b, at1, dbuf, 1, MPI_DOUBLE, &req[2]), "iget_var1");
    PNC_OK(ncmpi_wait_all(ncid, NC_REQ_ALL, NULL, NULL), "wait_all gets");
    WL_EXPECT_N(ibuf2[9], ibuf[9], "a read back");

    PNC_OK(ncmpi_begin_indep_data(ncid), "begin_indep_data");
    MPI_Offset at2[2] = {rank, NX - 1};
    PNC_OK(ncmpi_iput_var1_int(ncid, a, at2, &ibuf[0], &req[0]), "iput_var1_int");
    PNC_OK(ncmpi_wait(ncid, 1, req, st), "wait");
    PNC_OK(st[0], "indep request");
    PNC_OK(ncmpi_end_indep_data(ncid), "end_indep_data");
    PNC_OK(ncmpi_close(ncid), "close");

    MW_OK(MPI_Finalize(), "MPI_Finalize");
    return 0;
}
