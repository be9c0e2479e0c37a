/* Open HDF5 objects -> their records: a fixed table keyed by hid_t, without
 * a lock or allocation (as the MPI-IO module's handle table). One table for
 * files (H5F), one for datasets (H5D). An object that finds no free entry
 * near its home is not tracked: its open is counted, what is done through
 * that identifier is not. */
#ifndef IOL_RT_H5_HID_H
#define IOL_RT_H5_HID_H

#include <stdatomic.h>
#include <stdint.h>

#include "core/core.h"

#define IOL_H5_HID_BITS 12
#define IOL_H5_HID_TABLE (1u << IOL_H5_HID_BITS) /* entries */
#define IOL_H5_HID_PROBE 32 /* entries looked at from an identifier's home */
#define IOL_H5_HID_BUSY UINT64_MAX

/* One open identifier. key: 0 free, IOL_H5_HID_BUSY while one thread fills
 * it, else the identifier, set (release) after slot. */
struct iol_h5_hid {
    _Atomic uint64_t key;
    _Atomic(struct iol_slot *) slot;
};

struct iol_h5_hids {
    struct iol_h5_hid e[IOL_H5_HID_TABLE];
    /* Set once an identifier was ever tracked: until then the table (64 KiB
     * of zero pages never touched) needs no clearing at start. */
    _Atomic int used;
};

/* Where a key's search starts. */
static inline uint32_t iol_h5_hid_home(uint64_t key)
{
    return (uint32_t)((key * 0x9e3779b97f4a7c15ull) >> (64 - IOL_H5_HID_BITS));
}

/* The record of the open identifier id. @return it, or NULL if not tracked. */
static inline struct iol_slot *iol_h5_hid_slot(struct iol_h5_hids *t, int64_t id)
{
    uint64_t key = (uint64_t)id;
    if (id <= 0 || key == IOL_H5_HID_BUSY)
        return NULL;
    uint32_t h = iol_h5_hid_home(key);
    for (uint32_t i = 0; i < IOL_H5_HID_PROBE; i++) {
        struct iol_h5_hid *e = &t->e[(h + i) & (IOL_H5_HID_TABLE - 1)];
        if (atomic_load_explicit(&e->key, memory_order_acquire) == key)
            return atomic_load_explicit(&e->slot, memory_order_relaxed);
    }
    return NULL;
}

/* Track the identifier id (> 0) as the record s; an entry still holding id
 * (a close never seen) is taken over. */
void iol_h5_hid_track(struct iol_h5_hids *t, int64_t id, struct iol_slot *s);

/* Stop tracking id. */
void iol_h5_hid_forget(struct iol_h5_hids *t, int64_t id);

/* Forget every identifier (a fresh record set: start, fork child). */
void iol_h5_hid_clear(struct iol_h5_hids *t);

#endif
