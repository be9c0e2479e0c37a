/* DXT_STDIO module (record version 2): traces of STDIO reads and writes
 * (fread, fwrite, fprintf...), in the layout of iolens/modules/dxt.h, the
 * same as DXT_POSIX's. An iolens addition, not a Darshan module: its id
 * (IOLENS_MOD_DXT_STDIO, 63) is taken from the top of the module map, which
 * darshan-parser skips with a warning and PyDarshan 3.5.0 cannot read past;
 * a log for Darshan 3.5.0's tools leaves it out (docs/log-format.md, "Module
 * ids iolens adds"). A segment's offset is the stream position the STDIO module
 * keeps for the stream when the call starts. Version 1 records have no
 * thread ids (32-byte segments), as DXT_POSIX's version 1. */
#ifndef IOLENS_MODULES_DXT_STDIO_H
#define IOLENS_MODULES_DXT_STDIO_H

#include "iolens/modules/dxt.h"

#define IOLENS_DXT_STDIO_VERSION 2

/* The DXT_STDIO module: reads versions 1 and 2, writes version 2. Its print
 * hook prints a record as darshan-dxt-parser does a DXT_POSIX one, each
 * segment on an "X_STDIO" line. */
extern IOLENS_API const struct iolens_module_desc iolens_dxt_stdio_module;

#endif
