/* The iolens runtime (libiolens.so), preloaded into programs to instrument
 * them. Its only public functions describe the runtime itself. */
#ifndef IOLENS_RUNTIME_H
#define IOLENS_RUNTIME_H

#include <stddef.h>

#include "iolens/api.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Name of the i-th libc symbol the runtime interposes on, in the order of its
 * binding tables (the same tables that resolve the real functions), e.g. to
 * build a --wrap list for static linking.
 * @return the name, or NULL when i is past the last one. */
IOLENS_API const char *iolens_runtime_wrapped_symbol(size_t i);

#ifdef __cplusplus
}
#endif
#endif
