/* STDIO module: the block, character and line wrappers (fread, fwrite,
 * fgetc, getc, getchar, fputc, putc, putchar, fgets, fputs, puts, getw, putw,
 * getline, getdelim, ungetc), with their _unlocked, fortified (__*_chk) and
 * old (_IO_getc, _IO_putc) forms. Same wrapper shape as posix.c; what each
 * counts is in the note call: the bytes the call moved, only when it moved
 * some (a read at end of file counts nothing). */
#include "stdio_mod.h"

#include <string.h>
#include <sys/types.h>

/* Names <stdio.h> may define as macros when optimising: the wrappers
 * define the functions themselves. */
#undef fread_unlocked
#undef fwrite_unlocked
#undef getc
#undef putc
#undef getc_unlocked
#undef putc_unlocked
#undef fgetc_unlocked
#undef fputc_unlocked
#undef getchar
#undef putchar
#undef getchar_unlocked
#undef putchar_unlocked

/* Entry points glibc exports but declares only in fortified or internal
 * headers. */
size_t __fread_chk(void *p, size_t len, size_t size, size_t n, FILE *f);
size_t __fread_unlocked_chk(void *p, size_t len, size_t size, size_t n, FILE *f);
char *__fgets_chk(char *buf, size_t len, int n, FILE *f);
char *__fgets_unlocked_chk(char *buf, size_t len, int n, FILE *f);
int _IO_getc(FILE *f);
int _IO_putc(int c, FILE *f);

static size_t (*real_fread)(void *, size_t, size_t, FILE *);
static size_t (*real_fread_unlocked)(void *, size_t, size_t, FILE *);
static size_t (*real_fread_chk)(void *, size_t, size_t, size_t, FILE *);
static size_t (*real_fread_unlocked_chk)(void *, size_t, size_t, size_t, FILE *);
static size_t (*real_fwrite)(const void *, size_t, size_t, FILE *);
static size_t (*real_fwrite_unlocked)(const void *, size_t, size_t, FILE *);
static int (*real_fgetc)(FILE *);
static int (*real_fgetc_unlocked)(FILE *);
static int (*real_getc)(FILE *);
static int (*real_getc_unlocked)(FILE *);
static int (*real_IO_getc)(FILE *);
static int (*real_getchar)(void);
static int (*real_getchar_unlocked)(void);
static int (*real_fputc)(int, FILE *);
static int (*real_fputc_unlocked)(int, FILE *);
static int (*real_putc)(int, FILE *);
static int (*real_putc_unlocked)(int, FILE *);
static int (*real_IO_putc)(int, FILE *);
static int (*real_putchar)(int);
static int (*real_putchar_unlocked)(int);
static char *(*real_fgets)(char *, int, FILE *);
static char *(*real_fgets_unlocked)(char *, int, FILE *);
static char *(*real_fgets_chk)(char *, size_t, int, FILE *);
static char *(*real_fgets_unlocked_chk)(char *, size_t, int, FILE *);
static int (*real_fputs)(const char *, FILE *);
static int (*real_fputs_unlocked)(const char *, FILE *);
static int (*real_puts)(const char *);
static int (*real_putw)(int, FILE *);
static int (*real_getw)(FILE *);
static ssize_t (*real_getline)(char **, size_t *, FILE *);
static ssize_t (*real_getdelim)(char **, size_t *, int, FILE *);
static ssize_t (*real_getdelim_internal)(char **, size_t *, int, FILE *);

static int (*real_ungetc)(int, FILE *);

/* getw returns EOF both at end of file and for a stored -1: the stream's
 * flags tell them apart (Darshan counts the end of file as a 4-byte read). */
static int64_t getw_bytes(int ret, FILE *f)
{
    if (ret == EOF && (feof_unlocked(f) || ferror_unlocked(f)))
        return 0;
    return (int64_t)sizeof(int);
}

IOL_EXPORT size_t fread(void *p, size_t size, size_t n, FILE *f)
{
    struct stdio_stream *s;
    if (!iol_active() || !(s = iol_stdio_stream(f)))
        return real_fread(p, size, n, f);
    double t0 = iol_now();
    size_t ret = real_fread(p, size, n, f);
    double t1 = iol_now();
    stdio_note_read(s, (int64_t)(ret * size), t0, t1);
    return ret;
}

