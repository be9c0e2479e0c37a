/* Status codes returned by every iolens library function. */
#ifndef IOLENS_STATUS_H
#define IOLENS_STATUS_H

#include "iolens/api.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Numbers are pinned: a code is never renumbered or reused once released. */
typedef enum iolens_status {
    IOLENS_OK = 0,
    IOLENS_END = 1,            /* no more items: a normal end, not an error */
    IOLENS_ERR_IO = 2,         /* the operating system refused a read or write */
    IOLENS_ERR_NOMEM = 3,      /* an allocation failed */
    IOLENS_ERR_NOT_LOG = 4,    /* not a Darshan-format log (no Darshan magic number) */
    IOLENS_ERR_VERSION = 5,    /* a log or record version this library cannot read */
    IOLENS_ERR_TRUNCATED = 6,  /* the file ends before the data it announces */
    IOLENS_ERR_CORRUPT = 7,    /* inconsistent or undecodable content */
    IOLENS_ERR_COMPRESSION = 8,/* unknown or unavailable compression method */
    IOLENS_ERR_ARGUMENT = 9,   /* the caller passed an invalid argument */
    IOLENS_ERR_PARTIAL = 10,   /* the module's data is incomplete (runtime ran out of memory) */
    IOLENS_ERR_UNKNOWN_MODULE = 11, /* module id this library has no definition for */
    IOLENS_ERR_ORDER = 12,     /* writer calls made out of the format's order */
} iolens_status;

/* Describe a status code in a short English phrase.
 * @return a static string; never NULL, even for unknown codes. */
IOLENS_API const char *iolens_strerror(iolens_status status);

#ifdef __cplusplus
}
#endif
#endif
