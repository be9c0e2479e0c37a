/* h5_serial DIR: one process with the serial HDF5 library (not MPI). It
 * creates DIR/serial.h5 with a chunked 2-D dataset /d2 (16 x 32 ints) and a
 * 1-D dataset made with the deprecated H5Dcreate1 in group /grp, and writes
 * and reads /d2 through every kind of file selection: all, regular
 * hyperslabs (contiguous and strided), an irregular hyperslab, points, none;
 * flushes the dataset and the file (through the group). It reopens the file
 * read-only and reaches the datasets again by H5Dopen2 (absolute path),
 * H5Dopen1 (relative to the group), H5Oopen, H5Oopen_by_idx and
 * H5Oopen_by_addr, and H5Oopen's a group (not a dataset). Last, a file
 * created as "ufs:prefixed.h5" (HDF5 takes the name as it is; Darshan drops
 * the prefix of the H5F record's name). Every property list is H5P_DEFAULT:
 * the reference runtime, built with the parallel library, would call
 * H5Pget_fapl_mpio, which the serial library lacks, for any other. */
#include "h5wl.h"

#define ROWS 16
#define COLS 32

static int grid[ROWS * COLS];
static double line[100];

/* Write (or read) n elements of /d2 through the file selection fs. */
static void d2_io(hid_t d, hid_t fs, hssize_t n, int write)
{
    hid_t ms = h5wl_space1(n > 0 ? (hsize_t)n : 1);
    if (n == 0)
        H5_OK(H5Sselect_none(ms), "H5Sselect_none");
    if (write)
        H5_OK(H5Dwrite(d, H5T_NATIVE_INT, ms, fs, H5P_DEFAULT, grid), "H5Dwrite");
    else
        H5_OK(H5Dread(d, H5T_NATIVE_INT, ms, fs, H5P_DEFAULT, grid), "H5Dread");
    H5_OK(H5Sclose(ms), "H5Sclose");
}

