/* The H5D module's own files: h5d.c (records, identifiers and counter
 * updates) and h5d_wrap.c (the wrappers). */
#ifndef IOL_RT_H5D_MOD_H
#define IOL_RT_H5D_MOD_H

#include "h5_lib.h"

/* The binding table of h5d_wrap.c. */
extern const struct iol_binding_table iol_h5d_bindings;

/* The record of the open dataset identifier id, if tracked. */
struct iol_slot *iol_h5d_slot(hid_t id);

/* A dataset was created (H5Dcreate1: deprecated 1; H5Dcreate2: 0) or opened
 * as id, through loc and name, with datatype type, dataspace space and
 * creation list dcpl: count the open in the dataset's record (made if new;
 * named after its file and its path, as Darshan names it) and track id. */
void iol_h5d_note_open(hid_t id, hid_t loc, const char *name, hid_t type, hid_t space,
                       hid_t dcpl, int deprecated, double t0, double t1);

/* An open of an existing dataset (H5Dopen1/2, H5Oopen*): its datatype,
 * dataspace and creation list are asked for, then iol_h5d_note_open. Any
 * of them unknown: nothing is counted, as in Darshan. */
void iol_h5d_note_reopen(hid_t id, hid_t loc, const char *name, int deprecated, double t0,
                         double t1);

/* A successful H5Dread (is_write 0) or H5Dwrite on the tracked dataset s,
 * with the file selection file_space and the transfer list dxpl. */
void iol_h5d_note_rw(struct iol_slot *s, int is_write, hid_t file_space, hid_t dxpl, double t0,
                     double t1);

/* A successful H5Dflush of the tracked dataset s. */
void iol_h5d_note_flush(struct iol_slot *s, double t0, double t1);

/* The tracked dataset s, open as id, was closed (H5Dclose, H5Oclose). */
void iol_h5d_note_close(struct iol_slot *s, hid_t id, double t0, double t1);

#endif
