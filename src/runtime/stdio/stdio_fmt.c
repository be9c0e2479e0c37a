/* STDIO module: the printf and scanf families on streams (fprintf, printf,
 * vfprintf, vprintf and their fortified __*_chk forms; fscanf, scanf,
 * vfscanf, vscanf in their old GNU, __isoc99_ and __isoc23_ forms). Same
 * wrapper shape as posix.c; a variadic form calls the C library's v-form.
 *
 * printf counts the bytes it returns. scanf returns conversions, not bytes:
 * what it consumed is the stream's position after minus before, asked of
 * the C library (ftello), which answers from the stream's buffer when it
 * knows the file offset and otherwise asks the kernel (lseek): a stream that
 * was never positioned costs a system call on each side, as in Darshan. */
#include "stdio_mod.h"

#include <errno.h>
#include <stdarg.h>

/* Entry points glibc exports but declares only in fortified headers, or
 * only from 2.38 on (C2x programs call the __isoc23_ forms). */
int __fprintf_chk(FILE *f, int flag, const char *fmt, ...);
int __printf_chk(int flag, const char *fmt, ...);
int __vfprintf_chk(FILE *f, int flag, const char *fmt, va_list ap);
int __vprintf_chk(int flag, const char *fmt, va_list ap);
int __isoc99_fscanf(FILE *f, const char *fmt, ...);
int __isoc99_scanf(const char *fmt, ...);
int __isoc99_vfscanf(FILE *f, const char *fmt, va_list ap);
int __isoc99_vscanf(const char *fmt, va_list ap);
int __isoc23_fscanf(FILE *f, const char *fmt, ...);
int __isoc23_scanf(const char *fmt, ...);
int __isoc23_vfscanf(FILE *f, const char *fmt, va_list ap);
int __isoc23_vscanf(const char *fmt, va_list ap);

/* In C99 and later, <stdio.h> maps fscanf, scanf, vfscanf and vscanf to
 * their __isoc99_ forms; the wrappers of the old GNU entry points get the
 * plain names as assembler names. */
int iol_gnu_fscanf(FILE *f, const char *fmt, ...) __asm__("fscanf");
int iol_gnu_scanf(const char *fmt, ...) __asm__("scanf");
int iol_gnu_vfscanf(FILE *f, const char *fmt, va_list ap) __asm__("vfscanf");
int iol_gnu_vscanf(const char *fmt, va_list ap) __asm__("vscanf");

static int (*real_vfprintf)(FILE *, const char *, va_list);
static int (*real_vprintf)(const char *, va_list);
static int (*real_vfprintf_chk)(FILE *, int, const char *, va_list);
static int (*real_vprintf_chk)(int, const char *, va_list);
static int (*real_vfscanf)(FILE *, const char *, va_list);
static int (*real_isoc99_vfscanf)(FILE *, const char *, va_list);
static int (*real_isoc23_vfscanf)(FILE *, const char *, va_list);
/* The variadic forms, and the stdin forms, end in the stream v-forms: their
 * own definitions are looked up (for the binding table) but never called. */
static void *unused_fprintf, *unused_fprintf_chk, *unused_printf, *unused_printf_chk;
static void *unused_fscanf, *unused_scanf, *unused_vscanf;
static void *unused_isoc99_fscanf, *unused_isoc99_scanf, *unused_isoc99_vscanf;
static void *unused_isoc23_fscanf, *unused_isoc23_scanf, *unused_isoc23_vscanf;

/* A __isoc23_ form called where the C library lacks it. */
static int missing(void)
{
    errno = ENOSYS;
    return EOF;
}

IOL_EXPORT int fprintf(FILE *f, const char *fmt, ...)
{
    struct stdio_stream *s;
    va_list ap;
    int ret;
    va_start(ap, fmt);
    if (!iol_active() || !(s = iol_stdio_stream(f))) {
        ret = real_vfprintf(f, fmt, ap);
        va_end(ap);
        return ret;
    }
    double t0 = iol_now();
    ret = real_vfprintf(f, fmt, ap);
    double t1 = iol_now();
    va_end(ap);
    stdio_note_write(s, ret, t0, t1);
    return ret;
}

