/* Parsing for iolens predict: each file with libclang, with its flags from
 * compile_commands.json when a build folder is given (else the flags after
 * `--`), then the walk (walk.c) and the file blocks. */
#include <clang-c/CXCompilationDatabase.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "internal.h"
#include "json.h"

const char *const pr_param_names[PR_NPARAMS] = {
    "loop_iterations", "io_ops",      "bytes",        "sync_ops",   "conditional_ops",
    "binary_ops",      "flushes",     "file_size",    "files",      "memory_bytes",
    "stack_bytes",     "random_ops",  "small_ops",    "processes",  "storage_concurrency",
};

const char *pr_kind_name(enum pr_kind k)
{
    static const char *const names[] = {"file", "function", "loop", "branch"};
    return names[k];
}

long pr_block_add(struct pr_program *prog, enum pr_kind kind, const char *name, const char *file,
                  unsigned line)
{
    if (prog->n == prog->cap) {
        size_t cap = prog->cap ? prog->cap * 2 : 256;
        struct pr_block *b = realloc(prog->blocks, cap * sizeof *b);
        if (!b)
            return -1;
        prog->blocks = b;
        prog->cap = cap;
    }
    struct pr_block *b = &prog->blocks[prog->n];
    memset(b, 0, sizeof *b);
    b->kind = kind;
    b->name = strdup(name);
    b->file = strdup(file);
    b->line = line;
    b->trip_count = -1;
    if (!b->name || !b->file) {
        free(b->name);
        free(b->file);
        return -1;
    }
    return (long)prog->n++;
}

void pr_program_free(struct pr_program *prog)
{
    for (size_t i = 0; i < prog->n; i++) {
        free(prog->blocks[i].name);
        free(prog->blocks[i].file);
    }
    free(prog->blocks);
    free(prog->first_error);
    memset(prog, 0, sizeof *prog);
}

static int is_source_name(const char *path)
{
    static const char *const exts[] = {".c", ".h", ".i", ".cc", ".cpp", ".cxx", ".c++",
                                       ".C", ".hpp", ".hh", ".hxx"};
    const char *dot = strrchr(path, '.');
    if (!dot || strchr(dot, '/'))
        return 0;
    for (size_t i = 0; i < sizeof(exts) / sizeof(exts[0]); i++)
        if (!strcmp(dot, exts[i]))
            return 1;
    return 0;
}

/* The arguments libclang needs from a compile command: its flags without
 * the compiler, the source, -c and -o FILE; relative include folders made
 * absolute from the command's directory. Allocated into *out. @return count or -1. */
static int command_args(CXCompileCommand cmd, char ***out)
{
    unsigned n = clang_CompileCommand_getNumArgs(cmd);
    CXString dirs = clang_CompileCommand_getDirectory(cmd);
    const char *dir = clang_getCString(dirs);
    char **args = calloc(n ? n : 1, sizeof *args);
    int m = 0, next_is_path = 0;
    if (!args) {
        clang_disposeString(dirs);
        return -1;
    }
    for (unsigned i = 1; i < n; i++) {
        CXString s = clang_CompileCommand_getArg(cmd, i);
        const char *a = clang_getCString(s);
        char *copy = NULL;
        if (!strcmp(a, "-c")) {
        } else if (!strcmp(a, "-o")) {
            i++;
        } else if (next_is_path && a[0] != '/') {
            size_t len = strlen(dir) + strlen(a) + 2;
            if ((copy = malloc(len)))
                snprintf(copy, len, "%s/%s", dir, a);
        } else if (!strncmp(a, "-I", 2) && a[2] && a[2] != '/') {
            size_t len = strlen(dir) + strlen(a) + 2;
            if ((copy = malloc(len)))
                snprintf(copy, len, "-I%s/%s", dir, a + 2);
        } else if (a[0] == '-' || !is_source_name(a)) { /* not the source itself */
            copy = strdup(a);
        }
        next_is_path = !strcmp(a, "-I") || !strcmp(a, "-isystem") || !strcmp(a, "-iquote") ||
                       !strcmp(a, "-include");
        clang_disposeString(s);
        if (copy)
            args[m++] = copy;
    }
    clang_disposeString(dirs);
    *out = args;
    return m;
}

static void free_args(char **args, int n)
{
    for (int i = 0; i < n; i++)
        free(args[i]);
    free(args);
}

static void note_diagnostics(struct pr_program *prog, CXTranslationUnit tu)
{
    unsigned n = clang_getNumDiagnostics(tu);
    for (unsigned i = 0; i < n; i++) {
        CXDiagnostic d = clang_getDiagnostic(tu, i);
        if (clang_getDiagnosticSeverity(d) >= CXDiagnostic_Error) {
            prog->parse_errors++;
            if (!prog->first_error) {
                CXString s = clang_formatDiagnostic(d, CXDiagnostic_DisplaySourceLocation);
                prog->first_error = strdup(clang_getCString(s));
                clang_disposeString(s);
            }
        }
        clang_disposeDiagnostic(d);
    }
}

