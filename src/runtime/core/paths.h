/* Record names of files: absolute, cleaned paths, built without allocation. */
#ifndef IOL_RT_PATHS_H
#define IOL_RT_PATHS_H

#include <stddef.h>

#include "config.h"

/* Size of the buffers the path functions fill. */
#define IOL_PATH_MAX 4096

/* Build the record name of path into out (IOL_PATH_MAX bytes): a relative
 * path is joined to dir (or, if dir is NULL, to the current directory), then
 * runs of '/' become one and every "/./" becomes "/", as Darshan names
 * records, and each ".." removes the component before it (lexically: Darshan
 * keeps "/../", which splits one file into several records). Symbolic links
 * are not resolved. Names starting with '<' (such as "<STDIN>") are copied
 * unchanged.
 * @return the length of the name, or -1 if path is NULL or empty, the
 *         current directory is unknown, or the result does not fit. */
int iol_path_clean(const char *path, const char *dir, char *out);

/* Is the record name excluded from instrumentation by c's path prefixes
 * (EXCLUDE_DIRS), and not taken back by an inclusion (INCLUDE_DIRS)? With
 * Darshan's default lists, /var/opt/cray/dws/mounts/ stays included.
 * @return 1 if excluded, 0 if not. */
int iol_path_excluded(const struct iol_config *c, const char *name);

#endif
