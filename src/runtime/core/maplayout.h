/* Layout of the memory-mapped record file (see README.md, "The record file").
 *
 * The runtime keeps every record in a MAP_SHARED mapping of a file in
 * IOLENS_MMAP_DIR from the start, so a process that dies without writing its
 * log (SIGKILL, power loss of the node is not covered) leaves its data behind;
 * `iolens recover FILE` turns the file into a log. This header is the only
 * definition of the layout; the runtime and the recover verb both include it.
 * All numbers are in the byte order of the host that wrote the file. */
#ifndef IOL_RT_MAPLAYOUT_H
#define IOL_RT_MAPLAYOUT_H

#include <stdatomic.h>
#include <stdint.h>

#define IOL_MAP_MAGIC "IOLNSMAP"  /* 8 bytes, no NUL */
#define IOL_MAP_VERSION 1
#define IOL_MAP_MAX_MODS 16       /* module pools in one file */
#define IOL_MAP_SLOT_HEAD 64      /* bytes before the record in a slot */
#define IOL_MAP_EXE_BYTES 3072    /* command line, NUL-terminated */
#define IOL_MAP_MOUNT_BYTES 4096  /* "type\tpath\n" lines, NUL-terminated */
#define IOL_MAP_META_BYTES 1024   /* "key=value\n" lines, NUL-terminated */

/* States of a record file. */
enum iol_map_state {
    IOL_MAP_RUNNING = 1, /* the process is (or was, if it died) recording */
    IOL_MAP_WRITTEN = 2, /* the log was written; the file is about to be removed */
};

/* One module's pool of record slots. */
struct iol_map_module {
    uint32_t mod_id;          /* log module id (IOLENS_MOD_*); 0: unused entry */
    uint32_t rec_version;     /* record version of the module's records */
    uint64_t pool_off;        /* offset of slot 0 from the start of the file */
    uint64_t stride;          /* bytes per slot, a multiple of 64 */
    uint64_t rec_size;        /* bytes of the log record at IOL_MAP_SLOT_HEAD */
    uint32_t capacity;        /* slots in the pool */
    _Atomic uint32_t count;   /* slots handed out so far (may exceed capacity
                               * by the number of racing threads; clamp) */
    _Atomic uint32_t backed;  /* slots with file space reserved */
    _Atomic uint32_t partial; /* 1: the pool ran out, records were dropped */
};

/* The head of every slot. A slot is live once the record's id (its first
 * 8 bytes) is non-zero; the runtime stores the id last. */
struct iol_map_slot_head {
    _Atomic uint64_t lock;    /* per-record spin lock: 0 free, else the owner thread */
    uint64_t name_off;        /* offset of the record's name in the name area */
    unsigned char reserved[IOL_MAP_SLOT_HEAD - 16];
};

/* The file header, at offset 0. */
struct iol_map_header {
    char magic[8];            /* IOL_MAP_MAGIC */
    uint32_t version;         /* IOL_MAP_VERSION */
    uint32_t header_size;     /* sizeof(struct iol_map_header) */
    uint64_t map_size;        /* bytes of the file */
    _Atomic uint32_t state;   /* enum iol_map_state */
    uint32_t nmods;           /* entries used in mods[] */
    int64_t pid;
    int64_t uid;
    int64_t jobid;
    int64_t nprocs;
    int64_t start_sec;        /* CLOCK_REALTIME at start-up */
    int64_t start_nsec;
    int64_t end_sec;          /* 0 until the runtime ends */
    int64_t end_nsec;
    uint64_t names_off;       /* offset of the name area from the start of the file */
    uint64_t names_size;      /* bytes of the name area */
    _Atomic uint64_t names_used;   /* bytes handed out (may exceed names_size; clamp) */
    _Atomic uint64_t names_backed; /* bytes with file space reserved */
    char metadata[IOL_MAP_META_BYTES];
    char exe[IOL_MAP_EXE_BYTES];
    char mounts[IOL_MAP_MOUNT_BYTES];
    struct iol_map_module mods[IOL_MAP_MAX_MODS];
};

_Static_assert(sizeof(struct iol_map_slot_head) == IOL_MAP_SLOT_HEAD, "slot head size");

#endif