IOL_EXPORT size_t fread_unlocked(void *p, size_t size, size_t n, FILE *f)
{
    struct stdio_stream *s;
    if (!iol_active() || !(s = iol_stdio_stream(f)))
        return real_fread_unlocked(p, size, n, f);
    double t0 = iol_now();
    size_t ret = real_fread_unlocked(p, size, n, f);
    double t1 = iol_now();
    stdio_note_read(s, (int64_t)(ret * size), t0, t1);
    return ret;
}

IOL_EXPORT size_t __fread_chk(void *p, size_t len, size_t size, size_t n, FILE *f)
{
    struct stdio_stream *s;
    if (!iol_active() || !(s = iol_stdio_stream(f)))
        return real_fread_chk(p, len, size, n, f);
    double t0 = iol_now();
    size_t ret = real_fread_chk(p, len, size, n, f);
    double t1 = iol_now();
    stdio_note_read(s, (int64_t)(ret * size), t0, t1);
    return ret;
}

IOL_EXPORT size_t __fread_unlocked_chk(void *p, size_t len, size_t size, size_t n, FILE *f)
{
    struct stdio_stream *s;
    if (!iol_active() || !(s = iol_stdio_stream(f)))
        return real_fread_unlocked_chk(p, len, size, n, f);
    double t0 = iol_now();
    size_t ret = real_fread_unlocked_chk(p, len, size, n, f);
    double t1 = iol_now();
    stdio_note_read(s, (int64_t)(ret * size), t0, t1);
    return ret;
}

IOL_EXPORT size_t fwrite(const void *p, size_t size, size_t n, FILE *f)
{
    struct stdio_stream *s;
    if (!iol_active() || !(s = iol_stdio_stream(f)))
        return real_fwrite(p, size, n, f);
    double t0 = iol_now();
    size_t ret = real_fwrite(p, size, n, f);
    double t1 = iol_now();
    stdio_note_write(s, (int64_t)(ret * size), t0, t1);
    return ret;
}

IOL_EXPORT size_t fwrite_unlocked(const void *p, size_t size, size_t n, FILE *f)
{
    struct stdio_stream *s;
    if (!iol_active() || !(s = iol_stdio_stream(f)))
        return real_fwrite_unlocked(p, size, n, f);
    double t0 = iol_now();
    size_t ret = real_fwrite_unlocked(p, size, n, f);
    double t1 = iol_now();
    stdio_note_write(s, (int64_t)(ret * size), t0, t1);
    return ret;
}

IOL_EXPORT int fgetc(FILE *f)
{
    struct stdio_stream *s;
    if (!iol_active() || !(s = iol_stdio_stream(f)))
        return real_fgetc(f);
    double t0 = iol_now();
    int ret = real_fgetc(f);
    double t1 = iol_now();
    stdio_note_read(s, ret != EOF, t0, t1);
    return ret;
}

IOL_EXPORT int fgetc_unlocked(FILE *f)
{
    struct stdio_stream *s;
    if (!iol_active() || !(s = iol_stdio_stream(f)))
        return real_fgetc_unlocked(f);
    double t0 = iol_now();
    int ret = real_fgetc_unlocked(f);
    double t1 = iol_now();
    stdio_note_read(s, ret != EOF, t0, t1);
    return ret;
}

IOL_EXPORT int getc(FILE *f)
{
    struct stdio_stream *s;
    if (!iol_active() || !(s = iol_stdio_stream(f)))
        return real_getc(f);
    double t0 = iol_now();
    int ret = real_getc(f);
    double t1 = iol_now();
    stdio_note_read(s, ret != EOF, t0, t1);
    return ret;
}

IOL_EXPORT int getc_unlocked(FILE *f)
{
    struct stdio_stream *s;
    if (!iol_active() || !(s = iol_stdio_stream(f)))
        return real_getc_unlocked(f);
    double t0 = iol_now();
    int ret = real_getc_unlocked(f);
    double t1 = iol_now();
    stdio_note_read(s, ret != EOF, t0, t1);
    return ret;
}

