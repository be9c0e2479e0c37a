/* Fast number formatting that prints exactly what printf would. */
#ifndef IOLENS_COMMON_NUMFMT_H
#define IOLENS_COMMON_NUMFMT_H

#include <stddef.h>
#include <stdint.h>

/* Longest output of the functions below, including the terminating NUL. */
#define IOL_NUMFMT_MAX 352

/* Write v in decimal ("%" PRIu64) at out. @return characters written (no NUL added). */
size_t iol_fmt_u64(char *out, uint64_t v);

/* Write v in decimal ("%" PRId64) at out. @return characters written. */
size_t iol_fmt_i64(char *out, int64_t v);

/* Write v as printf's "%f" does (six decimals, round-half-even on exact ties,
 * "-0.000000" for tiny negatives, "inf"/"nan"). out needs IOL_NUMFMT_MAX bytes.
 * @return characters written. */
size_t iol_fmt_f6(char *out, double v);

#endif
