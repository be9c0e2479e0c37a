/* DXT records out of a record file's trace area (common/recfile.h); internal
 * to the log library, used by maplog.c and by the runtime's DXT modules. */
#ifndef IOLENS_FORMAT_DXT_RECFILE_H
#define IOLENS_FORMAT_DXT_RECFILE_H

#include <stddef.h>

#include "../common/recfile.h"

/* The whole DXT record of the live slot slot of trace module m (a DXT
 * module's) in the record file h, decoded (iolens/modules/dxt.h), into buf
 * (cap bytes): the head from the slot, write and read counts and segments
 * from the trace area, each list up to its first segment not yet stored.
 * @return its bytes (more than cap: nothing copied, ask again with that
 *         many), or 0 for a record without segments or a slot of another
 *         layout. */
size_t iol_dxt_recfile_build(const struct iol_map_header *h, const struct iol_map_module *m,
                             const unsigned char *slot, void *buf, size_t cap);

#endif
