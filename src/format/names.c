/* Name records: record id -> name, read from the log's name region. */
#include <stdlib.h>
#include <string.h>
#include <uthash.h>

#include "../common/byteorder.h"
#include "../common/hash.h"
#include "log_internal.h"

struct iol_name {
    uint64_t id;
    char *name;
    UT_hash_handle hh;
};

/* Entries and strings come from chunks, so a million names cost a few
 * hundred allocations, and insertion order is the chunk order. */
#define NAME_CHUNK 4096
struct iol_name_chunk {
    struct iol_name_chunk *next;
    size_t used;
    struct iol_name entries[NAME_CHUNK];
};

struct iol_names {
    struct iol_name *table;
    struct iol_name_chunk *first, *last;
    size_t count;
    int loaded;
};

static struct iol_name *new_entry(struct iol_names *n)
{
    if (!n->last || n->last->used == NAME_CHUNK) {
        struct iol_name_chunk *c = calloc(1, sizeof(*c));
        if (!c)
            return NULL;
        if (n->last)
            n->last->next = c;
        else
            n->first = c;
        n->last = c;
    }
    return &n->last->entries[n->last->used++];
}

/* Keep the first name seen for an id, unless it was empty and this one is not. */
static iolens_status add_name(struct iol_names *n, uint64_t id, const char *name, size_t len)
{
    struct iol_name *e;
    HASH_FIND(hh, n->table, &id, sizeof(id), e);
    if (e && (e->name[0] != '\0' || len == 0))
        return IOLENS_OK;
    char *copy = malloc(len + 1);
    if (!copy)
        return IOLENS_ERR_NOMEM;
    memcpy(copy, name, len);
    copy[len] = '\0';
    if (e) {
        free(e->name);
        e->name = copy;
        return IOLENS_OK;
    }
    e = new_entry(n);
    if (!e) {
        free(copy);
        return IOLENS_ERR_NOMEM;
    }
    e->id = id;
    e->name = copy;
    HASH_ADD(hh, n->table, id, sizeof(e->id), e);
    n->count++;
    return IOLENS_OK;
}

/* Longest record name accepted (paths are at most a few KiB): bounds the
 * buffer a name without its terminator, or a hostile 3.00 length, can grow. */
#define IOL_MAX_NAME_BYTES ((size_t)1 << 20)

/* Parse the complete name records at the start of buf into n.
 * 3.10 and later: 8-byte id, NUL-terminated name. 3.00: id, 4-byte length, bytes.
 * @return IOLENS_OK with *used bytes consumed, IOLENS_ERR_CORRUPT for a name
 *         longer than IOL_MAX_NAME_BYTES, or IOLENS_ERR_NOMEM. */
/* The ids a partial load keeps (sorted), or none: every id. */
struct name_filter {
    const uint64_t *ids;
    size_t n;
};

