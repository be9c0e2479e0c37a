/* Record file -> log. Records are copied under their lock, taken for a
 * bounded time only: the file may come from a process that died holding it. */
#include "maplog.h"

#include <stdlib.h>
#include <string.h>

#include "iolens/log.h"
#include "iolens/modules/heatmap.h"
#include "log_internal.h"

struct name_ref {
    uint64_t id;
    uint64_t off;
};

#define NAME_PREFETCH 8 /* names read ahead when writing them in id order */

/* No stdio here: this code also runs in the runtime, at the end of a process. */
static void set_detail(char *d, size_t len, const char *what)
{
    if (!d || !len)
        return;
    size_t n = strnlen(what, len - 1);
    memcpy(d, what, n);
    d[n] = '\0';
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
        h->names_size > len - h->names_off || h->trace_off > len || h->trace_off % 8 ||
        h->trace_chunks > (len - h->trace_off) / sizeof(struct iol_trace_chunk) ||
        h->log_compat > IOLENS_COMPAT_DARSHAN_3_5)
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

uint32_t iol_maplog_live_count(const struct iol_map_module *m)
{
    uint32_t n = atomic_load_explicit((_Atomic uint32_t *)&m->count, memory_order_acquire);
    return n < m->capacity ? n : m->capacity;
}

static unsigned char *slot_of(const struct iol_map_header *h, const struct iol_map_module *m,
                              uint32_t i)
{
    return (unsigned char *)h + m->pool_off + (uint64_t)i * m->stride;
}

static uint64_t slot_id(unsigned char *s)
{
    return __atomic_load_n((uint64_t *)(s + IOL_MAP_SLOT_HEAD), __ATOMIC_ACQUIRE);
}

static int cmp_name_ref(const void *a, const void *b)
{
    const struct name_ref *x = a, *y = b;
    return x->id < y->id ? -1 : x->id > y->id;
}

/* Sort refs by id: a least-significant-byte-first radix sort, skipping the
 * passes where every id has the same byte. qsort took ~20 ms of the exit of a
 * 100,000-file process, before any of the log could be compressed; this takes
 * ~3. Without memory for its second buffer it falls back to qsort. */
static void sort_name_refs(struct name_ref *refs, size_t n)
{
    uint32_t(*count)[256];
    struct name_ref *tmp, *src = refs, *dst;

    if (n < 64 || !(count = calloc(1, 8 * sizeof(*count) + n * sizeof(*refs)))) {
        qsort(refs, n, sizeof(*refs), cmp_name_ref);
        return;
    }
    tmp = (struct name_ref *)(count + 8);
    for (size_t i = 0; i < n; i++)
        for (unsigned d = 0; d < 8; d++)
            count[d][(refs[i].id >> (8 * d)) & 0xff]++;
    dst = tmp;
    for (unsigned d = 0; d < 8; d++) {
        uint32_t *c = count[d], sum = 0;
        if (c[(src[0].id >> (8 * d)) & 0xff] == n)
            continue;
        for (unsigned b = 0; b < 256; b++) {
            uint32_t k = c[b];
            c[b] = sum;
            sum += k;
        }
        for (size_t i = 0; i < n; i++)
            dst[c[(src[i].id >> (8 * d)) & 0xff]++] = src[i];
        struct name_ref *t = src;
        src = dst;
        dst = t;
    }
    if (src != refs)
        memcpy(refs, src, n * sizeof(*refs));
    free(count);
}

const char *iol_maplog_record_name(const struct iol_map_header *h,
                                   const struct iol_map_module *m, uint32_t j)
{
    uint64_t off = ((struct iol_map_slot_head *)slot_of(h, m, j))->name_off;
    const char *area = (const char *)h + h->names_off;
    if (off >= h->names_size || !memchr(area + off, '\0', h->names_size - off))
        return NULL;
    return area + off;
}