IOL_EXPORT int _IO_getc(FILE *f)
{
    struct stdio_stream *s;
    if (!iol_active() || !(s = iol_stdio_stream(f)))
        return real_IO_getc(f);
    double t0 = iol_now();
    int ret = real_IO_getc(f);
    double t1 = iol_now();
    stdio_note_read(s, ret != EOF, t0, t1);
    return ret;
}

IOL_EXPORT int getchar(void)
{
    struct stdio_stream *s;
    if (!iol_active() || !(s = iol_stdio_stream(stdin)))
        return real_getchar();
    double t0 = iol_now();
    int ret = real_getchar();
    double t1 = iol_now();
    stdio_note_read(s, ret != EOF, t0, t1);
    return ret;
}

IOL_EXPORT int getchar_unlocked(void)
{
    struct stdio_stream *s;
    if (!iol_active() || !(s = iol_stdio_stream(stdin)))
        return real_getchar_unlocked();
    double t0 = iol_now();
    int ret = real_getchar_unlocked();
    double t1 = iol_now();
    stdio_note_read(s, ret != EOF, t0, t1);
    return ret;
}

IOL_EXPORT int fputc(int c, FILE *f)
{
    struct stdio_stream *s;
    if (!iol_active() || !(s = iol_stdio_stream(f)))
        return real_fputc(c, f);
    double t0 = iol_now();
    int ret = real_fputc(c, f);
    double t1 = iol_now();
    stdio_note_write(s, ret != EOF, t0, t1);
    return ret;
}

IOL_EXPORT int fputc_unlocked(int c, FILE *f)
{
    struct stdio_stream *s;
    if (!iol_active() || !(s = iol_stdio_stream(f)))
        return real_fputc_unlocked(c, f);
    double t0 = iol_now();
    int ret = real_fputc_unlocked(c, f);
    double t1 = iol_now();
    stdio_note_write(s, ret != EOF, t0, t1);
    return ret;
}

IOL_EXPORT int putc(int c, FILE *f)
{
    struct stdio_stream *s;
    if (!iol_active() || !(s = iol_stdio_stream(f)))
        return real_putc(c, f);
    double t0 = iol_now();
    int ret = real_putc(c, f);
    double t1 = iol_now();
    stdio_note_write(s, ret != EOF, t0, t1);
    return ret;
}

IOL_EXPORT int putc_unlocked(int c, FILE *f)
{
    struct stdio_stream *s;
    if (!iol_active() || !(s = iol_stdio_stream(f)))
        return real_putc_unlocked(c, f);
    double t0 = iol_now();
    int ret = real_putc_unlocked(c, f);
    double t1 = iol_now();
    stdio_note_write(s, ret != EOF, t0, t1);
    return ret;
}

IOL_EXPORT int _IO_putc(int c, FILE *f)
{
    struct stdio_stream *s;
    if (!iol_active() || !(s = iol_stdio_stream(f)))
        return real_IO_putc(c, f);
    double t0 = iol_now();
    int ret = real_IO_putc(c, f);
    double t1 = iol_now();
    stdio_note_write(s, ret != EOF, t0, t1);
    return ret;
}

IOL_EXPORT int putchar(int c)
{
    struct stdio_stream *s;
    if (!iol_active() || !(s = iol_stdio_stream(stdout)))
        return real_putchar(c);
    double t0 = iol_now();
    int ret = real_putchar(c);
    double t1 = iol_now();
    stdio_note_write(s, ret != EOF, t0, t1);
    return ret;
}

IOL_EXPORT int putchar_unlocked(int c)
{
    struct stdio_stream *s;
    if (!iol_active() || !(s = iol_stdio_stream(stdout)))
        return real_putchar_unlocked(c);
    double t0 = iol_now();
    int ret = real_putchar_unlocked(c);
    double t1 = iol_now();
    stdio_note_write(s, ret != EOF, t0, t1);
    return ret;
}

IOL_EXPORT char *fgets(char *buf, int n, FILE *f)
{
    struct stdio_stream *s;
    if (!iol_active() || !(s = iol_stdio_stream(f)))
        return real_fgets(buf, n, f);
    double t0 = iol_now();
    char *ret = real_fgets(buf, n, f);
    double t1 = iol_now();
    stdio_note_read(s, ret ? (int64_t)strlen(ret) : 0, t0, t1);
    return ret;
}

