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

/* Parse the complete name records at the start of buf.
 * 3.10 and later: 8-byte id, NUL-terminated name. 3.00: id, 4-byte length, bytes.
 * @return bytes consumed, or (size_t)-1 on allocation failure. */
static size_t parse_names(struct iol_names *n, const unsigned char *buf, size_t len,
                          int swap, int v300)
{
    size_t pos = 0;
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
            if (name_len > len - name_off)
                break;
            rec_len = 12 + name_len;
        } else {
            const unsigned char *nul = memchr(buf + pos + 8, '\0', len - pos - 8);
            if (!nul)
                break;
            name_off = pos + 8;
            name_len = (size_t)(nul - (buf + name_off));
            rec_len = 8 + name_len + 1;
        }
        if (add_name(n, id, (const char *)buf + name_off, name_len) != IOLENS_OK)
            return (size_t)-1;
        pos += rec_len;
    }
    return pos;
}

iolens_status iolens_log_load_names(iolens_log *log)
{
    struct iolens_region rg;
    unsigned char *buf;
    size_t have = 0, alloc = 1 << 16;
    iolens_status st;

    if (!log->names && !(log->names = calloc(1, sizeof(*log->names))))
        return IOLENS_ERR_NOMEM;
    if (log->names->loaded)
        return IOLENS_OK;
    log->names->loaded = 1;
    if (log->info.name_map.len == 0)
        return IOLENS_OK;

    buf = malloc(alloc);
    if (!buf)
        return IOLENS_ERR_NOMEM;
    st = iol_region_begin(&rg, log->fd, log->info.compression, log->info.name_map);
    while (st == IOLENS_OK) {
        size_t got = 0;
        if (have == alloc) {
            /* One name longer than the buffer: grow, within reason. */
            if (alloc >= IOL_MAX_RECORD_BYTES) {
                st = iol_fail(log, IOLENS_ERR_CORRUPT, "name record longer than %zu bytes", alloc);
                break;
            }
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
        size_t used = parse_names(log->names, buf, have, log->info.byte_swapped,
                                  log->info.version_minor == 0);
        if (used == (size_t)-1) {
            st = IOLENS_ERR_NOMEM;
            break;
        }
        memmove(buf, buf + used, have - used);
        have -= used;
        if (got == 0)
            break;
    }
    iol_region_end(&rg);
    free(buf);
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
