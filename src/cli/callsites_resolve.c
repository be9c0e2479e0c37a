/* Addresses of the CALLSITES module to function, file and line (callsites.h),
 * with libdwfl: each mapped object the log names is reported at the load
 * address it had, from its own file when the build id matches, else from
 * the debuginfod-style cache /usr/lib/debug/.build-id/xx/yyyy.debug. */
#include <elfutils/libdw.h>
#include <elfutils/libdwelf.h>
#include <elfutils/libdwfl.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "callsites.h"
#include "callsites_internal.h"

static const Dwfl_Callbacks callbacks = {
    .find_elf = dwfl_build_id_find_elf,
    .find_debuginfo = dwfl_standard_find_debuginfo,
    .section_address = dwfl_offline_section_address,
};

/* Does the file at path have build id id (n bytes)? @return 1 or 0. */
static int same_build_id(const char *path, const unsigned char *id, size_t n)
{
    int fd = open(path, O_RDONLY);
    if (fd < 0)
        return 0;
    int same = 0;
    Elf *e = elf_begin(fd, ELF_C_READ_MMAP, NULL);
    const void *got = NULL;
    ssize_t len = e ? dwelf_elf_gnu_build_id(e, &got) : -1;
    if (len > 0 && (size_t)len == n && memcmp(got, id, n) == 0)
        same = 1;
    if (e)
        elf_end(e);
    close(fd);
    return same;
}

/* The file to read for an object: its own path if the build id matches (or
 * there is no build id to check), else the build-id cache's debug file. */
static int object_file(const struct cs_object *o, char *out, size_t len)
{
    if (o->idlen == 0 || same_build_id(o->path, o->build_id, o->idlen)) {
        snprintf(out, len, "%s", o->path);
        return access(out, R_OK) == 0 ? 0 : -1;
    }
    char hex[2 * sizeof(o->build_id) + 1];
    for (size_t i = 0; i < o->idlen; i++)
        snprintf(hex + 2 * i, 3, "%02x", o->build_id[i]);
    snprintf(out, len, "/usr/lib/debug/.build-id/%.2s/%s.debug", hex, hex + 2);
    return access(out, R_OK) == 0 && same_build_id(out, o->build_id, o->idlen) ? 0 : -1;
}

Dwfl *cs_dwfl_open(struct cs_object *objs, size_t n)
{
    elf_version(EV_CURRENT);
    Dwfl *d = dwfl_begin(&callbacks);
    if (!d)
        return NULL;
    dwfl_report_begin(d);
    for (size_t i = 0; i < n; i++) {
        char file[4096];
        if (object_file(&objs[i], file, sizeof(file)) != 0)
            continue;
        objs[i].mod = dwfl_report_elf(d, objs[i].path, file, -1, objs[i].base, false);
    }
    dwfl_report_end(d, NULL, NULL);
    return d;
}

/* A module's compile units by the address ranges they cover: libdwfl finds
 * an address's line through .debug_aranges, which clang does not write by
 * default (-gdwarf-aranges); without it, the units' own ranges say. */
struct cs_cu_range {
    Dwarf_Addr lo, hi;
    Dwarf_Die cu;
};

struct cs_cu_table {
    struct cs_cu_range *v;
    size_t n;
    Dwarf_Addr bias;
};

static int by_lo(const void *a, const void *b)
{
    const struct cs_cu_range *x = a, *y = b;
    return x->lo < y->lo ? -1 : x->lo > y->lo;
}

