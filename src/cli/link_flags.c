/* iolens link-flags: print the compiler options that link the runtime into a
 * program, for programs LD_PRELOAD cannot reach (statically linked ones) or
 * that should record without it. The files are found beside this iolens,
 * where the build and `make install` put them (IOLENS_BIN_TO_LIBDIR and
 * IOLENS_BIN_TO_DATADIR, relative to the directory of the executable), so
 * the options always name the runtime of this iolens. The --wrap list is
 * the file the build generated from the runtime's binding tables
 * (src/static/mkarchive.sh); nothing here lists a symbol. */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

#ifndef IOLENS_BIN_TO_LIBDIR
#define IOLENS_BIN_TO_LIBDIR "../lib"
#endif
#ifndef IOLENS_BIN_TO_DATADIR
#define IOLENS_BIN_TO_DATADIR "../share"
#endif

#define STATIC_ARCHIVE "libiolens-static.a"
#define WRAP_FILE "iolens/iolens-static.ldflags"
#define SHARED_RUNTIME "libiolens.so"
#define MPI_RUNTIME "libiolens-mpi.so"

static const char link_flags_usage[] =
    "usage: iolens link-flags [--static | --dynamic | --mpi]\n"
    "\n"
    "Print, on one line, the compiler options that link the iolens runtime into a\n"
    "program, for the end of its link command: the program then records itself at\n"
    "every run, without LD_PRELOAD or iolens run, with the same settings (IOLENS_*\n"
    "variables, config file) and the same logs. The options name the files\n"
    "installed with this iolens (absolute paths). See docs/runtime.md, \"Linking\n"
    "the runtime into a program\".\n"
    "  --static    (the default) for a statically linked program (cc -static): the\n"
    "              option -Wl,--wrap=X for every libc function X the runtime wraps,\n"
    "              so that the program's calls to X, and those of the static\n"
    "              libraries linked with it (libgfortran.a, ...), go to the runtime,\n"
    "              which calls libc's X; then libiolens-static.a, whole. It records\n"
    "              the POSIX, STDIO and HEATMAP modules, one log per process\n"
    "  --dynamic   for a dynamically linked program: libiolens.so as a library\n"
    "              the program needs (with its directory as run path), loaded\n"
    "              before the others, so that its functions come before libc's\n"
    "              and MPI's for the program and every shared library it uses,\n"
    "              exactly as under LD_PRELOAD. Put the options before the\n"
    "              libraries (-lmpi, -lhdf5) on the command line\n"
    "  --mpi       for an MPI program (mpicc, mpif90): the options of --dynamic,\n"
    "              once it is checked that this runtime has its MPI part\n"
    "              (libiolens-mpi.so): MPI-IO is recorded and the job writes one\n"
    "              log at MPI_Finalize. MPI libraries are shared libraries here;\n"
    "              there is no static MPI runtime\n"
    "\n"
    "Examples:\n"
    "  cc -static -o prog prog.o $(iolens link-flags)\n"
    "  gfortran -static -o prog prog.o $(iolens link-flags)\n"
    "  cc -o prog prog.o $(iolens link-flags --dynamic)\n"
    "  mpicc -o prog prog.o $(iolens link-flags --mpi)\n"
    "  mpif90 -o prog prog.o $(iolens link-flags --mpi)\n"
    "\n"
    "Limits: the static runtime cannot be built with the sanitizers, and sees\n"
    "only calls made between object files (not libc's calls inside its own\n"
    "members); a static program links only the static runtime, a dynamic one\n"
    "only the shared one (the static options in a dynamically linked program\n"
    "would miss every call its shared libraries make). The paths must hold no\n"
    "space or shell character, since the options are split by the shell.\n"
    "pkg-config --static --libs iolens-static gives the static options too.\n"
    "\n"
    "Exit status: 0 with the options printed, 1 when a file is missing, 2 for\n"
    "wrong usage.\n";

/* The directory this iolens runs from, into dir (PATH_MAX bytes).
 * @return 0, or 1 after printing why. */
static int exe_dir(char *dir)
{
    ssize_t n = readlink("/proc/self/exe", dir, PATH_MAX - 1);
    if (n <= 0)
        return cli_error("/proc/self/exe", "%s", n < 0 ? strerror(errno) : "empty");
    dir[n] = '\0';
    char *slash = strrchr(dir, '/');
    if (!slash)
        return cli_error(dir, "not an absolute path");
    *slash = '\0';
    return 0;
}

/* The file name, found in the directory rel (relative to this iolens's
 * directory bin) or else in the build tree's fallback, as an absolute path
 * in out (PATH_MAX bytes). @return 0, or -1 when neither holds it. */
static int find_file(const char *bin, const char *rel, const char *fallback, const char *name,
                     char *out)
{
    const char *dirs[] = {rel, fallback};
    char path[PATH_MAX];
    for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++)
        if ((size_t)snprintf(path, sizeof(path), "%s/%s/%s", bin, dirs[i], name) <
                sizeof(path) &&
            realpath(path, out) && access(out, R_OK) == 0)
            return 0;
    return -1;
}

/* Can path be one word of $(iolens link-flags)? The shell splits the output
 * at white space and expands wildcards in it. @return 0 if so, else 1 after
 * printing why. */
