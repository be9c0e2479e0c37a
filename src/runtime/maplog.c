/* Record file -> log. Records are copied under their lock, taken for a
 * bounded time only: the file may come from a process that died holding it. */
#include "maplog.h"

#include <stdlib.h>
#include <string.h>

#include "fmt.h"
#include "heatmap_layout.h"
#include "iolens/log.h"
#include "records.h"

struct name_ref {
    uint64_t id;
    uint64_t off;
};

static void set_detail(char *d, size_t len, const char *what)
{
    if (d && len)
        iol_fmt(d, len, "%s", what);
}

iolens_status iol_maplog_check(const struct iol_map_header *h, size_t len, char *detail,
                               size_t detail_len)
{
    if (len < sizeof(*h) || memcmp(h->magic, IOL_MAP_MAGIC, 8) != 0) {
        set_detail(detail, detail_len, "not an iolens record file");
        return IOLENS_ERR_NOT_LOG;
    }
    if (h->version != IOL_MAP_VERSION || h->header_size != sizeof(*h)) {
        set_detail(detail, detail_len, "record file of another iolens version");
        return IOLENS_ERR_VERSION;
    }
    if (h->map_size > len || h->nmods > IOL_MAP_MAX_MODS || h->names_off > len ||
        h->names_size > len - h->names_off)
        goto corrupt;
    for (uint32_t i = 0; i < h->nmods; i++) {
        const struct iol_map_module *m = &h->mods[i];
        if (m->stride < IOL_MAP_SLOT_HEAD + m->rec_size || m->stride % 64 || m->pool_off > len ||
            m->capacity > (len - m->pool_off) / m->stride || m->mod_id >= IOLENS_MAX_MODS)
            goto corrupt;
    }
    return IOLENS_OK;
corrupt:
    set_detail(detail, detail_len, "record file layout out of bounds");
    return IOLENS_ERR_CORRUPT;
}

static uint32_t live_count(const struct iol_map_module *m)
{
    uint32_t n = atomic_load_explicit((_Atomic uint32_t *)&m->count, memory_order_acquire);
    return n < m->capacity ? n : m->capacity;
}

static struct iol_slot *slot_of(const struct iol_map_header *h, const struct iol_map_module *m,
                                uint32_t i)
{
    return (struct iol_slot *)((unsigned char *)h + m->pool_off + (uint64_t)i * m->stride);
}

static uint64_t slot_id(struct iol_slot *s)
{
    return __atomic_load_n((uint64_t *)iol_slot_rec(s), __ATOMIC_ACQUIRE);
}

static int cmp_name_ref(const void *a, const void *b)
{
    const struct name_ref *x = a, *y = b;
    return x->id < y->id ? -1 : x->id > y->id;
}

/* The names of every live record, once per id. */
static iolens_status put_names(iolens_log_writer *w, const struct iol_map_header *h)
{
    size_t n = 0, cap = 0;
    iolens_status st = IOLENS_OK;

    for (uint32_t i = 0; i < h->nmods; i++)
        cap += live_count(&h->mods[i]);
    struct name_ref *refs = calloc(cap ? cap : 1, sizeof(*refs));
    if (!refs)
        return IOLENS_ERR_NOMEM;
    for (uint32_t i = 0; i < h->nmods; i++) {
        const struct iol_map_module *m = &h->mods[i];
        for (uint32_t j = 0, live = live_count(m); j < live; j++) {
            struct iol_slot *s = slot_of(h, m, j);
            uint64_t id = slot_id(s);
            if (id && n < cap)
                refs[n++] = (struct name_ref){id, ((struct iol_map_slot_head *)s)->name_off};
        }
    }
    qsort(refs, n, sizeof(*refs), cmp_name_ref);
    const char *area = (const char *)h + h->names_off;
    for (size_t i = 0; i < n && st == IOLENS_OK; i++) {
        if (i > 0 && refs[i].id == refs[i - 1].id)
            continue;
        if (refs[i].off >= h->names_size ||
            !memchr(area + refs[i].off, '\0', h->names_size - refs[i].off))
            continue; /* a damaged name: the record stays, without its name */
        st = iolens_writer_put_name(w, refs[i].id, area + refs[i].off);
    }
    free(refs);
    return st;
}