static int cmp_id(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

static int wanted(const struct name_filter *f, uint64_t id)
{
    return !f || bsearch(&id, f->ids, f->n, sizeof(*f->ids), cmp_id) != NULL;
}

static iolens_status parse_names(struct iol_names *n, const unsigned char *buf, size_t len,
                                 int swap, int v300, const struct name_filter *f, size_t *used)
{
    size_t pos = 0;
    iolens_status st = IOLENS_OK;
    for (;;) {
        uint64_t id;
        size_t name_off, name_len, rec_len;
        if (len - pos < 8 + (v300 ? 4 : 1))
            break;
        memcpy(&id, buf + pos, 8);
        if (swap)
            id = iol_bswap64(id);
        if (v300) {
            uint32_t l;
            memcpy(&l, buf + pos + 8, 4);
            name_len = swap ? iol_bswap32(l) : l;
            name_off = pos + 12;
            if (name_len > IOL_MAX_NAME_BYTES) {
                st = IOLENS_ERR_CORRUPT;
                break;
            }
            if (name_len > len - name_off)
                break;
            rec_len = 12 + name_len;
        } else {
            const unsigned char *nul = memchr(buf + pos + 8, '\0', len - pos - 8);
            if (!nul) {
                if (len - pos - 8 > IOL_MAX_NAME_BYTES)
                    st = IOLENS_ERR_CORRUPT;
                break;
            }
            name_off = pos + 8;
            name_len = (size_t)(nul - (buf + name_off));
            if (name_len > IOL_MAX_NAME_BYTES) {
                st = IOLENS_ERR_CORRUPT;
                break;
            }
            rec_len = 8 + name_len + 1;
        }
        if (wanted(f, id) &&
            (st = add_name(n, id, (const char *)buf + name_off, name_len)) != IOLENS_OK)
            break;
        pos += rec_len;
    }
    *used = pos;
    return st;
}

/* Stream the name region into log->names, keeping the names f wants. */
static iolens_status read_names(iolens_log *log, const struct name_filter *f)
{
    struct iolens_region rg;
    unsigned char *buf;
    size_t have = 0, alloc = 1 << 16;
    iolens_status st;

    if (log->info.name_map.len == 0)
        return IOLENS_OK;

    buf = malloc(alloc);
    if (!buf)
        return IOLENS_ERR_NOMEM;
    st = iol_region_begin(&rg, log->fd, log->info.compression, log->info.name_map);
    if (st != IOLENS_OK)
        iol_fail(log, st, "cannot read name records: %s", iolens_strerror(st));
    while (st == IOLENS_OK) {
        size_t got = 0, used = 0;
        if (have == alloc) {
            /* One name longer than the buffer: grow (parse_names bounds it). */
            unsigned char *p = realloc(buf, alloc * 2);
            if (!p) {
                st = IOLENS_ERR_NOMEM;
                break;
            }
            buf = p;
            alloc *= 2;
        }
        st = iol_region_read(&rg, buf + have, alloc - have, &got);
        if (st != IOLENS_OK) {
            iol_fail(log, st, "cannot read name records: %s", iolens_strerror(st));
            break;
        }
        have += got;
        st = parse_names(log->names, buf, have, log->info.byte_swapped,
                         log->info.version_minor == 0, f, &used);
        if (st == IOLENS_ERR_CORRUPT)
            iol_fail(log, st, "name record longer than %zu bytes", IOL_MAX_NAME_BYTES);
        if (st != IOLENS_OK)
            break;
        memmove(buf, buf + used, have - used);
        have -= used;
        if (got == 0) {
            if (have != 0)
                st = iol_fail(log, IOLENS_ERR_TRUNCATED,
                              "name records end part-way through a record (%zu bytes left)",
                              have);
            break;
        }
    }
    iol_region_end(&rg);
    free(buf);
    if (st == IOLENS_ERR_NOMEM)
        iol_fail(log, st, "out of memory reading name records");
    return st;
}

iolens_status iolens_log_load_names(iolens_log *log)
{
    if (!log->names && !(log->names = calloc(1, sizeof(*log->names))))
        return IOLENS_ERR_NOMEM;
    if (log->names->loaded)
        return IOLENS_OK;
    log->names->loaded = 1;
    return read_names(log, NULL);
}

iolens_status iolens_log_load_names_of(iolens_log *log, const uint64_t *ids, size_t n)
{
    if (!log->names && !(log->names = calloc(1, sizeof(*log->names))))
        return IOLENS_ERR_NOMEM;
    if (log->names->loaded)
        return IOLENS_OK;
    /* Read through even for no id: a damaged region is reported either way. */
    uint64_t *sorted = malloc((n ? n : 1) * sizeof(*sorted));
    if (!sorted)
        return iol_fail(log, IOLENS_ERR_NOMEM, "out of memory reading name records");
    memcpy(sorted, ids, n * sizeof(*sorted));
    qsort(sorted, n, sizeof(*sorted), cmp_id);
    struct name_filter f = {sorted, n};
    iolens_status st = read_names(log, &f);
    free(sorted);
    return st;
}

const char *iolens_log_name(const iolens_log *log, uint64_t id)
{
    struct iol_name *e = NULL;
    if (!log->names)
        return NULL;
    HASH_FIND(hh, log->names->table, &id, sizeof(id), e);
    return e ? e->name : NULL;
}

size_t iolens_log_name_count(const iolens_log *log)
{
    return log->names ? log->names->count : 0;
}

int iolens_log_each_name(const iolens_log *log,
                         int (*fn)(uint64_t id, const char *name, void *arg), void *arg)
{
    if (!log->names)
        return 0;
    for (struct iol_name_chunk *c = log->names->first; c; c = c->next) {
        for (size_t i = 0; i < c->used; i++) {
            int rc = fn(c->entries[i].id, c->entries[i].name, arg);
            if (rc)
                return rc;
        }
    }
    return 0;
}

/* Free all names; called from iolens_log_close. */
void iol_names_free(struct iol_names *n)
{
    if (!n)
        return;
    HASH_CLEAR(hh, n->table);
    for (struct iol_name_chunk *c = n->first, *next; c; c = next) {
        next = c->next;
        for (size_t i = 0; i < c->used; i++)
            free(c->entries[i].name);
        free(c);
    }
    free(n);
}

uint64_t iolens_record_id(const char *name)
{
    return iol_hash64(name, strlen(name), 0);
}
