/* The measurement of the benchmark set of iolens predict (bench/predict/),
 * until the runtime's call sites (IOLENS_CALLSITES, issue 15) replace it.
 * Linked into each benchmark program, which is compiled with
 * -finstrument-functions (every function's entry and exit call the hooks
 * below) and linked with -Wl,--wrap=NAME for each I/O function (the
 * program's calls go to __wrap_NAME, which times __real_NAME). Per function
 * it measures its own time (time between entry and exit, minus the time of
 * the instrumented functions it called) and the time, calls and bytes of
 * the I/O calls it made itself; at exit it writes the run file
 * (docs/predict.md, "Run files") to $PREDICT_RUN. Single-threaded programs
 * only. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

#define NOINST __attribute__((no_instrument_function))
#define MAX_FUNCS 256
#define MAX_DEPTH 512
#define MAX_SITES 1024

struct func {
    void *addr;
    double own;
};
struct site {
    int func;
    const char *module, *op;
    double calls, bytes, time;
};
struct frame {
    int func;
    double start, child;
};

static struct func funcs[MAX_FUNCS];
static int nfuncs;
static struct site sites[MAX_SITES];
static int nsites;
static struct frame stack[MAX_DEPTH];
static int depth;

static NOINST double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static NOINST int func_index(void *addr)
{
    for (int i = 0; i < nfuncs; i++)
        if (funcs[i].addr == addr)
            return i;
    if (nfuncs == MAX_FUNCS)
        abort();
    funcs[nfuncs].addr = addr;
    return nfuncs++;
}

NOINST void __cyg_profile_func_enter(void *fn, void *site)
{
    (void)site;
    if (depth == MAX_DEPTH)
        abort();
    stack[depth++] = (struct frame){func_index(fn), now(), 0};
}

NOINST void __cyg_profile_func_exit(void *fn, void *site)
{
    (void)fn, (void)site;
    double t = now();
    struct frame *f = &stack[--depth];
    double total = t - f->start;
    funcs[f->func].own += total - f->child;
    if (depth > 0)
        stack[depth - 1].child += total;
}

/* Add one I/O call of the innermost function. */
static NOINST void note(const char *module, const char *op, double bytes, double t0)
{
    double t = now() - t0;
    if (depth == 0)
        return;
    int fn = stack[depth - 1].func;
    for (int i = 0; i < nsites; i++) {
        struct site *s = &sites[i];
        if (s->func == fn && s->op == op) {
            s->calls++, s->bytes += bytes, s->time += t;
            return;
        }
    }
    if (nsites == MAX_SITES)
        abort();
    sites[nsites++] = (struct site){fn, module, op, 1, bytes, t};
}

/* ---- the wrapped calls -------------------------------------------------- */
int __real_open(const char *, int, ...);
int __real_close(int);
ssize_t __real_read(int, void *, size_t);
ssize_t __real_write(int, const void *, size_t);
ssize_t __real_pread(int, void *, size_t, off_t);
ssize_t __real_pwrite(int, const void *, size_t, off_t);
off_t __real_lseek(int, off_t, int);
int __real_fsync(int);
FILE *__real_fopen(const char *, const char *);
int __real_fclose(FILE *);
size_t __real_fread(void *, size_t, size_t, FILE *);
size_t __real_fwrite(const void *, size_t, size_t, FILE *);
char *__real_fgets(char *, int, FILE *);
int __real_fputs(const char *, FILE *);
int __real_fputc(int, FILE *);
int __real_fgetc(FILE *);
int __real_fflush(FILE *);
int __real_fseek(FILE *, long, int);
int __real_unlink(const char *);
int __real_rename(const char *, const char *);