/* One module's live records, each copied under its (bounded) lock. */
static iolens_status put_module(iolens_log_writer *w, const struct iol_map_header *h,
                                const struct iol_map_module *m, int force_partial)
{
    const struct iolens_module_desc *desc = iolens_module((int)m->mod_id);
    uint32_t live = live_count(m);
    iolens_status st = IOLENS_OK;
    unsigned char *buf;

    if (!desc || (desc->record_size && desc->record_size != m->rec_size) ||
        desc->version != m->rec_version)
        return IOLENS_OK; /* a module this log library cannot write: left out */
    if (!(buf = malloc(m->rec_size)))
        return IOLENS_ERR_NOMEM;
    /* HEATMAP bins live in per-CPU shards beside the record until the end
     * (heatmap_layout.h): a killed process's are added here. */
    int heatmap = m->mod_id == IOLENS_MOD_HEATMAP && m->rec_size == IOL_HEATMAP_RECORD_BYTES &&
                  m->stride >= IOL_SLOT_STATE_OFF(m->rec_size) + sizeof(struct iol_heatmap_state);
    for (uint32_t j = 0; j < live && st == IOLENS_OK; j++) {
        struct iol_slot *s = slot_of(h, m, j);
        if (!slot_id(s))
            continue;
        int locked = iol_slot_lock_bounded(s);
        memcpy(buf, iol_slot_rec(s), m->rec_size);
        if (heatmap)
            iol_heatmap_fold((struct iolens_heatmap_record *)buf,
                             iol_slot_state(s, m->rec_size));
        if (locked)
            iol_slot_unlock(s);
        st = iolens_writer_put_record(w, (int)m->mod_id, buf);
    }
    free(buf);
    if (atomic_load((_Atomic uint32_t *)&m->partial) || (force_partial && live))
        iolens_writer_set_partial(w, (int)m->mod_id);
    return st;
}

/* Mount table lines "type\tpath\n" -> entries pointing into text (modified). */
static size_t parse_mounts(char *text, struct iolens_mount *out, size_t max)
{
    size_t n = 0;
    for (char *line = text; *line && n < max;) {
        char *nl = strchr(line, '\n');
        char *tab = strchr(line, '\t');
        if (nl)
            *nl = '\0';
        if (tab && (!nl || tab < nl)) {
            *tab = '\0';
            out[n].type = line;
            out[n].path = tab + 1;
            n++;
        }
        if (!nl)
            break;
        line = nl + 1;
    }
    return n;
}

static iolens_status put_job(iolens_log_writer *w, const struct iol_map_header *h)
{
    struct iolens_job job = {0};
    struct iolens_mount mounts[64];
    char text[IOL_MAP_MOUNT_BYTES];
    char exe[IOL_MAP_EXE_BYTES];

    job.uid = h->uid;
    job.start_time_sec = h->start_sec;
    job.start_time_nsec = h->start_nsec;
    job.end_time_sec = h->end_sec;
    job.end_time_nsec = h->end_nsec;
    job.nprocs = h->nprocs;
    job.jobid = h->jobid;
    memcpy(job.metadata, h->metadata, sizeof(job.metadata));
    job.metadata[sizeof(job.metadata) - 1] = '\0';
    memcpy(exe, h->exe, sizeof(exe));
    exe[sizeof(exe) - 1] = '\0';
    memcpy(text, h->mounts, sizeof(text));
    text[sizeof(text) - 1] = '\0';
    size_t nm = parse_mounts(text, mounts, sizeof(mounts) / sizeof(*mounts));
    return iolens_writer_put_job(w, &job, exe, mounts, nm);
}

iolens_status iol_maplog_write(const struct iol_map_header *h, size_t len, const char *path,
                               int force_partial, char *detail, size_t detail_len)
{
    iolens_log_writer *w;
    iolens_status st = iol_maplog_check(h, len, detail, detail_len);
    uint32_t order[IOL_MAP_MAX_MODS];

    if (st != IOLENS_OK)
        return st;
    st = iolens_writer_create(path, IOLENS_COMP_ZLIB, &w, detail, detail_len);
    if (st != IOLENS_OK)
        return st;
    if ((st = iolens_writer_set_mode(w, 0400)) != IOLENS_OK ||
        (st = put_job(w, h)) != IOLENS_OK || (st = put_names(w, h)) != IOLENS_OK)
        goto fail;
    /* Modules in increasing id, as the format requires. */
    for (uint32_t i = 0; i < h->nmods; i++) {
        uint32_t j = i;
        while (j > 0 && h->mods[order[j - 1]].mod_id > h->mods[i].mod_id) {
            order[j] = order[j - 1];
            j--;
        }
        order[j] = i;
    }
    for (uint32_t i = 0; i < h->nmods; i++)
        if ((st = put_module(w, h, &h->mods[order[i]], force_partial)) != IOLENS_OK)
            goto fail;
    st = iolens_writer_close(w);
    if (st != IOLENS_OK)
        set_detail(detail, detail_len, iolens_strerror(st));
    return st;
fail:
    set_detail(detail, detail_len, iolens_strerror(st));
    iolens_writer_abort(w);
    return st;
}