static struct cs_cu_table *cu_table(Dwfl_Module *m)
{
    struct cs_cu_table *t = calloc(1, sizeof(*t));
    size_t cap = 0;
    Dwarf_Die *cu = NULL;
    Dwarf_Addr bias = 0;
    while (t && (cu = dwfl_module_nextcu(m, cu, &bias)) != NULL) {
        Dwarf_Addr base, lo, hi;
        t->bias = bias;
        for (ptrdiff_t off = 0; (off = dwarf_ranges(cu, off, &base, &lo, &hi)) > 0;) {
            if (t->n == cap) {
                struct cs_cu_range *v = realloc(t->v, (cap = cap ? 2 * cap : 64) * sizeof(*v));
                if (!v)
                    return t; /* what it has: fewer lines resolved */
                t->v = v;
            }
            t->v[t->n++] = (struct cs_cu_range){lo, hi, *cu};
        }
    }
    if (t && t->n)
        qsort(t->v, t->n, sizeof(*t->v), by_lo);
    return t;
}

/* The line of at in m through its compile units' ranges, or NULL. */
static Dwarf_Line *line_by_cu(struct cs_object *o, Dwfl_Module *m, Dwarf_Addr at)
{
    if (!o->cus)
        o->cus = cu_table(m);
    struct cs_cu_table *t = o->cus;
    if (!t || !t->n)
        return NULL;
    Dwarf_Addr pc = at - t->bias;
    size_t lo = 0, hi = t->n; /* the last range starting at or below pc */
    while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        if (t->v[mid].lo <= pc)
            lo = mid;
        else
            hi = mid;
    }
    /* ranges of different units may nest (a unit's whole span around
     * another's): look back from the last one starting below pc */
    for (size_t i = lo + 1; i-- > 0;)
        if (t->v[i].lo <= pc && pc < t->v[i].hi)
            return dwarf_getsrc_die(&t->v[i].cu, pc);
    return NULL;
}

void cs_objects_release(struct cs_object *objs, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (objs[i].cus) {
            free(objs[i].cus->v);
            free(objs[i].cus);
            objs[i].cus = NULL;
        }
}

void cs_resolve(Dwfl *d, struct cs_object *objs, size_t n, uint64_t addr, int is_return,
                struct cs_frame *f)
{
    memset(f, 0, sizeof(*f));
    /* A return address is the instruction after the call: look up the call. */
    uint64_t at = is_return && addr ? addr - 1 : addr;
    /* The log keeps load addresses, not extents: the object whose load
     * address is the closest below (what the resolver finds wins). */
    struct cs_object *o = NULL;
    for (size_t i = 0; i < n; i++)
        if (objs[i].base <= at && (!o || objs[i].base > o->base))
            o = &objs[i];
    if (o) {
        f->object = strdup(o->path);
        f->offset = addr - o->base;
    }
    Dwfl_Module *m = d ? dwfl_addrmodule(d, at) : NULL;
    if (!m)
        return;
    for (size_t i = 0; i < n; i++)
        if (objs[i].mod == m && (!o || o != &objs[i])) {
            free(f->object);
            f->object = strdup(objs[i].path);
            f->offset = addr - objs[i].base;
            o = &objs[i];
        }
    const char *name = dwfl_module_addrname(m, at);
    if (name)
        f->function = strdup(name);
    Dwfl_Line *l = dwfl_module_getsrc(m, at);
    int line = 0;
    const char *src = l ? dwfl_lineinfo(l, NULL, &line, NULL, NULL, NULL) : NULL;
    Dwarf_Line *dl = !src && o && o->mod == m ? line_by_cu(o, m, at) : NULL;
    if (dl && (src = dwarf_linesrc(dl, NULL, NULL)) != NULL && dwarf_lineno(dl, &line) != 0)
        src = NULL;
    if (src) {
        f->file = strdup(src);
        f->line = line;
    }
}

const char *cs_frame_text(const struct cs_frame *f, char *buf, size_t len)
{
    if (f->function && f->file)
        snprintf(buf, len, "%s %s:%d", f->function, f->file, f->line);
    else if (f->function)
        snprintf(buf, len, "%s (%s+0x%" PRIx64 ")", f->function, f->object ? f->object : "?",
                 f->offset);
    else
        snprintf(buf, len, "%s+0x%" PRIx64, f->object ? f->object : "?", f->offset);
    return buf;
}
