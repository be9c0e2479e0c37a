/* Programs LD_PRELOAD cannot reach: statically linked ELF executables, which
 * have no program interpreter (PT_INTERP) to load the runtime. */
#include <elf.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "run.h"

/* The file execvp would run for prog, into buf (PATH_MAX bytes): prog itself
 * when it holds a '/', else the first executable regular file of that name
 * in PATH (glibc's default "/bin:/usr/bin" when unset). @return 0, or -1. */
static int resolve(const char *prog, char *buf)
{
    struct stat st;
    if (strchr(prog, '/'))
        return snprintf(buf, PATH_MAX, "%s", prog) < PATH_MAX ? 0 : -1;
    const char *path = getenv("PATH");
    if (!path)
        path = "/bin:/usr/bin";
    for (const char *p = path;; p++) {
        size_t n = strcspn(p, ":");
        if ((size_t)snprintf(buf, PATH_MAX, "%.*s%s%s", (int)n, p, n ? "/" : "", prog) <
                PATH_MAX &&
            stat(buf, &st) == 0 && S_ISREG(st.st_mode) && access(buf, X_OK) == 0)
            return 0;
        p += n;
        if (!*p)
            return -1;
    }
}

/* Does the ELF file open on fd have no PT_INTERP? @return 1 if so, 0 if it
 * has one or is not an ELF executable this code can read. */
static int no_interp(int fd)
{
    unsigned char ident[EI_NIDENT];
    if (pread(fd, ident, sizeof(ident), 0) != (ssize_t)sizeof(ident) ||
        memcmp(ident, ELFMAG, SELFMAG) != 0)
        return 0; /* a script, or not ELF: the kernel or its interpreter decides */
    uint64_t phoff;
    unsigned phnum, phentsize;
    if (ident[EI_CLASS] == ELFCLASS64) {
        Elf64_Ehdr e;
        if (pread(fd, &e, sizeof(e), 0) != (ssize_t)sizeof(e))
            return 0;
        phoff = e.e_phoff, phnum = e.e_phnum, phentsize = e.e_phentsize;
        if (phentsize != sizeof(Elf64_Phdr))
            return 0;
    } else if (ident[EI_CLASS] == ELFCLASS32) {
        Elf32_Ehdr e;
        if (pread(fd, &e, sizeof(e), 0) != (ssize_t)sizeof(e))
            return 0;
        phoff = e.e_phoff, phnum = e.e_phnum, phentsize = e.e_phentsize;
        if (phentsize != sizeof(Elf32_Phdr))
            return 0;
    } else {
        return 0;
    }
    for (unsigned i = 0; i < phnum; i++) {
        uint32_t type;
        /* p_type is the first word of both program header forms */
        if (pread(fd, &type, sizeof(type), (off_t)(phoff + (uint64_t)i * phentsize)) !=
            (ssize_t)sizeof(type))
            return 0;
        if (type == PT_INTERP)
            return 0;
    }
    return 1;
}

void run_warn_static(const char *prog)
{
    char path[PATH_MAX];
    if (resolve(prog, path) != 0)
        return; /* execvp reports it */
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return;
    if (no_interp(fd))
        cli_say("%s is statically linked: LD_PRELOAD cannot record it; relink it with "
                "the runtime (cc -static ... $(iolens link-flags)), which records it without "
                "iolens run, or without -static (docs/runtime.md, \"Linking the runtime into "
                "a program\"); running it anyway",
                prog);
    close(fd);
}
