/* The identifier tables of the H5F and H5D modules (see h5_hid.h). */
#include "h5_hid.h"

void iol_h5_hid_track(struct iol_h5_hids *t, int64_t id, struct iol_slot *s)
{
    uint64_t key = (uint64_t)id;
    if (id <= 0 || key == IOL_H5_HID_BUSY)
        return;
    uint32_t h = iol_h5_hid_home(key);
    if (!atomic_load_explicit(&t->used, memory_order_relaxed))
        atomic_store_explicit(&t->used, 1, memory_order_relaxed);
    for (uint32_t i = 0; i < IOL_H5_HID_PROBE; i++) {
        struct iol_h5_hid *e = &t->e[(h + i) & (IOL_H5_HID_TABLE - 1)];
        if (atomic_load_explicit(&e->key, memory_order_relaxed) == key) {
            atomic_store_explicit(&e->slot, s, memory_order_relaxed);
            return;
        }
    }
    for (uint32_t i = 0; i < IOL_H5_HID_PROBE; i++) {
        struct iol_h5_hid *e = &t->e[(h + i) & (IOL_H5_HID_TABLE - 1)];
        uint64_t free_key = 0;
        if (atomic_load_explicit(&e->key, memory_order_relaxed) == 0 &&
            atomic_compare_exchange_strong_explicit(&e->key, &free_key, IOL_H5_HID_BUSY,
                                                    memory_order_acquire,
                                                    memory_order_relaxed)) {
            atomic_store_explicit(&e->slot, s, memory_order_relaxed);
            atomic_store_explicit(&e->key, key, memory_order_release);
            return;
        }
    }
}

void iol_h5_hid_forget(struct iol_h5_hids *t, int64_t id)
{
    uint64_t key = (uint64_t)id;
    if (id <= 0 || key == IOL_H5_HID_BUSY)
        return;
    uint32_t h = iol_h5_hid_home(key);
    for (uint32_t i = 0; i < IOL_H5_HID_PROBE; i++) {
        struct iol_h5_hid *e = &t->e[(h + i) & (IOL_H5_HID_TABLE - 1)];
        if (atomic_load_explicit(&e->key, memory_order_relaxed) == key) {
            atomic_store_explicit(&e->key, 0, memory_order_release);
            return;
        }
    }
}

void iol_h5_hid_clear(struct iol_h5_hids *t)
{
    if (!atomic_load_explicit(&t->used, memory_order_relaxed))
        return;
    for (uint32_t i = 0; i < IOL_H5_HID_TABLE; i++)
        if (atomic_load_explicit(&t->e[i].key, memory_order_relaxed))
            atomic_store_explicit(&t->e[i].key, 0, memory_order_relaxed);
}