IOL_EXPORT int printf(const char *fmt, ...)
{
    struct stdio_stream *s;
    va_list ap;
    int ret;
    va_start(ap, fmt);
    if (!iol_active() || !(s = iol_stdio_stream(stdout))) {
        ret = real_vprintf(fmt, ap);
        va_end(ap);
        return ret;
    }
    double t0 = iol_now();
    ret = real_vprintf(fmt, ap);
    double t1 = iol_now();
    va_end(ap);
    stdio_note_write(s, ret, t0, t1);
    return ret;
}

IOL_EXPORT int __fprintf_chk(FILE *f, int flag, const char *fmt, ...)
{
    struct stdio_stream *s;
    va_list ap;
    int ret;
    va_start(ap, fmt);
    if (!iol_active() || !(s = iol_stdio_stream(f))) {
        ret = real_vfprintf_chk(f, flag, fmt, ap);
        va_end(ap);
        return ret;
    }
    double t0 = iol_now();
    ret = real_vfprintf_chk(f, flag, fmt, ap);
    double t1 = iol_now();
    va_end(ap);
    stdio_note_write(s, ret, t0, t1);
    return ret;
}

IOL_EXPORT int __printf_chk(int flag, const char *fmt, ...)
{
    struct stdio_stream *s;
    va_list ap;
    int ret;
    va_start(ap, fmt);
    if (!iol_active() || !(s = iol_stdio_stream(stdout))) {
        ret = real_vprintf_chk(flag, fmt, ap);
        va_end(ap);
        return ret;
    }
    double t0 = iol_now();
    ret = real_vprintf_chk(flag, fmt, ap);
    double t1 = iol_now();
    va_end(ap);
    stdio_note_write(s, ret, t0, t1);
    return ret;
}

IOL_EXPORT int vfprintf(FILE *f, const char *fmt, va_list ap)
{
    struct stdio_stream *s;
    if (!iol_active() || !(s = iol_stdio_stream(f)))
        return real_vfprintf(f, fmt, ap);
    double t0 = iol_now();
    int ret = real_vfprintf(f, fmt, ap);
    double t1 = iol_now();
    stdio_note_write(s, ret, t0, t1);
    return ret;
}

IOL_EXPORT int vprintf(const char *fmt, va_list ap)
{
    struct stdio_stream *s;
    if (!iol_active() || !(s = iol_stdio_stream(stdout)))
        return real_vprintf(fmt, ap);
    double t0 = iol_now();
    int ret = real_vprintf(fmt, ap);
    double t1 = iol_now();
    stdio_note_write(s, ret, t0, t1);
    return ret;
}

IOL_EXPORT int __vfprintf_chk(FILE *f, int flag, const char *fmt, va_list ap)
{
    struct stdio_stream *s;
    if (!iol_active() || !(s = iol_stdio_stream(f)))
        return real_vfprintf_chk(f, flag, fmt, ap);
    double t0 = iol_now();
    int ret = real_vfprintf_chk(f, flag, fmt, ap);
    double t1 = iol_now();
    stdio_note_write(s, ret, t0, t1);
    return ret;
}

IOL_EXPORT int __vprintf_chk(int flag, const char *fmt, va_list ap)
{
    struct stdio_stream *s;
    if (!iol_active() || !(s = iol_stdio_stream(stdout)))
        return real_vprintf_chk(flag, fmt, ap);
    double t0 = iol_now();
    int ret = real_vprintf_chk(flag, fmt, ap);
    double t1 = iol_now();
    stdio_note_write(s, ret, t0, t1);
    return ret;
}

/* Every scanf form ends here: f is the stream (stdin for the scanf and
 * vscanf forms) and vfn the C library's vfscanf of the same flavour. */
static int traced_vscan(int (*vfn)(FILE *, const char *, va_list), FILE *f, const char *fmt,
                        va_list ap)
{
    struct stdio_stream *s;
    if (!vfn)
        return missing();
    if (!iol_active() || !(s = iol_stdio_stream(f)))
        return vfn(f, fmt, ap);
    int64_t p0 = stdio_tell(f);
    double t0 = iol_now();
    int ret = vfn(f, fmt, ap);
    double t1 = iol_now();
    int err = errno;
    stdio_note_scan(s, ret, p0, stdio_tell(f), t0, t1);
    errno = err;
    return ret;
}

/* The stream scanf entry points of each family (glibc's plain, C99 and C23
 * names), each forwarding to that family's real vfscanf. */

IOL_EXPORT int iol_gnu_fscanf(FILE *f, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int ret = traced_vscan(real_vfscanf, f, fmt, ap);
    va_end(ap);
    return ret;
}

