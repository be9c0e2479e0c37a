/* Reading module records one at a time, and up-converting old layouts. */
#include <stdlib.h>
#include <string.h>

#include "../common/byteorder.h"
#include "log_internal.h"
#include "sysio.h"

static void fill_words(unsigned char *at, int count, unsigned char fill)
{
    for (int i = 0; i < count; i++) {
        int64_t iv = fill == IOLENS_FILL_MINUS_ONE ? -1 : 0;
        double dv = -1.0;
        memcpy(at + 8 * i, fill == IOLENS_FILL_MINUS_ONE_F ? (void *)&dv : (void *)&iv, 8);
    }
}

/* Apply one layout's edits to a record of *words 8-byte words plus tail bytes. */
static iolens_status apply_edits(const struct iolens_layout *l, unsigned char *rec,
                                 size_t *words, size_t tail, size_t room_words)
{
    for (unsigned i = 0; i < l->nedits; i++) {
        const struct iolens_edit *e = &l->edits[i];
        size_t at = e->at, n = *words;
        if (at > n)
            return IOLENS_ERR_CORRUPT;
        unsigned char *p = rec + 8 * at;
        size_t after = 8 * (n - at) + tail;
        if (e->count > 0) {
            if (n + (size_t)e->count > room_words)
                return IOLENS_ERR_CORRUPT;
            memmove(p + 8 * e->count, p, after);
            fill_words(p, e->count, e->fill);
            *words = n + (size_t)e->count;
        } else {
            size_t del = (size_t)-e->count;
            if (at + del > n)
                return IOLENS_ERR_CORRUPT;
            memmove(p, p + 8 * del, after - 8 * del);
            *words = n - del;
        }
    }
    return IOLENS_OK;
}

iolens_status iol_read_fixed(struct iolens_region *rg, const struct iolens_module_desc *mod,
                             uint32_t ver, int swap, struct iolens_recbuf *scratch,
                             struct iolens_recbuf *out)
{
    size_t tail = mod->tail_bytes;
    size_t new_words = (mod->record_size - tail) / 8;
    size_t first = mod->nlayouts, room = new_words;
    iolens_status st;

    if (ver == 0 || ver > mod->version)
        return IOLENS_ERR_VERSION;
    for (size_t i = 0; i < mod->nlayouts; i++) {
        if (mod->layouts[i].version == ver)
            first = i;
        if (mod->layouts[i].words > room)
            room = mod->layouts[i].words;
    }
    if (ver != mod->version && first == mod->nlayouts)
        return IOLENS_ERR_VERSION;

    for (;;) {
        size_t words = ver == mod->version ? new_words : mod->layouts[first].words;
        if ((st = iol_recbuf_reserve(scratch, 8 * room + tail)) != IOLENS_OK)
            return st;
        st = iol_region_read_exact(rg, scratch->data, 8 * words + tail);
        if (st != IOLENS_OK)
            return st;
        if (swap)
            iol_bswap64_words(scratch->data, words);
        if (ver == mod->version)
            break;
        /* Oldest layouts may hold records that cannot be expressed in newer
         * ones; those are dropped, as Darshan's own tools do. */
        const struct iolens_layout *l0 = &mod->layouts[first];
        int64_t marker = 0;
        if (l0->skip_word)
            memcpy(&marker, scratch->data + 8 * l0->skip_word, 8);
        if (marker > 0)
            continue;
        for (size_t i = first; i < mod->nlayouts; i++) {
            st = apply_edits(&mod->layouts[i], scratch->data, &words, tail, room);
            if (st != IOLENS_OK)
                return st;
        }
        if (words != new_words)
            return IOLENS_ERR_CORRUPT;
        break;
    }
    if ((st = iol_recbuf_reserve(out, mod->record_size)) != IOLENS_OK)
        return st;
    memcpy(out->data, scratch->data, mod->record_size);
    out->size = mod->record_size;
    return IOLENS_OK;
}

void iol_log_rewind(iolens_log *log)
{
    iol_region_end(&log->rg);
    log->rg_module = -1;
}

iolens_status iolens_log_next_record(iolens_log *log, int mod_id, const void **rec)
{
    const struct iolens_module_desc *mod = iolens_module(mod_id);
    const struct iolens_log_info *in = &log->info;
    iolens_status st;

    *rec = NULL;
    if (mod_id < 0 || mod_id >= IOLENS_MAX_MODS)
        return iol_fail(log, IOLENS_ERR_ARGUMENT, "module id %d out of range", mod_id);
    if (!mod)
        return iol_fail(log, IOLENS_ERR_UNKNOWN_MODULE, "no decoder for module id %d", mod_id);
    if (in->mod_map[mod_id].len == 0)
        return IOLENS_END;
    if (in->mod_ver[mod_id] == 0 || in->mod_ver[mod_id] > mod->version)
        return iol_fail(log, IOLENS_ERR_VERSION, "%s records of version %u are not supported",
                        mod->name, in->mod_ver[mod_id]);
    if (log->rg_module != mod_id) {
        iol_log_rewind(log);
        st = iol_region_begin(&log->rg, log->fd, in->compression, in->mod_map[mod_id]);
        if (st != IOLENS_OK)
            return iol_fail(log, st, "cannot start %s region", mod->name);
        log->rg_module = mod_id;
        log->rg_error = IOLENS_OK;
        memset(&log->rg_state, 0, sizeof(log->rg_state));
    }
    /* After an error the stream position is unknown: never decode past it. */
    if (log->rg_error != IOLENS_OK)
        return log->rg_error;

    if (mod->read) {
        st = mod->read(&log->rg, in->mod_ver[mod_id], in->byte_swapped, log->rg_state.bytes,
                       &log->rec);
    } else {
        st = iol_read_fixed(&log->rg, mod, in->mod_ver[mod_id], in->byte_swapped,
                            &log->scratch, &log->rec);
        if (st == IOLENS_OK && mod->fixup)
            mod->fixup(log->rec.data, in->mod_ver[mod_id], in->byte_swapped);
    }
    if (st == IOLENS_OK) {
        *rec = log->rec.data;
        return IOLENS_OK;
    }
    if (st == IOLENS_END)
        return st;
    log->rg_error = st;
    return iol_fail(log, st, "failed to read a %s record: %s", mod->name, iolens_strerror(st));
}

void iolens_log_close(iolens_log *log)
{
    if (!log)
        return;
    iol_region_end(&log->rg);
    if (log->fd >= 0)
        iol_io_close(log->fd);
    free(log->exe_mounts);
    free(log->mounts);
    iol_names_free(log->names);
    free(log->rec.data);
    free(log->scratch.data);
    free(log);
}