IOL_EXPORT char *fgets_unlocked(char *buf, int n, FILE *f)
{
    struct stdio_stream *s;
    if (!iol_active() || !(s = iol_stdio_stream(f)))
        return real_fgets_unlocked(buf, n, f);
    double t0 = iol_now();
    char *ret = real_fgets_unlocked(buf, n, f);
    double t1 = iol_now();
    stdio_note_read(s, ret ? (int64_t)strlen(ret) : 0, t0, t1);
    return ret;
}

IOL_EXPORT char *__fgets_chk(char *buf, size_t len, int n, FILE *f)
{
    struct stdio_stream *s;
    if (!iol_active() || !(s = iol_stdio_stream(f)))
        return real_fgets_chk(buf, len, n, f);
    double t0 = iol_now();
    char *ret = real_fgets_chk(buf, len, n, f);
    double t1 = iol_now();
    stdio_note_read(s, ret ? (int64_t)strlen(ret) : 0, t0, t1);
    return ret;
}

IOL_EXPORT char *__fgets_unlocked_chk(char *buf, size_t len, int n, FILE *f)
{
    struct stdio_stream *s;
    if (!iol_active() || !(s = iol_stdio_stream(f)))
        return real_fgets_unlocked_chk(buf, len, n, f);
    double t0 = iol_now();
    char *ret = real_fgets_unlocked_chk(buf, len, n, f);
    double t1 = iol_now();
    stdio_note_read(s, ret ? (int64_t)strlen(ret) : 0, t0, t1);
    return ret;
}

IOL_EXPORT int fputs(const char *str, FILE *f)
{
    struct stdio_stream *s;
    if (!iol_active() || !(s = iol_stdio_stream(f)))
        return real_fputs(str, f);
    double t0 = iol_now();
    int ret = real_fputs(str, f);
    double t1 = iol_now();
    stdio_note_write(s, ret >= 0 ? (int64_t)strlen(str) : 0, t0, t1);
    return ret;
}

IOL_EXPORT int fputs_unlocked(const char *str, FILE *f)
{
    struct stdio_stream *s;
    if (!iol_active() || !(s = iol_stdio_stream(f)))
        return real_fputs_unlocked(str, f);
    double t0 = iol_now();
    int ret = real_fputs_unlocked(str, f);
    double t1 = iol_now();
    stdio_note_write(s, ret >= 0 ? (int64_t)strlen(str) : 0, t0, t1);
    return ret;
}

IOL_EXPORT int puts(const char *str)
{
    struct stdio_stream *s;
    if (!iol_active() || !(s = iol_stdio_stream(stdout)))
        return real_puts(str);
    double t0 = iol_now();
    int ret = real_puts(str);
    double t1 = iol_now();
    stdio_note_write(s, ret >= 0 ? (int64_t)strlen(str) + 1 : 0, t0, t1);
    return ret;
}

IOL_EXPORT int putw(int w, FILE *f)
{
    struct stdio_stream *s;
    if (!iol_active() || !(s = iol_stdio_stream(f)))
        return real_putw(w, f);
    double t0 = iol_now();
    int ret = real_putw(w, f);
    double t1 = iol_now();
    stdio_note_write(s, ret == 0 ? (int64_t)sizeof(int) : 0, t0, t1);
    return ret;
}

IOL_EXPORT int getw(FILE *f)
{
    struct stdio_stream *s;
    if (!iol_active() || !(s = iol_stdio_stream(f)))
        return real_getw(f);
    double t0 = iol_now();
    int ret = real_getw(f);
    double t1 = iol_now();
    stdio_note_read(s, getw_bytes(ret, f), t0, t1);
    return ret;
}

IOL_EXPORT ssize_t getline(char **line, size_t *cap, FILE *f)
{
    struct stdio_stream *s;
    if (!iol_active() || !(s = iol_stdio_stream(f)))
        return real_getline(line, cap, f);
    double t0 = iol_now();
    ssize_t ret = real_getline(line, cap, f);
    double t1 = iol_now();
    stdio_note_read(s, ret > 0 ? ret : 0, t0, t1);
    return ret;
}

