/* Addresses of the CALLSITES module to function, file and line (callsites.h),
 * with libdwfl: each mapped object the log names is reported at the load
 * address it had, from its own file when the build id matches, else from
 * the debuginfod-style cache /usr/lib/debug/.build-id/xx/yyyy.debug. */
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

void cs_resolve(Dwfl *d, const struct cs_object *objs, size_t n, uint64_t addr, int is_return,
                struct cs_frame *f)
{
    memset(f, 0, sizeof(*f));
    /* A return address is the instruction after the call: look up the call. */
    uint64_t at = is_return && addr ? addr - 1 : addr;
    /* The log keeps load addresses, not extents: the object whose load
     * address is the closest below (what the resolver finds wins). */
    const struct cs_object *o = NULL;
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
        }
    const char *name = dwfl_module_addrname(m, at);
    if (name)
        f->function = strdup(name);
    Dwfl_Line *l = dwfl_module_getsrc(m, at);
    int line = 0;
    const char *src = l ? dwfl_lineinfo(l, NULL, &line, NULL, NULL, NULL) : NULL;
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
