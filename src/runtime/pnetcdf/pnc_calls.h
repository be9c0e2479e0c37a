/* The read and write calls of PnetCDF that Darshan 3.5 wraps, as one table:
 * every operation, selection kind and buffer type below, combined, is one
 * wrapper of pnc_rw.c and one row of its binding table (550 calls).
 *
 *   ncmpi_<op>_<kind><type><mode>
 *
 * op and mode (IOL_PNC_OPS): put and get, independent or collective (_all);
 * iput, iget and bput, nonblocking (a request id last). kind
 * (IOL_PNC_KINDS): var (whole variable), var1 (one element), vara
 * (subarray), vars (strided), varm (mapped), varn (several subarrays); vard
 * (an MPI datatype over the file) only for put and get, flexible only.
 * type (IOL_PNC_TYPES): flexible (buffer, count and MPI datatype) or one of
 * the 12 element types.
 *
 * Each list calls X(args..., its own columns) for each of its rows, so
 * that IOL_PNC_CALLS(LEAF) calls
 *   LEAF(op, OP, mode, kind, KIND, shape, type, ctype)
 * once per call, with OP and KIND the upper-case parts of the call's
 * counter (PNETCDF_VAR_<OP>_<KIND>), shape flex or typed, and ctype the C
 * element type of a typed call. */
#ifndef IOL_RT_PNC_CALLS_H
#define IOL_RT_PNC_CALLS_H

/* op, OP, mode: the blocking calls, then the nonblocking ones. */
#define IOL_PNC_BLOCKING_OPS(X, ...) \
    X(__VA_ARGS__, put, PUT, ) \
    X(__VA_ARGS__, put, PUT, _all) \
    X(__VA_ARGS__, get, GET, ) \
    X(__VA_ARGS__, get, GET, _all)
#define IOL_PNC_OPS(X, ...) \
    IOL_PNC_BLOCKING_OPS(X, __VA_ARGS__) \
    X(__VA_ARGS__, iput, IPUT, ) \
    X(__VA_ARGS__, iget, IGET, ) \
    X(__VA_ARGS__, bput, BPUT, )

/* kind, KIND (vard apart: IOL_PNC_CALLS). */
#define IOL_PNC_KINDS(X, ...) \
    X(__VA_ARGS__, var, VAR) \
    X(__VA_ARGS__, var1, VAR1) \
    X(__VA_ARGS__, vara, VARA) \
    X(__VA_ARGS__, vars, VARS) \
    X(__VA_ARGS__, varm, VARM) \
    X(__VA_ARGS__, varn, VARN)

/* shape, type suffix, C element type. */
#define IOL_PNC_TYPES(X, ...) \
    X(__VA_ARGS__, flex, , void) \
    X(__VA_ARGS__, typed, _text, char) \
    X(__VA_ARGS__, typed, _schar, signed char) \
    X(__VA_ARGS__, typed, _uchar, unsigned char) \
    X(__VA_ARGS__, typed, _short, short) \
    X(__VA_ARGS__, typed, _ushort, unsigned short) \
    X(__VA_ARGS__, typed, _int, int) \
    X(__VA_ARGS__, typed, _uint, unsigned int) \
    X(__VA_ARGS__, typed, _long, long) \
    X(__VA_ARGS__, typed, _float, float) \
    X(__VA_ARGS__, typed, _double, double) \
    X(__VA_ARGS__, typed, _longlong, long long) \
    X(__VA_ARGS__, typed, _ulonglong, unsigned long long)

/* Every call: ops × kinds × types, and the 4 vard calls. */
#define IOL_PNC_CALLS(LEAF) \
    IOL_PNC_OPS(IOL_PNC_OP_KINDS_, LEAF) \
    IOL_PNC_BLOCKING_OPS(IOL_PNC_OP_VARD_, LEAF)
#define IOL_PNC_OP_KINDS_(LEAF, op, OP, mode) IOL_PNC_KINDS(IOL_PNC_KIND_TYPES_, LEAF, op, OP, mode)
#define IOL_PNC_KIND_TYPES_(LEAF, op, OP, mode, kind, KIND) \
    IOL_PNC_TYPES(LEAF, op, OP, mode, kind, KIND)
#define IOL_PNC_OP_VARD_(LEAF, op, OP, mode) LEAF(op, OP, mode, vard, VARD, flex, , void)

#endif