/* One file block per source file, adding up its functions. */
static int add_file_blocks(struct pr_program *prog)
{
    size_t nfunctions = prog->n;
    for (size_t i = 0; i < nfunctions; i++) {
        const struct pr_block *fb = &prog->blocks[i];
        if (fb->kind != PR_FUNCTION)
            continue;
        long file = -1;
        for (size_t j = nfunctions; j < prog->n; j++)
            if (!strcmp(prog->blocks[j].file, fb->file))
                file = (long)j;
        if (file < 0 && (file = pr_block_add(prog, PR_FILE, fb->file, fb->file, 1)) < 0)
            return -1;
        fb = &prog->blocks[i]; /* the array may have moved */
        struct pr_block *f = &prog->blocks[file];
        f->function = -1;
        for (int p = 0; p < PR_NPARAMS; p++) {
            if (p == PR_STACK)
                f->p[p] = f->p[p] > fb->p[p] ? f->p[p] : fb->p[p];
            else
                f->p[p] += fb->p[p];
            f->unknown[p] |= fb->unknown[p];
        }
        f->reads += fb->reads, f->writes += fb->writes;
        f->collective += fb->collective, f->independent += fb->independent;
        f->ifaces |= fb->ifaces;
    }
    return 0;
}

/* P14 and P15: the same for every block. */
static void set_system(struct pr_program *prog, const struct pr_options *opt)
{
    double procs = opt->procs > 0 ? opt->procs : prog->has_mpi_init ? 0 : 1;
    for (size_t i = 0; i < prog->n; i++) {
        struct pr_block *b = &prog->blocks[i];
        b->p[PR_PROCS] = procs;
        b->unknown[PR_PROCS] = procs <= 0;
        b->p[PR_CONCURRENCY] = opt->concurrency > 0 ? opt->concurrency : 0;
        b->unknown[PR_CONCURRENCY] = opt->concurrency <= 0;
    }
}

int pr_analyze(struct pr_program *prog, char **files, int n, const struct pr_options *opt,
               char *err, size_t errlen)
{
    CXCompilationDatabase db = NULL;
    CXIndex index = NULL;
    CXTranslationUnit *tus = calloc(n > 0 ? (size_t)n : 1, sizeof *tus);
    int ntus = 0, rc = -1;
    memset(prog, 0, sizeof *prog);
    if (!tus) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    for (int i = 0; i < n; i++) {
        struct stat st;
        if (access(files[i], R_OK) || stat(files[i], &st)) {
            snprintf(err, errlen, "%s: %s", files[i], strerror(errno));
            goto out;
        }
        if (!S_ISREG(st.st_mode)) { /* a FIFO would hold libclang forever */
            snprintf(err, errlen, "%s: not a regular file", files[i]);
            goto out;
        }
        if (!is_source_name(files[i])) {
            snprintf(err, errlen, "%s: not a C or C++ source (.c, .h, .cc, .cpp, ...)", files[i]);
            goto out;
        }
    }
    if (opt->build_dir) {
        /* checked here first: libclang would print its own complaints */
        char dbpath[4096], why[512];
        struct pj_value doc;
        snprintf(dbpath, sizeof dbpath, "%s/compile_commands.json", opt->build_dir);
        if (pj_load(dbpath, &doc, why, sizeof why)) {
            snprintf(err, errlen, "%s", why);
            goto out;
        }
        int is_array = doc.type == PJ_ARRAY;
        pj_free(&doc);
        if (!is_array) {
            snprintf(err, errlen, "%s: not a compilation database (an array of commands)", dbpath);
            goto out;
        }
        CXCompilationDatabase_Error dberr;
        db = clang_CompilationDatabase_fromDirectory(opt->build_dir, &dberr);
        if (dberr != CXCompilationDatabase_NoError) {
            snprintf(err, errlen, "%s/compile_commands.json: missing or not a compilation database",
                     opt->build_dir);
            db = NULL;
            goto out;
        }
    }
    index = clang_createIndex(0, 0);
    for (int i = 0; i < n; i++) {
        char **args = NULL;
        int nargs = -2;
        CXCompileCommands cmds = NULL;
        if (db) {
            char *abs = realpath(files[i], NULL);
            cmds = abs ? clang_CompilationDatabase_getCompileCommands(db, abs) : NULL;
            free(abs);
            if (cmds && clang_CompileCommands_getSize(cmds) > 0)
                nargs = command_args(clang_CompileCommands_getCommand(cmds, 0), &args);
            clang_CompileCommands_dispose(cmds);
        }
        if (nargs == -1) {
            snprintf(err, errlen, "out of memory");
            goto out;
        }
        enum CXErrorCode e = clang_parseTranslationUnit2(
            index, files[i], nargs >= 0 ? (const char *const *)args : (const char *const *)opt->extra_args,
            nargs >= 0 ? nargs : opt->n_extra, NULL, 0, CXTranslationUnit_KeepGoing, &tus[ntus]);
        if (nargs >= 0)
            free_args(args, nargs);
        if (e != CXError_Success) {
            snprintf(err, errlen, "%s: libclang could not parse it (error %d)", files[i], (int)e);
            goto out;
        }
        note_diagnostics(prog, tus[ntus++]);
    }
    if (pr_walk(prog, tus, ntus, opt) || add_file_blocks(prog)) {
        snprintf(err, errlen, "out of memory");
        goto out;
    }
    set_system(prog, opt);
    rc = 0;
out:
    for (int i = 0; i < ntus; i++)
        clang_disposeTranslationUnit(tus[i]);
    free(tus);
    if (index)
        clang_disposeIndex(index);
    if (db)
        clang_CompilationDatabase_dispose(db);
    if (rc)
        pr_program_free(prog);
    return rc;
}
