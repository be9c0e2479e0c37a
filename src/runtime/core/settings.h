/* The runtime's settings, one row each: the one place that names them. The
 * config file, the environment and the dump (config.c) walk this table, and
 * docs/runtime.md's settings table is generated from it (a test compares the
 * two: tests/runtime/settings_doc.sh). Plain macros only, so that a test
 * program can include it without the runtime.
 *
 *   X(id, key, iolens, darshan, alias, type, field, incl, group, def, meaning)
 *
 * id       the row's name in C (S_<id> in config.c)
 * key      config-file key (the preferred spelling); "" if only a variable
 * iolens   iolens's variable, "IOLENS_" then the key where there is one; ""
 * darshan  Darshan's variable, as Darshan spells it; "" if it has none (one
 *          is an iolens addition: DARSHAN_INCLUDE_DIRS)
 * alias    another spelling (Darshan's where the names drifted), accepted as a
 *          key and after IOLENS_ too; "" if none
 * type     how the value is read and printed (IOL_SETTING_TYPES below)
 * field    the member of struct iol_config it sets
 * incl     the path-prefix and expression lists: 1 for the inclusions, else 0
 * group    a variable of a row of a group replaces the file's values of every
 *          row of the group (the exclusion and inclusion pairs); ONE: its own
 * def, meaning  the default and a one-line meaning, as the docs print them
 *
 * Precedence: defaults, then the file (lines in order), then the variables
 * (IOLENS_ then its alias, then Darshan's; an empty variable is unset,
 * except LOGHINTS's). Every variable begins with IOLENS_, DARSHAN_ or DXT_
 * (the environment is scanned for these). The table's order is the order in
 * which the variables apply, the dump's and the docs'. */
#ifndef IOL_RT_SETTINGS_H
#define IOL_RT_SETTINGS_H

/* The variable of diagnostics, read by diag.c (before the settings). */
#define IOL_SETTING_DEBUG_ENV "IOLENS_DEBUG"

/* Value types: T(type, the docs' words for it). */
#define IOL_SETTING_TYPES(T)                                                         \
    T(CONFIG, "path (read first)")                                                   \
    T(FLAG, "bool: set and not `0`")                                                 \
    T(DEBUG, "bool: set and not `0`")                                                \
    T(PRESENCE, "bool: set, to anything")                                            \
    T(PATH, "path")                                                                  \
    T(VARNAME, "variable name (< 64 bytes)")                                         \
    T(WORD, "text (< 256 bytes)")                                                    \
    T(MIB, "size in MiB (fractions allowed)")                                        \
    T(RECORDS, "count, 1 to 16777216; in the file `N [MODS]`")                       \
    T(ALIGN, "size in bytes, 1 to 65536")                                            \
    T(FRACTION, "fraction, 0 to 1")                                                  \
    T(HINTS, "`key=value;...` (empty: none)")                                        \
    T(PREFIXES, "path-prefix list")                                                  \
    T(APP_REGEX, "regex list")                                                       \
    T(NAME_REGEX, "regex list; in the file `REGEX,... [MODS]`")                      \
    T(MODS, "module list (`*`: all)")                                                \
    T(RANKS, "rank list (`start:end` ranges, `*`)")                                  \
    T(COMPAT, "`newest` or `3.5`")                                                   \
    T(SECONDS, "seconds (fractions allowed)")                                        \
    T(COUNT, "count, 1 to 16777216")

