/* The mapped objects of the CALLSITES module: at the end, one record for
 * each object (program, shared library) that holds an address the module
 * recorded: its path as the record's name, its load address (what
 * dl_iterate_phdr calls dlpi_addr: an address minus it is the object's own
 * address) and its GNU build id, with which iolens callsites finds the same
 * object, or its debug file, on another machine. Called once, as the log is
 * written; nothing here runs on the hot path. */
#include "callsites.h"

#include <elf.h>
#include <link.h>
#include <string.h>
#include <unistd.h>

/* One PT_LOAD range of the object being looked at, and whether a recorded
 * address falls in one. */
struct probe {
    const struct dl_phdr_info *info;
    int hit;
};

static void in_object(uint64_t addr, void *arg)
{
    struct probe *p = arg;
    const struct dl_phdr_info *info = p->info;
    if (p->hit)
        return;
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        uint64_t lo = info->dlpi_addr + ph->p_vaddr;
        if (ph->p_type == PT_LOAD && addr >= lo && addr < lo + ph->p_memsz) {
            p->hit = 1;
            return;
        }
    }
}

/* The object's GNU build id, copied into out (at most cap bytes).
 * @return its bytes, or 0 without one. */
static size_t build_id(const struct dl_phdr_info *info, unsigned char *out, size_t cap)
{
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        if (ph->p_type != PT_NOTE)
            continue;
        const char *at = (const char *)(info->dlpi_addr + ph->p_vaddr), *end = at + ph->p_memsz;
        while (at + sizeof(ElfW(Nhdr)) <= end) {
            const ElfW(Nhdr) *n = (const ElfW(Nhdr) *)at;
            const char *name = at + sizeof(*n);
            const unsigned char *desc = (const unsigned char *)name + ((n->n_namesz + 3) & ~3u);
            if ((const char *)desc + n->n_descsz > end)
                break;
            if (n->n_type == NT_GNU_BUILD_ID && n->n_namesz == 4 && memcmp(name, "GNU", 4) == 0) {
                size_t len = n->n_descsz < cap ? n->n_descsz : cap;
                memcpy(out, desc, len);
                return len;
            }
            at = (const char *)desc + ((n->n_descsz + 3) & ~3u);
        }
    }
    return 0;
}

struct walk {
    struct iol_pool *pool;
    uint64_t pid;
    int first;
};

static int each_object(struct dl_phdr_info *info, size_t size, void *arg)
{
    (void)size;
    struct walk *w = arg;
    int main_program = w->first;
    w->first = 0;
    struct probe p = {info, 0};
    iol_cs_each_address(in_object, &p);
    if (!p.hit)
        return 0;
    char path[IOL_PATH_MAX];
    const char *name = info->dlpi_name;
    if (main_program || !name || !name[0]) {
        ssize_t n = readlink("/proc/self/exe", path, sizeof(path) - 1);
        path[n > 0 ? n : 0] = '\0';
        name = path;
    }
    uint64_t id[4] = {0};
    size_t idlen = build_id(info, (unsigned char *)id, sizeof(id));
    uint64_t key[5] = {info->dlpi_addr, id[0], id[1], id[2], id[3]};
    struct iolens_callsites_record *r =
        iol_cs_record(w->pool, w->pid, IOLENS_CALLSITES_OBJECT, key, 5, name);
    if (!r)
        return 1;
    r->counters[CALLSITES_FRAME_0] = (int64_t)info->dlpi_addr;
    r->counters[CALLSITES_DEPTH] = (int64_t)idlen;
    memcpy(&r->counters[CALLSITES_FRAME_1], id, sizeof(id));
    return 0;
}

void iol_cs_objects_write(struct iol_pool *p, uint64_t pid)
{
    struct walk w = {p, pid, 1};
    dl_iterate_phdr(each_object, &w);
}