/* The names of every live record, once per id. */
static iolens_status put_names(iolens_log_writer *w, const struct iol_map_header *h)
{
    size_t n = 0, cap = 0;
    iolens_status st = IOLENS_OK;

    for (uint32_t i = 0; i < h->nmods; i++)
        cap += iol_maplog_live_count(&h->mods[i]);
    struct name_ref *refs = calloc(cap ? cap : 1, sizeof(*refs));
    if (!refs)
        return IOLENS_ERR_NOMEM;
    for (uint32_t i = 0; i < h->nmods; i++) {
        const struct iol_map_module *m = &h->mods[i];
        for (uint32_t j = 0, live = iol_maplog_live_count(m); j < live; j++) {
            uint64_t id = slot_id(slot_of(h, m, j));
            const char *name = iol_maplog_record_name(h, m, j);
            /* a damaged name: the record stays, without its name */
            if (id && name && n < cap)
                refs[n++] = (struct name_ref){id, (uint64_t)(name - (const char *)h)};
        }
    }
    sort_name_refs(refs, n);
    uint64_t used = atomic_load_explicit(&h->names_used, memory_order_relaxed);
    iol_writer_expect(w, (used < h->names_size ? used : h->names_size) + 8 * (uint64_t)n);
    for (size_t i = 0; i < n && st == IOLENS_OK; i++) {
        /* In id order the names are read at random places of the name area:
         * ask for one a few names ahead (10 ms of 100,000 cache misses). */
        if (i + NAME_PREFETCH < n)
            __builtin_prefetch((const char *)h + refs[i + NAME_PREFETCH].off);
        if (i == 0 || refs[i].id != refs[i - 1].id)
            st = iolens_writer_put_name(w, refs[i].id, (const char *)h + refs[i].off);
    }
    free(refs);
    return st;
}

static int is_heatmap(const struct iol_map_module *m)
{
    /* HEATMAP bins live in per-CPU shards beside the record until the end
     * (heatmap_layout.h): a killed process's are added here. */
    return m->mod_id == IOLENS_MOD_HEATMAP &&
           m->rec_size == sizeof(struct iolens_heatmap_record) +
                              2 * IOL_HEATMAP_BINS * sizeof(int64_t) &&
           m->stride >= IOL_SLOT_STATE_OFF(m->rec_size) + sizeof(struct iol_heatmap_state);
}

uint64_t iol_maplog_copy_record(const struct iol_map_header *h, const struct iol_map_module *m,
                                uint32_t j, void *buf)
{
    unsigned char *s = slot_of(h, m, j);
    struct iol_map_slot_head *head = (struct iol_map_slot_head *)s;
    uint64_t id = slot_id(s);
    if (!id)
        return 0;
    int locked = iol_head_lock_bounded(head);
    memcpy(buf, s + IOL_MAP_SLOT_HEAD, m->rec_size);
    if (is_heatmap(m))
        iol_heatmap_fold(((struct iolens_heatmap_record *)buf)->bins,
                         (const void *)(s + IOL_SLOT_STATE_OFF(m->rec_size)));
    if (locked)
        iol_head_unlock(head);
    return id;
}

void iol_maplog_module_order(const struct iol_map_header *h, uint32_t *order)
{
    for (uint32_t i = 0; i < h->nmods; i++) {
        uint32_t j = i;
        while (j > 0 && h->mods[order[j - 1]].mod_id > h->mods[i].mod_id) {
            order[j] = order[j - 1];
            j--;
        }
        order[j] = i;
    }
}

/* One module's live records, each copied under its (bounded) lock. */
static iolens_status put_module(iolens_log_writer *w, const struct iol_map_header *h,
                                const struct iol_map_module *m)
{
    const struct iolens_module_desc *desc = iolens_module((int)m->mod_id);
    uint32_t live = iol_maplog_live_count(m);
    iolens_status st = IOLENS_OK;
    unsigned char *buf;

    if (!desc || (desc->record_size && desc->record_size != m->rec_size) ||
        desc->version != m->rec_version)
        return IOLENS_OK; /* a module this log library cannot write: left out */
    if (!(buf = malloc(m->rec_size)))
        return IOLENS_ERR_NOMEM;
    for (uint32_t j = 0; j < live && st == IOLENS_OK; j++)
        if (iol_maplog_copy_record(h, m, j, buf))
            st = iolens_writer_put_record(w, (int)m->mod_id, buf);
    free(buf);
    if (atomic_load((_Atomic uint32_t *)&m->partial))
        iolens_writer_set_partial(w, (int)m->mod_id);
    return st;
}

size_t iol_maplog_trace_record(const struct iol_map_header *h, const struct iol_map_module *m,
                               uint32_t j, iol_maplog_trace_fn traces, void *buf, size_t cap)
{
    unsigned char *s = slot_of(h, m, j);
    struct iol_map_slot_head *head = (struct iol_map_slot_head *)s;
    if (!slot_id(s))
        return 0;
    int locked = iol_head_lock_bounded(head);
    size_t n = traces(m, s, buf, cap);
    if (locked)
        iol_head_unlock(head);
    return n;
}

/* The whole record of a trace module's slot j, read from the file's own
 * trace area (the record file of another process: no lock needed). */
static size_t file_trace_record(const struct iol_map_header *h, const struct iol_map_module *m,
                                uint32_t j, void *buf, size_t cap)
{
    unsigned char *s = slot_of(h, m, j);
    return slot_id(s) ? iol_dxt_recfile_build(h, m, s, buf, cap) : 0;
}