IOL_EXPORT int iol_gnu_scanf(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int ret = traced_vscan(real_vfscanf, stdin, fmt, ap);
    va_end(ap);
    return ret;
}

IOL_EXPORT int iol_gnu_vfscanf(FILE *f, const char *fmt, va_list ap)
{
    return traced_vscan(real_vfscanf, f, fmt, ap);
}

IOL_EXPORT int iol_gnu_vscanf(const char *fmt, va_list ap)
{
    return traced_vscan(real_vfscanf, stdin, fmt, ap);
}

IOL_EXPORT int __isoc99_fscanf(FILE *f, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int ret = traced_vscan(real_isoc99_vfscanf, f, fmt, ap);
    va_end(ap);
    return ret;
}

IOL_EXPORT int __isoc99_scanf(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int ret = traced_vscan(real_isoc99_vfscanf, stdin, fmt, ap);
    va_end(ap);
    return ret;
}

IOL_EXPORT int __isoc99_vfscanf(FILE *f, const char *fmt, va_list ap)
{
    return traced_vscan(real_isoc99_vfscanf, f, fmt, ap);
}

IOL_EXPORT int __isoc99_vscanf(const char *fmt, va_list ap)
{
    return traced_vscan(real_isoc99_vfscanf, stdin, fmt, ap);
}

IOL_EXPORT int __isoc23_fscanf(FILE *f, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int ret = traced_vscan(real_isoc23_vfscanf, f, fmt, ap);
    va_end(ap);
    return ret;
}

IOL_EXPORT int __isoc23_scanf(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int ret = traced_vscan(real_isoc23_vfscanf, stdin, fmt, ap);
    va_end(ap);
    return ret;
}

IOL_EXPORT int __isoc23_vfscanf(FILE *f, const char *fmt, va_list ap)
{
    return traced_vscan(real_isoc23_vfscanf, f, fmt, ap);
}

IOL_EXPORT int __isoc23_vscanf(const char *fmt, va_list ap)
{
    return traced_vscan(real_isoc23_vfscanf, stdin, fmt, ap);
}

static const struct iol_binding bindings[] = {
    {"fprintf", (void *)fprintf, (void **)&unused_fprintf},
    {"printf", (void *)printf, (void **)&unused_printf},
    {"__fprintf_chk", (void *)__fprintf_chk, (void **)&unused_fprintf_chk},
    {"__printf_chk", (void *)__printf_chk, (void **)&unused_printf_chk},
    {"vfprintf", (void *)vfprintf, (void **)&real_vfprintf},
    {"vprintf", (void *)vprintf, (void **)&real_vprintf},
    {"__vfprintf_chk", (void *)__vfprintf_chk, (void **)&real_vfprintf_chk},
    {"__vprintf_chk", (void *)__vprintf_chk, (void **)&real_vprintf_chk},
    {"fscanf", (void *)iol_gnu_fscanf, (void **)&unused_fscanf},
    {"scanf", (void *)iol_gnu_scanf, (void **)&unused_scanf},
    {"vfscanf", (void *)iol_gnu_vfscanf, (void **)&real_vfscanf},
    {"vscanf", (void *)iol_gnu_vscanf, (void **)&unused_vscanf},
    {"__isoc99_fscanf", (void *)__isoc99_fscanf, (void **)&unused_isoc99_fscanf},
    {"__isoc99_scanf", (void *)__isoc99_scanf, (void **)&unused_isoc99_scanf},
    {"__isoc99_vfscanf", (void *)__isoc99_vfscanf, (void **)&real_isoc99_vfscanf},
    {"__isoc99_vscanf", (void *)__isoc99_vscanf, (void **)&unused_isoc99_vscanf},
    {"__isoc23_fscanf", (void *)__isoc23_fscanf, (void **)&unused_isoc23_fscanf},
    {"__isoc23_scanf", (void *)__isoc23_scanf, (void **)&unused_isoc23_scanf},
    {"__isoc23_vfscanf", (void *)__isoc23_vfscanf, (void **)&real_isoc23_vfscanf},
    {"__isoc23_vscanf", (void *)__isoc23_vscanf, (void **)&unused_isoc23_vscanf},
};

const struct iol_binding_table iol_stdio_fmt_bindings = {
    bindings, sizeof(bindings) / sizeof(bindings[0]),
};