#define IOL_SETTINGS(X)                                                                  \
    X(CONFIG_PATH, "", "IOLENS_CONFIG_PATH", "DARSHAN_CONFIG_PATH", "", CONFIG,           \
      config_path, 0, ONE, "none",                                                       \
      "the config file ([below](#the-config-file)), read before the variables apply")    \
    X(DISABLE, "", "IOLENS_DISABLE", "DARSHAN_DISABLE", "", FLAG, disabled, 0, ONE, "off", \
      "do not instrument at all: every call goes straight to the C library")             \
    X(DEBUG, "", IOL_SETTING_DEBUG_ENV, "", "", DEBUG, debug, 0, ONE, "off",              \
      "diagnostics on standard error (`iolens[<pid>]: ...`): settings not understood "   \
      "(with file and line), where records and logs go, why something failed, how "      \
      "long the log took")                                                               \
    X(DUMP_CONFIG, "DUMP_CONFIG", "IOLENS_DUMP_CONFIG", "DARSHAN_DUMP_CONFIG", "", FLAG,  \
      dump_config, 0, ONE, "off",                                                        \
      "print the settings in force on standard error at start (every process): one "     \
      "line `config: NAME = VALUE` per row of this table")                               \
    X(LOGPATH, "LOGPATH", "IOLENS_LOGPATH", "DARSHAN_LOGPATH", "", PATH, logpath, 0, ONE,  \
      "the start directory", "directory for logs ([Where logs go](#where-logs-go))")     \
    X(LOGFILE, "LOGFILE", "IOLENS_LOGFILE", "DARSHAN_LOGFILE", "", PATH, logfile, 0, ONE,  \
      "none", "exact log file name (the key is an iolens addition)")                     \
    X(MMAP_DIR, "MMAP_DIR", "IOLENS_MMAP_DIR", "DARSHAN_MMAP_LOGPATH", "MMAP_LOGPATH",    \
      PATH, mmap_dir, 0, ONE, "`/dev/shm` if writable, else `/tmp`",                     \
      "directory of the record file ([How a process ends](#how-a-process-ends))")        \
    X(JOBID_ENV, "JOBID_ENV", "IOLENS_JOBID_ENV", "DARSHAN_JOBID", "JOBID", VARNAME,      \
      jobid_env, 0, ONE, "the list in [What a log holds](#what-a-log-holds)",            \
      "the variable that holds the job id")                                              \
    X(EXCLUDE_DIRS, "EXCLUDE_DIRS", "IOLENS_EXCLUDE_DIRS", "DARSHAN_EXCLUDE_DIRS", "",    \
      PREFIXES, excludes, 0, ONE,                                                        \
      "`/etc/,/dev/,/usr/,/bin/,/boot/,/lib/,/opt/,/sbin/,/sys/,/proc/,/var/` "          \
      "(Darshan's)",                                                                     \
      "path prefixes whose files get no record; the first list set replaces the "        \
      "default one; `none` empties it (the key is an iolens addition)")                  \
    X(INCLUDE_DIRS, "INCLUDE_DIRS", "IOLENS_INCLUDE_DIRS", "DARSHAN_INCLUDE_DIRS", "",    \
      PREFIXES, includes, 1, ONE, "`/var/opt/cray/dws/mounts/`",                         \
      "path prefixes recorded although an excluded prefix covers them (e.g. "            \
      "`/dev/shm/` under `/dev/`); `none` empties the list; the default list applies "   \
      "only with the default exclusions, as in Darshan (key and variables are iolens "   \
      "additions)")                                                                      \
    X(NAME_EXCLUDE, "NAME_EXCLUDE", "IOLENS_NAME_EXCLUDE", "", "", NAME_REGEX, name_rules, \
      0, NAME, "none",                                                                   \
      "record names of the listed modules (all: without `MODS`, and for the variable) "  \
      "matching one of these expressions get no record")                                 \
    X(NAME_INCLUDE, "NAME_INCLUDE", "IOLENS_NAME_INCLUDE", "", "", NAME_REGEX, name_rules, \
      1, NAME, "none",                                                                   \
      "names recorded even when excluded (by a prefix or `NAME_EXCLUDE`)")               \
    X(APP_EXCLUDE, "APP_EXCLUDE", "IOLENS_APP_EXCLUDE", "DARSHAN_APP_EXCLUDE", "",        \
      APP_REGEX, app_rules, 0, APP, "none",                                              \
      "a program whose `argv[0]` matches one of these is not instrumented at all: no "   \
      "record file, no log, every call straight to the C library")                       \
    X(APP_INCLUDE, "APP_INCLUDE", "IOLENS_APP_INCLUDE", "DARSHAN_APP_INCLUDE", "",        \
      APP_REGEX, app_rules, 1, APP, "none",                                              \
      "a program matching one of these is instrumented even if `APP_EXCLUDE` matched it") \
    X(MOD_DISABLE, "MOD_DISABLE", "IOLENS_MOD_DISABLE", "DARSHAN_MOD_DISABLE", "", MODS,  \
      mod_disable, 0, MOD, "none (the DXT modules are off unless enabled, as in Darshan)", \
      "modules not recorded, e.g. `STDIO,HEATMAP`: their calls pass straight through, "  \
      "no records, and the log is not marked partial for them")                          \
    X(MOD_ENABLE, "MOD_ENABLE", "IOLENS_MOD_ENABLE", "DARSHAN_MOD_ENABLE", "", MODS,      \
      mod_enable, 0, MOD, "none", "modules recorded even if disabled; wins over `MOD_DISABLE`") \
    X(DXT_ENABLE_IO_TRACE, "", "", "DXT_ENABLE_IO_TRACE", "", PRESENCE, dxt_enable_io_trace, \
      0, ONE, "unset",                                                                   \
      "Darshan's old switch: enables `DXT_POSIX` and `DXT_MPIIO` (MPI programs), "       \
      "not iolens's `DXT_STDIO`")                                                        \
    X(DXT_MEM, "DXT_MEM", "IOLENS_DXT_MEM", "", "", MIB, dxt_mem, 0, ONE, "56",           \
      "DXT: memory for the traces' segments, per process (8 to 56 bytes a segment, in "  \
      "1 KiB chunks per file and kind: 56 MiB hold 1,032,192 at least, about 7,000,000 " \
      "sequential ones from one thread); when it is full, later "                        \
      "segments are dropped and the log marks the module partial (an iolens addition: " \
      "Darshan's is fixed when it is built)")                                            \
    X(MAX_RECORDS, "MAX_RECORDS", "IOLENS_MAX_RECORDS", "", "", RECORDS, max_records, 0,  \
      ONE, "131072",                                                                     \
      "records kept per module: the file's `MAX_RECORDS N MODS` sets the listed "        \
      "modules' limits, without `MODS` (and the variable) every module's. HEATMAP keeps " \
      "its fixed few")                                                                   \
    X(MODMEM, "MODMEM", "IOLENS_MODMEM", "DARSHAN_MODMEM", "", MIB, mod_mem, 0, ONE,      \
      "0 (no limit beyond the record limits)",                                           \
      "memory for the records of all modules together; modules take their share in "    \
      "module-id order, each at most its record limit")                                  \
    X(NAMEMEM, "NAMEMEM", "IOLENS_NAMEMEM", "DARSHAN_NAMEMEM", "NAME_MEM", MIB, name_mem, \
      0, ONE, "32 (Darshan: 1)",                                                         \
      "memory for record names, shared by all modules, counted as Darshan counts it: 8 " \
      "bytes plus the name and its NUL each; at most 4 GiB")                             \
    X(MEM_ALIGNMENT, "MEM_ALIGNMENT", "IOLENS_MEM_ALIGNMENT", "DARSHAN_MEMALIGN",         \
      "MEMALIGN", ALIGN, mem_alignment, 0, ONE, "8",                                     \
      "the alignment `POSIX_MEM_ALIGNMENT` reports and `POSIX_MEM_NOT_ALIGNED` checks "  \
      "buffers against")                                                                 \
    X(DXT_SMALL_IO_TRIGGER, "DXT_SMALL_IO_TRIGGER", "IOLENS_DXT_SMALL_IO_TRIGGER",       \
      "DARSHAN_DXT_SMALL_IO_TRIGGER", "", FRACTION, dxt_small_io_trigger, 0, ONE, "unset", \
      "DXT: keep a file's trace only if at least this fraction of its reads and writes " \
      "(the POSIX record's, in each process) are small (up to 10 KiB: the size "         \
      "histogram's first three bins); decided when the log is written, for the whole "   \
      "trace ([DXT traces](#dxt-traces))")                                               \
    X(DXT_UNALIGNED_IO_TRIGGER, "DXT_UNALIGNED_IO_TRIGGER",                               \
      "IOLENS_DXT_UNALIGNED_IO_TRIGGER", "DARSHAN_DXT_UNALIGNED_IO_TRIGGER", "", FRACTION, \
      dxt_unaligned_io_trigger, 0, ONE, "unset",                                          \
      "the same for accesses at an offset not file-aligned (`POSIX_FILE_NOT_ALIGNED`); " \
      "with both triggers set, a trace is kept only if it reaches both")                 \
    X(LOG_COMPAT, "LOG_COMPAT", "IOLENS_LOG_COMPAT", "", "", COMPAT, log_compat, 0, ONE, \
      "`newest`",                                                                        \
      "the tools the logs are written for: `newest`, iolens and Darshan's development "  \
      "branch (DXT_POSIX 2 and DXT_MPIIO 3, with thread ids; DXT_STDIO), or `3.5`, "     \
      "Darshan 3.5.0's tools and PyDarshan too (DXT_POSIX 1 and DXT_MPIIO 2, without; "  \
      "no DXT_STDIO) ([Reading iolens logs with Darshan's "                              \
      "tools](#reading-iolens-logs-with-darshans-tools); an iolens addition)")           \
    X(RANK_EXCLUDE, "RANK_EXCLUDE", "IOLENS_RANK_EXCLUDE", "DARSHAN_RANK_EXCLUDE", "",    \
      RANKS, rank_exclude, 0, RANK, "none",                                              \
      "MPI jobs: ranks that record nothing ([MPI programs](#mpi-programs)); malformed "  \
      "items are skipped with a diagnostic")                                             \
    X(RANK_INCLUDE, "RANK_INCLUDE", "IOLENS_RANK_INCLUDE", "DARSHAN_RANK_INCLUDE", "",    \
      RANKS, rank_include, 0, RANK, "none", "ranks recorded although `RANK_EXCLUDE` names them") \
    X(LOGHINTS, "LOGHINTS", "IOLENS_LOGHINTS", "DARSHAN_LOGHINTS", "", HINTS, log_hints, 0, \
      ONE, "Darshan 3.5's for the MPI iolens was built with (below)",            \
      "MPI jobs: the MPI-IO hints of the collective open of the job log, rank 0's for "  \
      "all ranks")                                                                       \
    X(DISABLE_SHARED_REDUCTION, "DISABLE_SHARED_REDUCTION",                               \
      "IOLENS_DISABLE_SHARED_REDUCTION", "DARSHAN_DISABLE_SHARED_REDUCTION", "", FLAG,    \
      disable_shared_reduction, 0, ONE, "off",                                           \
      "MPI jobs: no [shared records](#shared-records), every rank keeps its own (set on " \
      "any rank, for the whole job)")                                                    \
    X(LOG_PER_RANK, "LOG_PER_RANK", "IOLENS_LOG_PER_RANK", "", "", FLAG, log_per_rank, 0,  \
      ONE, "off",                                                                        \
      "MPI jobs: one log per rank, unreduced, instead of the job log (set on any rank, " \
      "for the whole job; `iolens merge` makes the job log of them: [Logs per "         \
      "rank](#logs-per-rank); an iolens addition)")                                      \
    X(INTERNAL_TIMING, "INTERNAL_TIMING", "IOLENS_INTERNAL_TIMING",                       \
      "DARSHAN_INTERNAL_TIMING", "", FLAG, internal_timing, 0, ONE, "off",                \
      "kept; no effect (`IOLENS_DEBUG` prints timings)")                                 \
    X(EVENTS, "EVENTS", "IOLENS_EVENTS", "", "", PATH, events, 0, ONE, "none",            \
      "live I/O events to this sink: `file:DIR`, JSON lines in one file per process "    \
      "in DIR; `mqtt://HOST:PORT/TOPIC`, one MQTT message per JSON message to TOPIC; "   \
      "`ldms://HOST:PORT/STREAM`, one LDMS stream message per JSON message to an "       \
      "ldmsd ([Live events](#live-events))")                                                   \
    X(EVENTS_MODULES, "EVENTS_MODULES", "IOLENS_EVENTS_MODULES", "", "", MODS,            \
      events_mods, 0, ONE, "POSIX, STDIO, MPIIO, H5F and H5D",                           \
      "modules that send events (with the `DARSHAN_LDMS_ENABLE_*` below: theirs too)")   \
    X(LDMS_ENABLE, "", "", "DARSHAN_LDMS_ENABLE", "", PRESENCE, ldms_enable, 0, ONE,      \
      "unset", "Darshan's switch of its LDMS connector: without `EVENTS`, events go to " \
      "`ldms://HOST:PORT/STREAM` of the five `DARSHAN_LDMS_*` below ([Live "             \
      "events](#live-events))")                                                          \
    X(LDMS_STREAM, "", "", "DARSHAN_LDMS_STREAM", "", WORD, ldms_stream, 0, ONE,          \
      "darshanConnector", "with `DARSHAN_LDMS_ENABLE`: the LDMS stream")                  \
    X(LDMS_XPRT, "", "", "DARSHAN_LDMS_XPRT", "", WORD, ldms_xprt, 0, ONE, "sock",        \
      "the LDMS transport of `ldms://` (both ways of choosing it)")                       \
    X(LDMS_HOST, "", "", "DARSHAN_LDMS_HOST", "", WORD, ldms_host, 0, ONE, "localhost",   \
      "with `DARSHAN_LDMS_ENABLE`: the host of the ldmsd")                                \
    X(LDMS_PORT, "", "", "DARSHAN_LDMS_PORT", "", WORD, ldms_port, 0, ONE, "412",         \
      "with `DARSHAN_LDMS_ENABLE`: its port")                                             \
    X(LDMS_AUTH, "", "", "DARSHAN_LDMS_AUTH", "", WORD, ldms_auth, 0, ONE,                \
      "`munge` with `DARSHAN_LDMS_ENABLE`, `none` with `EVENTS`",                        \
      "the LDMS authentication of `ldms://` (both ways of choosing it)")                  \
    X(LDMS_ENABLE_POSIX, "", "", "DARSHAN_LDMS_ENABLE_POSIX", "", PRESENCE,               \
      ldms_enable_posix, 0, ONE, "unset", "events of the POSIX module")                   \
    X(LDMS_ENABLE_MPIIO, "", "", "DARSHAN_LDMS_ENABLE_MPIIO", "", PRESENCE,               \
      ldms_enable_mpiio, 0, ONE, "unset", "events of the MPI-IO module")                  \
    X(LDMS_ENABLE_STDIO, "", "", "DARSHAN_LDMS_ENABLE_STDIO", "", PRESENCE,               \
      ldms_enable_stdio, 0, ONE, "unset", "events of the STDIO module")                   \
    X(LDMS_ENABLE_HDF5, "", "", "DARSHAN_LDMS_ENABLE_HDF5", "", PRESENCE,                 \
      ldms_enable_hdf5, 0, ONE, "unset", "events of the H5F and H5D modules")             \
    X(LDMS_ENABLE_ALL, "", "", "DARSHAN_LDMS_ENABLE_ALL", "", PRESENCE, ldms_enable_all,  \
      0, ONE, "unset", "events of every module that sends them")                         \
    X(EVENTS_DRAIN, "EVENTS_DRAIN", "IOLENS_EVENTS_DRAIN", "", "", SECONDS, events_drain,  \
      0, ONE, "3",                                                                       \
      "at the end of a process (exit, `_exit`, exec, a fatal signal), the longest wait " \
      "for queued events to reach the sink (for `mqtt://` and `ldms://`, the broker's "  \
      "or ldmsd's acknowledgement); those left are counted dropped")                    \
    X(CALLSITES, "CALLSITES", "IOLENS_CALLSITES", "", "", FLAG, callsites, 0, ONE, "off",  \
      "the CALLSITES module: I/O by call site, and the function times of programs "      \
      "built with `-finstrument-functions` ([Call sites](#call-sites); an iolens "       \
      "addition)")                                                                       \
    X(CALLSITES_DEPTH, "CALLSITES_DEPTH", "IOLENS_CALLSITES_DEPTH", "", "", COUNT,        \
      callsites_depth, 0, ONE, "4",                                                      \
      "frames of a call site: the return address of the I/O call and the callers "       \
      "above it (at most 8)")                                                            \
    X(CALLSITES_MAX, "CALLSITES_MAX", "IOLENS_CALLSITES_MAX", "", "", COUNT,              \
      callsites_max, 0, ONE, "4096",                                                     \
      "call sites kept, and as many functions; calls of a site that does not fit are "   \
      "counted in the totals and the module is marked partial")

#endif
