/* Adler-32 checksum (the check value of zlib streams), vectorised where the
 * CPU allows. */
#ifndef IOLENS_COMMON_ADLER32_H
#define IOLENS_COMMON_ADLER32_H

#include <stddef.h>
#include <stdint.h>

/* Continue the Adler-32 value adler (1 for a new stream) over len bytes at buf.
 * @return the new value; equal to zlib's adler32() for the same bytes. */
uint32_t iol_adler32(uint32_t adler, const unsigned char *buf, size_t len);

#endif