static void write_file(const char *path)
{
    hsize_t dims[2] = {ROWS, COLS}, chunk[2] = {4, 8};
    hid_t f = H5Fcreate(path, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    H5_OK(f, "H5Fcreate");
    hid_t g = H5Gcreate2(f, "grp", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    H5_OK(g, "H5Gcreate2");
    hid_t space = H5Screate_simple(2, dims, NULL);
    H5_OK(space, "H5Screate_simple");
    hid_t dcpl = H5Pcreate(H5P_DATASET_CREATE);
    H5_OK(dcpl, "H5Pcreate");
    H5_OK(H5Pset_chunk(dcpl, 2, chunk), "H5Pset_chunk");
    hid_t d = H5Dcreate2(f, "d2", H5T_NATIVE_INT, space, H5P_DEFAULT, dcpl, H5P_DEFAULT);
    H5_OK(d, "H5Dcreate2");
    for (int i = 0; i < ROWS * COLS; i++)
        grid[i] = i;
    H5_OK(H5Dwrite(d, H5T_NATIVE_INT, H5S_ALL, H5S_ALL, H5P_DEFAULT, grid), "H5Dwrite all");

    hid_t fs = H5Dget_space(d);
    H5_OK(fs, "H5Dget_space");
    hsize_t start[2] = {0, 0}, stride[2] = {1, 1}, count[2] = {4, 1}, block[2] = {1, COLS};
    H5_OK(H5Sselect_hyperslab(fs, H5S_SELECT_SET, start, stride, count, block), "hyperslab");
    for (int k = 0; k < 3; k++)
        d2_io(d, fs, 4 * COLS, 1); /* rows 0-3, three times */
    hsize_t start2[2] = {1, 2}, stride2[2] = {2, 4}, count2[2] = {3, 5}, block2[2] = {1, 2};
    H5_OK(H5Sselect_hyperslab(fs, H5S_SELECT_SET, start2, stride2, count2, block2), "strided");
    d2_io(d, fs, 30, 1);
    d2_io(d, fs, 30, 0);
    hsize_t start3[2] = {10, 0}, count3[2] = {2, 3};
    H5_OK(H5Sselect_hyperslab(fs, H5S_SELECT_OR, start3, NULL, count3, NULL), "union");
    d2_io(d, fs, 36, 1); /* irregular: the strided slab and a block */
    hsize_t points[5][2] = {{0, 0}, {3, 7}, {9, 9}, {15, 31}, {8, 1}};
    H5_OK(H5Sselect_elements(fs, H5S_SELECT_SET, 5, &points[0][0]), "H5Sselect_elements");
    d2_io(d, fs, 5, 0);
    d2_io(d, fs, 5, 1);
    H5_OK(H5Sselect_none(fs), "H5Sselect_none");
    d2_io(d, fs, 0, 1);
    H5_OK(H5Dread(d, H5T_NATIVE_INT, H5S_ALL, H5S_ALL, H5P_DEFAULT, grid), "H5Dread all");
    H5_OK(H5Dflush(d), "H5Dflush");
    H5_OK(H5Sclose(fs), "H5Sclose");
    H5_OK(H5Dclose(d), "H5Dclose");

    hid_t s1 = h5wl_space1(100);
    hid_t d1 = H5Dcreate1(g, "d1", H5T_NATIVE_DOUBLE, s1, H5P_DEFAULT);
    H5_OK(d1, "H5Dcreate1");
    H5_OK(H5Dwrite(d1, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, line), "H5Dwrite d1");
    H5_OK(H5Dclose(d1), "H5Dclose d1");
    H5_OK(H5Fflush(g, H5F_SCOPE_GLOBAL), "H5Fflush");
    H5_OK(H5Sclose(s1), "H5Sclose");
    H5_OK(H5Pclose(dcpl), "H5Pclose");
    H5_OK(H5Sclose(space), "H5Sclose");
    H5_OK(H5Gclose(g), "H5Gclose");
    H5_OK(H5Fclose(f), "H5Fclose");
}

static void read_file(const char *path)
{
    hid_t f = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    H5_OK(f, "H5Fopen");
    hid_t d = H5Dopen2(f, "/grp/d1", H5P_DEFAULT);
    H5_OK(d, "H5Dopen2");
    H5_OK(H5Dread(d, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, line), "H5Dread");
    H5_OK(H5Dclose(d), "H5Dclose");
    hid_t g = H5Gopen2(f, "grp", H5P_DEFAULT);
    H5_OK(g, "H5Gopen2");
    d = H5Dopen1(g, "d1");
    H5_OK(d, "H5Dopen1");
    H5_OK(H5Dread(d, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, line), "H5Dread");
    H5_OK(H5Dclose(d), "H5Dclose");
    hid_t o = H5Oopen(f, "d2", H5P_DEFAULT);
    H5_OK(o, "H5Oopen");
    H5_OK(H5Dread(o, H5T_NATIVE_INT, H5S_ALL, H5S_ALL, H5P_DEFAULT, grid), "H5Dread");
    H5O_info_t info;
    H5_OK(H5Oget_info2(o, &info, H5O_INFO_BASIC), "H5Oget_info2");
    H5_OK(H5Oclose(o), "H5Oclose");
    o = H5Oopen_by_idx(f, ".", H5_INDEX_NAME, H5_ITER_INC, 0, H5P_DEFAULT); /* d2 */
    H5_OK(o, "H5Oopen_by_idx");
    H5_OK(H5Dread(o, H5T_NATIVE_INT, H5S_ALL, H5S_ALL, H5P_DEFAULT, grid), "H5Dread");
    H5_OK(H5Oclose(o), "H5Oclose");
    o = H5Oopen_by_addr(f, info.addr);
    H5_OK(o, "H5Oopen_by_addr");
    H5_OK(H5Dclose(o), "H5Dclose");
    o = H5Oopen(f, "grp", H5P_DEFAULT);
    H5_OK(o, "H5Oopen group");
    H5_OK(H5Oclose(o), "H5Oclose group");
    H5_OK(H5Gclose(g), "H5Gclose");
    H5_OK(H5Fclose(f), "H5Fclose");
}

int main(int argc, char **argv)
{
    char path[4096];
    WL_CHECK(argc >= 2, "usage: h5_serial DIR");
    wl_path(path, sizeof path, argv[1], "serial.h5");
    write_file(path);
    read_file(path);
    hid_t f = H5Fcreate("ufs:prefixed.h5", H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    H5_OK(f, "H5Fcreate prefixed");
    hid_t s = h5wl_space1(100);
    hid_t d = H5Dcreate2(f, "x", H5T_NATIVE_DOUBLE, s, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    H5_OK(d, "H5Dcreate2 x");
    H5_OK(H5Dwrite(d, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, line), "H5Dwrite x");
    H5_OK(H5Dclose(d), "H5Dclose x");
    H5_OK(H5Sclose(s), "H5Sclose");
    H5_OK(H5Fclose(f), "H5Fclose prefixed");
    return 0;
}
