/* iolens collect --from file:DIR: the JSON lines the runtime's file sink
 * writes, one file per process, followed as they grow (like tail -F: a file
 * replaced by another of the same name, or truncated, is read from its
 * start). Where each file was read to is saved with the events it gave, in
 * the same transaction, so a restarted collect stores nothing twice. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "collect.h"

/* Bytes read from one file per poll, so that one busy file does not hold up
 * the commit of the others. */
#define READ_PER_POLL (4 << 20)

struct followed {
    char *path;
    ino_t ino;
    off_t pos;     /* after the last complete line stored */
    off_t saved;   /* pos as the database has it */
};

struct file_source {
    char *path;
    int is_dir;
    struct followed *f;
    size_t n, cap;
    char *buf;
    size_t bufcap;
};

struct file_source *file_source_open(const char *path, char *why, size_t whylen)
{
    struct stat st;
    if (stat(path, &st) != 0) {
        snprintf(why, whylen, "%s: %s", path, strerror(errno));
        return NULL;
    }
    if (!S_ISDIR(st.st_mode) && !S_ISREG(st.st_mode)) {
        snprintf(why, whylen, "%s: neither a directory nor a regular file", path);
        return NULL;
    }
    struct file_source *s = calloc(1, sizeof(*s));
    if (!s || !(s->path = strdup(path))) {
        free(s);
        snprintf(why, whylen, "out of memory");
        return NULL;
    }
    s->is_dir = S_ISDIR(st.st_mode);
    return s;
}

/* The followed file of path, added (with its saved position) when new.
 * @return it, or NULL (db_error says why, or memory ran out). */
static struct followed *follow(struct file_source *s, struct db *db, const char *path,
                               ino_t ino)
{
    for (size_t i = 0; i < s->n; i++)
        if (!strcmp(s->f[i].path, path))
            return &s->f[i];
    if (s->n == s->cap) {
        size_t ncap = s->cap ? 2 * s->cap : 16;
        struct followed *f = realloc(s->f, ncap * sizeof(*f));
        if (!f)
            return NULL;
        s->f = f;
        s->cap = ncap;
    }
    struct followed *f = &s->f[s->n];
    int64_t pos = 0;
    struct db_val key[] = {DB_S(path), DB_I((int64_t)ino)};
    if (!(f->path = strdup(path)) || db_query_int(db, DB_OFFSET_GET, key, 2, &pos) < 0) {
        free(f->path);
        return NULL;
    }
    f->ino = ino;
    f->pos = f->saved = (off_t)pos;
    s->n++;
    return f;
}

/* Store the complete lines f gained. @return the lines, or -1 (database). */
static long read_lines(struct file_source *s, struct collector *c, struct followed *f,
                       const struct stat *st)
{
    if (st->st_ino != f->ino || st->st_size < f->pos) {
        f->ino = st->st_ino; /* replaced or truncated: a new file */
        f->pos = 0;
    }
    if (st->st_size == f->pos)
        return 0;
    int fd = open(f->path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return 0; /* gone meanwhile: seen at the next scan */
    size_t want = (size_t)(st->st_size - f->pos);
    want = want > READ_PER_POLL ? READ_PER_POLL : want;
    if (s->bufcap < want) {
        char *b = realloc(s->buf, want);
        if (!b) {
            close(fd);
            return db_fail(c->db, "out of memory");
        }
        s->buf = b;
        s->bufcap = want;
    }
    ssize_t got = pread(fd, s->buf, want, f->pos);
    close(fd);
    long lines = 0;
    size_t at = 0;
    for (ssize_t i = 0; i < got; i++) {
        if (s->buf[i] != '\n')
            continue;
        char where[4200];
        snprintf(where, sizeof(where), "%s@%jd", f->path, (intmax_t)(f->pos + (off_t)at));
        if (collect_message(c, s->buf + at, (size_t)i - at, where) < 0)
            return -1;
        lines++;
        at = (size_t)i + 1;
    }
    /* a line longer than a whole read has no end in sight: skip what was read */
    if (at == 0 && got == READ_PER_POLL) {
        char where[4200];
        snprintf(where, sizeof(where), "%s@%jd", f->path, (intmax_t)f->pos);
        c->malformed++;
        cli_error(where, "malformed message skipped: longer than %d bytes", READ_PER_POLL);
        at = (size_t)got;
    }
    f->pos += (off_t)at;
    return lines;
}

static int is_events_file(const char *name)
{
    size_t n = strlen(name);
    return name[0] != '.' && n > 6 && !strcmp(name + n - 6, ".jsonl");
}

long file_source_poll(struct file_source *s, struct collector *c)
{
    long total = 0;
    struct stat st;
    if (!s->is_dir) {
        struct followed *f;
        if (stat(s->path, &st) != 0)
            return 0;
        if (!(f = follow(s, c->db, s->path, st.st_ino)))
            return -1;
        return read_lines(s, c, f, &st);
    }
    DIR *d = opendir(s->path);
    struct dirent *e;
    if (!d)
        return 0; /* the directory may come back */
    while ((e = readdir(d))) {
        char path[4096];
        struct followed *f;
        if (!is_events_file(e->d_name) ||
            snprintf(path, sizeof(path), "%s/%s", s->path, e->d_name) >= (int)sizeof(path) ||
            stat(path, &st) != 0 || !S_ISREG(st.st_mode))
            continue;
        long n = -1;
        if ((f = follow(s, c->db, path, st.st_ino)))
            n = read_lines(s, c, f, &st);
        if (n < 0) {
            closedir(d);
            return -1;
        }
        total += n;
    }
    closedir(d);
    return total;
}

int file_source_save(void *arg, struct db *db)
{
    struct file_source *s = arg;
    for (size_t i = 0; i < s->n; i++) {
        struct followed *f = &s->f[i];
        if (f->pos == f->saved)
            continue;
        struct db_val v[] = {DB_S(f->path), DB_I((int64_t)f->ino), DB_I((int64_t)f->pos)};
        if (db_run(db, DB_OFFSET_SET, v, 3) < 0)
            return -1;
        f->saved = f->pos;
    }
    return 0;
}

void file_source_close(struct file_source *s)
{
    if (!s)
        return;
    for (size_t i = 0; i < s->n; i++)
        free(s->f[i].path);
    free(s->f);
    free(s->buf);
    free(s->path);
    free(s);
}