IOL_EXPORT ssize_t getdelim(char **line, size_t *cap, int delim, FILE *f)
{
    struct stdio_stream *s;
    if (!iol_active() || !(s = iol_stdio_stream(f)))
        return real_getdelim(line, cap, delim, f);
    double t0 = iol_now();
    ssize_t ret = real_getdelim(line, cap, delim, f);
    double t1 = iol_now();
    stdio_note_read(s, ret > 0 ? ret : 0, t0, t1);
    return ret;
}

IOL_EXPORT ssize_t __getdelim(char **line, size_t *cap, int delim, FILE *f)
{
    struct stdio_stream *s;
    if (!iol_active() || !(s = iol_stdio_stream(f)))
        return real_getdelim_internal(line, cap, delim, f);
    double t0 = iol_now();
    ssize_t ret = real_getdelim_internal(line, cap, delim, f);
    double t1 = iol_now();
    stdio_note_read(s, ret > 0 ? ret : 0, t0, t1);
    return ret;
}

/* ungetc counts nothing, but the next read starts one byte earlier. */
IOL_EXPORT int ungetc(int c, FILE *f)
{
    struct stdio_stream *s;
    if (!iol_active() || !(s = iol_stdio_stream(f)))
        return real_ungetc(c, f);
    int ret = real_ungetc(c, f);
    if (ret != EOF)
        stdio_note_unget(s);
    return ret;
}

static const struct iol_binding bindings[] = {
    {"fread", (void *)fread, (void **)&real_fread},
    {"fread_unlocked", (void *)fread_unlocked, (void **)&real_fread_unlocked},
    {"__fread_chk", (void *)__fread_chk, (void **)&real_fread_chk},
    {"__fread_unlocked_chk", (void *)__fread_unlocked_chk, (void **)&real_fread_unlocked_chk},
    {"fwrite", (void *)fwrite, (void **)&real_fwrite},
    {"fwrite_unlocked", (void *)fwrite_unlocked, (void **)&real_fwrite_unlocked},
    {"fgetc", (void *)fgetc, (void **)&real_fgetc},
    {"fgetc_unlocked", (void *)fgetc_unlocked, (void **)&real_fgetc_unlocked},
    {"getc", (void *)getc, (void **)&real_getc},
    {"getc_unlocked", (void *)getc_unlocked, (void **)&real_getc_unlocked},
    {"_IO_getc", (void *)_IO_getc, (void **)&real_IO_getc},
    {"getchar", (void *)getchar, (void **)&real_getchar},
    {"getchar_unlocked", (void *)getchar_unlocked, (void **)&real_getchar_unlocked},
    {"fputc", (void *)fputc, (void **)&real_fputc},
    {"fputc_unlocked", (void *)fputc_unlocked, (void **)&real_fputc_unlocked},
    {"putc", (void *)putc, (void **)&real_putc},
    {"putc_unlocked", (void *)putc_unlocked, (void **)&real_putc_unlocked},
    {"_IO_putc", (void *)_IO_putc, (void **)&real_IO_putc},
    {"putchar", (void *)putchar, (void **)&real_putchar},
    {"putchar_unlocked", (void *)putchar_unlocked, (void **)&real_putchar_unlocked},
    {"fgets", (void *)fgets, (void **)&real_fgets},
    {"fgets_unlocked", (void *)fgets_unlocked, (void **)&real_fgets_unlocked},
    {"__fgets_chk", (void *)__fgets_chk, (void **)&real_fgets_chk},
    {"__fgets_unlocked_chk", (void *)__fgets_unlocked_chk, (void **)&real_fgets_unlocked_chk},
    {"fputs", (void *)fputs, (void **)&real_fputs},
    {"fputs_unlocked", (void *)fputs_unlocked, (void **)&real_fputs_unlocked},
    {"puts", (void *)puts, (void **)&real_puts},
    {"putw", (void *)putw, (void **)&real_putw},
    {"getw", (void *)getw, (void **)&real_getw},
    {"getline", (void *)getline, (void **)&real_getline},
    {"getdelim", (void *)getdelim, (void **)&real_getdelim},
    {"__getdelim", (void *)__getdelim, (void **)&real_getdelim_internal},
    {"ungetc", (void *)ungetc, (void **)&real_ungetc},
};

const struct iol_binding_table iol_stdio_rw_bindings = {
    bindings, sizeof(bindings) / sizeof(bindings[0]),
};
