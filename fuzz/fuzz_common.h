/* Shared by the fuzz targets: put an input in a file the library can open,
 * and read everything the library can decode from it. */
#ifndef IOLENS_FUZZ_COMMON_H
#define IOLENS_FUZZ_COMMON_H

#include <stddef.h>
#include <stdint.h>

/* Replace the contents of the target's scratch file (a memfd) with data.
 * @return its path ("/proc/self/fd/N"); aborts if the file cannot be written. */
const char *fuzz_scratch(const uint8_t *data, size_t size);

/* Open the log at path and exercise every reader entry point: job data, mount
 * table, names, every record of every module id 0..63 (printed to /dev/null
 * and accumulated), then a second pass in reverse module order. Aborts (so
 * the fuzzer reports it) when a library contract is broken, e.g. an error
 * without a one-line detail. */
void fuzz_read_log(const char *path);

#endif