NOINST int __wrap_open(const char *path, int flags, ...)
{
    va_list ap;
    va_start(ap, flags);
    int mode = flags & O_CREAT ? va_arg(ap, int) : 0;
    va_end(ap);
    double t0 = now();
    int r = __real_open(path, flags, mode);
    note("POSIX", "open", 0, t0);
    return r;
}
NOINST int __wrap_close(int fd)
{
    double t0 = now();
    int r = __real_close(fd);
    note("POSIX", "close", 0, t0);
    return r;
}
NOINST ssize_t __wrap_read(int fd, void *b, size_t n)
{
    double t0 = now();
    ssize_t r = __real_read(fd, b, n);
    note("POSIX", "read", r > 0 ? (double)r : 0, t0);
    return r;
}
NOINST ssize_t __wrap_write(int fd, const void *b, size_t n)
{
    double t0 = now();
    ssize_t r = __real_write(fd, b, n);
    note("POSIX", "write", r > 0 ? (double)r : 0, t0);
    return r;
}
NOINST ssize_t __wrap_pread(int fd, void *b, size_t n, off_t o)
{
    double t0 = now();
    ssize_t r = __real_pread(fd, b, n, o);
    note("POSIX", "pread", r > 0 ? (double)r : 0, t0);
    return r;
}
NOINST ssize_t __wrap_pwrite(int fd, const void *b, size_t n, off_t o)
{
    double t0 = now();
    ssize_t r = __real_pwrite(fd, b, n, o);
    note("POSIX", "pwrite", r > 0 ? (double)r : 0, t0);
    return r;
}
NOINST off_t __wrap_lseek(int fd, off_t o, int w)
{
    double t0 = now();
    off_t r = __real_lseek(fd, o, w);
    note("POSIX", "lseek", 0, t0);
    return r;
}
NOINST int __wrap_fsync(int fd)
{
    double t0 = now();
    int r = __real_fsync(fd);
    note("POSIX", "fsync", 0, t0);
    return r;
}
NOINST FILE *__wrap_fopen(const char *p, const char *m)
{
    double t0 = now();
    FILE *r = __real_fopen(p, m);
    note("STDIO", "fopen", 0, t0);
    return r;
}
NOINST int __wrap_fclose(FILE *f)
{
    double t0 = now();
    int r = __real_fclose(f);
    note("STDIO", "fclose", 0, t0);
    return r;
}
NOINST size_t __wrap_fread(void *b, size_t s, size_t n, FILE *f)
{
    double t0 = now();
    size_t r = __real_fread(b, s, n, f);
    note("STDIO", "fread", (double)(r * s), t0);
    return r;
}
NOINST size_t __wrap_fwrite(const void *b, size_t s, size_t n, FILE *f)
{
    double t0 = now();
    size_t r = __real_fwrite(b, s, n, f);
    note("STDIO", "fwrite", (double)(r * s), t0);
    return r;
}
NOINST char *__wrap_fgets(char *b, int n, FILE *f)
{
    double t0 = now();
    char *r = __real_fgets(b, n, f);
    note("STDIO", "fgets", r ? (double)strlen(r) : 0, t0);
    return r;
}
NOINST int __wrap_fputs(const char *s, FILE *f)
{
    double t0 = now();
    int r = __real_fputs(s, f);
    note("STDIO", "fputs", (double)strlen(s), t0);
    return r;
}
NOINST int __wrap_fputc(int c, FILE *f)
{
    double t0 = now();
    int r = __real_fputc(c, f);
    note("STDIO", "fputc", 1, t0);
    return r;
}
NOINST int __wrap_fgetc(FILE *f)
{
    double t0 = now();
    int r = __real_fgetc(f);
    note("STDIO", "fgetc", r == EOF ? 0 : 1, t0);
    return r;
}
NOINST int __wrap_fflush(FILE *f)
{
    double t0 = now();
    int r = __real_fflush(f);
    note("STDIO", "fflush", 0, t0);
    return r;
}
NOINST int __wrap_fseek(FILE *f, long o, int w)
{
    double t0 = now();
    int r = __real_fseek(f, o, w);
    note("STDIO", "fseek", 0, t0);
    return r;
}
NOINST int __wrap_unlink(const char *p)
{
    double t0 = now();
    int r = __real_unlink(p);
    note("POSIX", "unlink", 0, t0);
    return r;
}
NOINST int __wrap_rename(const char *a, const char *b)
{
    double t0 = now();
    int r = __real_rename(a, b);
    note("POSIX", "rename", 0, t0);
    return r;
}
/* fprintf has no v-form to forward to under --wrap: vfprintf does the work */
NOINST int __wrap_fprintf(FILE *f, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    double t0 = now();
    int r = vfprintf(f, fmt, ap);
    note("STDIO", "fprintf", r > 0 ? r : 0, t0);
    va_end(ap);
    return r;
}

NOINST int __wrap_printf(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    double t0 = now();
    int r = vprintf(fmt, ap);
    note("STDIO", "printf", r > 0 ? r : 0, t0);
    va_end(ap);
    return r;
}
int __real_puts(const char *);
NOINST int __wrap_puts(const char *s)
{
    double t0 = now();
    int r = __real_puts(s);
    note("STDIO", "puts", (double)strlen(s) + 1, t0);
    return r;
}

/* ---- the run file --------------------------------------------------------- */

static NOINST const char *func_name(int i)
{
    Dl_info info;
    if (dladdr(funcs[i].addr, &info) && info.dli_sname)
        return info.dli_sname;
    return "?";
}

static NOINST __attribute__((destructor)) void write_run(void)
{
    const char *path = getenv("PREDICT_RUN");
    if (!path)
        return;
    FILE *f = __real_fopen(path, "w");
    if (!f)
        return;
    fprintf(f, "{\"program\": \"%s\", \"sources\": [\"%s\"],\n \"functions\": [", PROBE_PROGRAM,
            PROBE_SOURCE);
    for (int i = 0; i < nfuncs; i++)
        fprintf(f, "%s\n  {\"function\": \"%s\", \"time\": %.9f}", i ? "," : "", func_name(i),
                funcs[i].own);
    fprintf(f, "],\n \"sites\": [");
    for (int i = 0; i < nsites; i++) {
        const struct site *s = &sites[i];
        fprintf(f,
                "%s\n  {\"function\": \"%s\", \"file\": \"%s\", \"line\": 0, \"module\": \"%s\", "
                "\"op\": \"%s\", \"calls\": %.0f, \"bytes\": %.0f, \"time\": %.9f}",
                i ? "," : "", func_name(s->func), PROBE_SOURCE, s->module, s->op, s->calls,
                s->bytes, s->time);
    }
    fprintf(f, "]}\n");
    __real_fclose(f);
}