static int shell_safe(const char *path)
{
    if (strpbrk(path, " \t\n*?[]'\"\\$`;&|<>(){}#~"))
        return cli_error(path, "cannot be given in the options: the shell would split or "
                               "expand the path (a space or a shell character)");
    return 0;
}

/* Print the --wrap options of the file at path (one line, written by the
 * build) followed by a space. @return 0, or 1 after printing why. */
static int print_wrap_options(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return cli_error(path, "%s", strerror(errno));
    char *line = NULL;
    size_t cap = 0;
    ssize_t n = getline(&line, &cap, f);
    fclose(f);
    int ok = n > 0 && line[n - 1] == '\n' && !strncmp(line, "-Wl,--wrap=", 11);
    if (ok) {
        line[n - 1] = '\0';
        printf("%s ", line);
    }
    free(line);
    return ok ? 0 : cli_error(path, "not a line of -Wl,--wrap= options (rebuild iolens)");
}

/* The options for cc -static: the --wrap list and the whole static archive. */
static int static_flags(const char *bin)
{
    char wrap[PATH_MAX], archive[PATH_MAX];
    if (find_file(bin, IOLENS_BIN_TO_LIBDIR, "../lib", STATIC_ARCHIVE, archive) != 0)
        return cli_say("no " STATIC_ARCHIVE " beside this iolens (it is built only when "
                       "libc.a and libz.a are found, libc6-dev and zlib1g-dev, and not with "
                       "the sanitizers)");
    if (find_file(bin, IOLENS_BIN_TO_DATADIR, "../share", WRAP_FILE, wrap) != 0)
        return cli_say("no " WRAP_FILE " beside this iolens (installed with " STATIC_ARCHIVE
                       ")");
    if (shell_safe(archive) || print_wrap_options(wrap))
        return 1;
    printf("-Wl,--whole-archive %s -Wl,--no-whole-archive\n", archive);
    return 0;
}

/* The options for a dynamically linked program: libiolens.so needed
 * whatever the linker's --as-needed default, and its directory as run path;
 * with mpi, only if libiolens-mpi.so is beside it. */
static int dynamic_flags(const char *bin, int mpi)
{
    char lib[PATH_MAX], mpilib[PATH_MAX];
    if (find_file(bin, IOLENS_BIN_TO_LIBDIR, "../lib", SHARED_RUNTIME, lib) != 0)
        return cli_say("no " SHARED_RUNTIME " beside this iolens");
    char *slash = strrchr(lib, '/');
    size_t dirlen = (size_t)(slash - lib);
    if (mpi && ((size_t)snprintf(mpilib, sizeof(mpilib), "%.*s/%s", (int)dirlen, lib,
                                 MPI_RUNTIME) >= sizeof(mpilib) ||
                access(mpilib, R_OK) != 0))
        return cli_say("no " MPI_RUNTIME " beside %s: this iolens was built without MPI "
                       "(openmpi-bin and libopenmpi-dev, see scripts/install-deps)",
                       lib);
    if (shell_safe(lib))
        return 1;
    printf("-Wl,--push-state,--no-as-needed %s -Wl,--pop-state -Wl,-rpath,%.*s\n", lib,
           (int)dirlen, lib);
    return 0;
}

static int cli_link_flags(int argc, char **argv)
{
    enum { OPT_STATIC = 256, OPT_DYNAMIC, OPT_MPI };
    static const struct option opts[] = {
        {"dynamic", no_argument, NULL, OPT_DYNAMIC},
        {"help", no_argument, NULL, 'h'},
        {"mpi", no_argument, NULL, OPT_MPI},
        {"static", no_argument, NULL, OPT_STATIC},
        {NULL, 0, NULL, 0},
    };
    int c, is_static = 0, is_dynamic = 0, mpi = 0;
    while ((c = cli_getopt("link-flags", argc, argv, ":h", opts)) != -1) {
        switch (c) {
        case OPT_STATIC: is_static = 1; break;
        case OPT_DYNAMIC: is_dynamic = 1; break;
        case OPT_MPI: mpi = 1; break;
        case 'h': fputs(link_flags_usage, stdout); return 0;
        default: return 2;
        }
    }
    if (optind < argc)
        return cli_usage_error("link-flags", "%s: unexpected argument", argv[optind]);
    if (is_static && is_dynamic)
        return cli_usage_error("link-flags", "--static and --dynamic: choose one");
    if (is_static && mpi)
        return cli_usage_error("link-flags", "--static and --mpi: there is no static MPI "
                                             "runtime (an MPI program links the shared one: "
                                             "--mpi alone)");

    char bin[PATH_MAX];
    if (exe_dir(bin) != 0)
        return 1;
    int rc = is_dynamic || mpi ? dynamic_flags(bin, mpi) : static_flags(bin);
    if (rc == 0 && fflush(stdout) != 0)
        return cli_error("standard output", "%s", strerror(errno));
    return rc;
}

const struct cli_verb cli_link_flags_verb = {
    .name = "link-flags",
    .summary = "print the options that link the runtime into a program",
    .usage = link_flags_usage,
    .run = cli_link_flags,
};
