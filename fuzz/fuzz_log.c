/* Fuzz target: the input is a whole log file, read through the public API. */
#include <stddef.h>
#include <stdint.h>

#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_read_log(fuzz_scratch(data, size));
    return 0;
}