/* A trace module's live records, each built whole by traces under the
 * slot's (bounded) lock, or from the file when traces is NULL. */
static iolens_status put_traces(iolens_log_writer *w, const struct iol_map_header *h,
                                const struct iol_map_module *m, iol_maplog_trace_fn traces)
{
    uint32_t live = iol_maplog_live_count(m);
    iolens_status st = IOLENS_OK;
    size_t cap = 0, n;
    void *buf = NULL;

    for (uint32_t j = 0; j < live && st == IOLENS_OK; j++) {
        while ((n = traces ? iol_maplog_trace_record(h, m, j, traces, buf, cap)
                           : file_trace_record(h, m, j, buf, cap)) > cap) {
            void *more = realloc(buf, n);
            if (!more) {
                st = IOLENS_ERR_NOMEM;
                break;
            }
            buf = more;
            cap = n;
        }
        if (st == IOLENS_OK && n)
            st = iolens_writer_put_record(w, (int)m->mod_id, buf);
    }
    free(buf);
    if (st == IOLENS_OK && atomic_load((_Atomic uint32_t *)&m->partial))
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

/* The string at src (len bytes, NUL-terminated or cut there) into dst; only
 * the bytes used are touched (these buffers are on the stack of a process
 * ending: each page first touched there costs a page fault). */
static void copy_text(char *dst, const char *src, size_t len)
{
    size_t n = strnlen(src, len - 1);
    memcpy(dst, src, n);
    dst[n] = '\0';
}

void iol_maplog_job(const struct iol_map_header *h, struct iol_maplog_job *out)
{
    memset(&out->job, 0, sizeof(out->job));
    out->job.uid = h->uid;
    out->job.start_time_sec = h->start_sec;
    out->job.start_time_nsec = h->start_nsec;
    out->job.end_time_sec = h->end_sec;
    out->job.end_time_nsec = h->end_nsec;
    out->job.nprocs = h->nprocs;
    out->job.jobid = h->jobid;
    copy_text(out->job.metadata, h->metadata, sizeof(out->job.metadata));
    copy_text(out->exe, h->exe, sizeof(out->exe));
    copy_text(out->mount_text, h->mounts, sizeof(out->mount_text));
    out->nmounts = parse_mounts(out->mount_text, out->mounts,
                                sizeof(out->mounts) / sizeof(*out->mounts));
}

static iolens_status put_job(iolens_log_writer *w, const struct iol_map_header *h,
                             int recovered)
{
    static const char killed[] = IOL_MAPLOG_KILLED "=1\n";
    struct iol_maplog_job j;
    iol_maplog_job(h, &j);
    size_t used = strlen(j.job.metadata);
    if (recovered && used + sizeof(killed) <= sizeof(j.job.metadata))
        memcpy(j.job.metadata + used, killed, sizeof(killed));
    return iolens_writer_put_job(w, &j.job, j.exe, j.mounts, j.nmounts);
}

iolens_status iol_maplog_write(const struct iol_map_header *h, size_t len, const char *path,
                               int recovered, iol_maplog_trace_fn traces, char *detail,
                               size_t detail_len)
{
    iolens_log_writer *w;
    iolens_status st = iol_maplog_check(h, len, detail, detail_len);
    uint32_t order[IOL_MAP_MAX_MODS];

    if (st != IOLENS_OK)
        return st;
    st = iolens_writer_create(path, IOLENS_COMP_ZLIB, &w, detail, detail_len);
    if (st != IOLENS_OK)
        return st;
    iolens_writer_set_compat(w, (iolens_log_compat)h->log_compat);
    if ((st = iolens_writer_set_mode(w, 0400)) != IOLENS_OK ||
        (st = put_job(w, h, recovered)) != IOLENS_OK || (st = put_names(w, h)) != IOLENS_OK)
        goto fail;
    iol_maplog_module_order(h, order);
    for (uint32_t i = 0; i < h->nmods; i++) {
        const struct iol_map_module *m = &h->mods[order[i]];
        const struct iolens_module_desc *d = iolens_module((int)m->mod_id);
        /* the bytes of its records at most, when they have a fixed size */
        iol_writer_expect(w, d && !d->trace ? (uint64_t)iol_maplog_live_count(m) * m->rec_size
                                            : 0);
        if ((st = d && d->trace ? put_traces(w, h, m, traces) : put_module(w, h, m)) != IOLENS_OK)
            goto fail;
    }
    st = iolens_writer_close(w);
    if (st != IOLENS_OK)
        set_detail(detail, detail_len, iolens_strerror(st));
    return st;
fail:
    set_detail(detail, detail_len, iolens_strerror(st));
    iolens_writer_abort(w);
    return st;
}
