/* A pool of threads compressing the chunks of one large region, each chunk
 * its own zlib stream, written out in input order (see region_par.h).
 *
 * Chunks live in a ring of slots, numbered by sequence: chunk s uses slot
 * s % nslots. Counters under the lock: `submitted` chunks queued, `taken` of
 * them claimed by a thread, `flushed` of them written out. A slot is free when
 * its chunk has been flushed. Only the submitting thread writes output, so
 * output needs no lock; workers only compress. */
#include "region_par.h"

#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define ZLIB_LEVEL Z_DEFAULT_COMPRESSION /* what Darshan's runtime writes (6) */
#define WORKER_STACK ((size_t)1 << 20) /* deflate needs little; static TLS comes out of it */

enum slot_state { SLOT_FREE, SLOT_QUEUED, SLOT_BUSY, SLOT_DONE };

struct par_slot {
    unsigned char *in;   /* chunk bytes of input, owned by the slot while queued */
    size_t in_len;
    unsigned char *out;  /* the compressed stream */
    size_t out_len;
    size_t out_cap;
    int tune;            /* search tuned for records (iol_par_tune) */
    enum slot_state state;
    iolens_status st;
};

struct iol_par {
    pthread_mutex_t mu;
    pthread_cond_t work;            /* a chunk was queued, or stop */
    pthread_cond_t done;            /* a chunk was compressed */
    size_t chunk;
    size_t nslots;
    struct par_slot slot[IOL_PAR_MAX_THREADS + 1];
    uint64_t submitted, taken, flushed;
    iolens_status failed;           /* first error since the pool started */
    int stop;
    int nworkers;
    pthread_t tid[IOL_PAR_MAX_THREADS];
    z_stream zs[IOL_PAR_MAX_THREADS]; /* [0]: the submitter's; [i + 1]: worker i's */
    int zs_ready;                   /* streams initialised */
    iol_par_emit_fn emit;
    void *arg;
};

struct worker_arg {
    struct iol_par *p;
    z_stream *z;
};

int iol_par_tune(z_stream *z)
{
    /* good_length, max_lazy, nice_length, max_chain (level 6: 8, 16, 128, 128). */
    return deflateTune(z, 32, 258, 258, 32);
}

int iol_par_auto_threads(void)
{
    cpu_set_t set;
    int n = 1;
    if (sched_getaffinity(0, sizeof(set), &set) == 0)
        n = CPU_COUNT(&set);
    if (n < 1)
        n = 1;
    return n > IOL_PAR_MAX_THREADS ? IOL_PAR_MAX_THREADS : n;
}

/* Compress one slot's input into one complete stream, on z. */
static iolens_status compress_slot(z_stream *z, struct par_slot *s)
{
    size_t need = compressBound((uLong)s->in_len);
    if (s->out_cap < need) {
        unsigned char *o = realloc(s->out, need);
        if (!o)
            return IOLENS_ERR_NOMEM;
        s->out = o;
        s->out_cap = need;
    }
    if (deflateReset(z) != Z_OK || (s->tune && iol_par_tune(z) != Z_OK))
        return IOLENS_ERR_COMPRESSION;
    z->next_in = s->in;
    z->avail_in = (uInt)s->in_len;
    z->next_out = s->out;
    z->avail_out = (uInt)s->out_cap;
    if (deflate(z, Z_FINISH) != Z_STREAM_END)
        return IOLENS_ERR_COMPRESSION;
    s->out_len = s->out_cap - z->avail_out;
    return IOLENS_OK;
}

/* Claim the oldest queued chunk and compress it with z; lock held on entry
 * and on return, released while compressing. */
static void compress_next_locked(struct iol_par *p, z_stream *z)
{
    struct par_slot *s = &p->slot[p->taken % p->nslots];
    p->taken++;
    s->state = SLOT_BUSY;
    pthread_mutex_unlock(&p->mu);
    iolens_status st = compress_slot(z, s);
    pthread_mutex_lock(&p->mu);
    s->st = st;
    s->state = SLOT_DONE;
    pthread_cond_broadcast(&p->done);
}

static void *worker(void *varg)
{
    struct worker_arg *a = varg;
    struct iol_par *p = a->p;
    z_stream *z = a->z;

    free(a);
    pthread_mutex_lock(&p->mu);
    for (;;) {
        while (!p->stop && p->taken == p->submitted)
            pthread_cond_wait(&p->work, &p->mu);
        if (p->stop)
            break;
        compress_next_locked(p, z);
    }
    pthread_mutex_unlock(&p->mu);
    return NULL;
}

/* Write out, in order, every chunk that is done; lock held, released while
 * writing (a done slot is touched by this thread only). */
static void flush_done_locked(struct iol_par *p)
{
    while (p->flushed < p->submitted) {
        struct par_slot *s = &p->slot[p->flushed % p->nslots];
        if (s->state != SLOT_DONE)
            break;
        iolens_status st = s->st;
        if (st == IOLENS_OK && p->failed == IOLENS_OK) {
            pthread_mutex_unlock(&p->mu);
            st = p->emit(p->arg, s->out, s->out_len);
            pthread_mutex_lock(&p->mu);
        }
        if (st != IOLENS_OK && p->failed == IOLENS_OK)
            p->failed = st;
        s->state = SLOT_FREE;
        p->flushed++;
    }
}

/* Make progress while waiting: write what is done, else compress a queued
 * chunk here, else sleep until a worker finishes one. Lock held. */
static void progress_locked(struct iol_par *p)
{
    uint64_t before = p->flushed;
    flush_done_locked(p);
    if (p->flushed != before)
        return;
    if (p->taken < p->submitted)
        compress_next_locked(p, &p->zs[0]);
    else
        pthread_cond_wait(&p->done, &p->mu);
}

iolens_status iol_par_submit(struct iol_par *p, unsigned char **buf, size_t len, int tune)
{
    pthread_mutex_lock(&p->mu);
    while (p->submitted - p->flushed >= p->nslots)
        progress_locked(p);
    struct par_slot *s = &p->slot[p->submitted % p->nslots];
    unsigned char *spare = s->in;
    s->in = *buf;
    s->in_len = len;
    s->tune = tune;
    s->state = SLOT_QUEUED;
    p->submitted++;
    pthread_cond_signal(&p->work);
    flush_done_locked(p);
    iolens_status st = p->failed;
    pthread_mutex_unlock(&p->mu);

    if (!spare)
        spare = malloc(p->chunk);
    *buf = spare;
    if (!spare)
        return IOLENS_ERR_NOMEM; /* the caller's buffer is gone: it must stop */
    return st;
}

iolens_status iol_par_drain(struct iol_par *p)
{
    pthread_mutex_lock(&p->mu);
    while (p->flushed < p->submitted)
        progress_locked(p);
    iolens_status st = p->failed;
    pthread_mutex_unlock(&p->mu);
    return st;
}

static iolens_status init_streams(struct iol_par *p, int n)
{
    for (int i = 0; i < n; i++) {
        if (deflateInit(&p->zs[i], ZLIB_LEVEL) != Z_OK)
            return IOLENS_ERR_NOMEM;
        p->zs_ready = i + 1;
    }
    return IOLENS_OK;
}

/* Start worker i; signals stay blocked in it. @return 0 or an errno. */
static int start_worker(struct iol_par *p, int i)
{
    pthread_attr_t attr;
    sigset_t all, old;
    struct worker_arg *a = malloc(sizeof(*a));
    int rc;

    if (!a)
        return -1;
    *a = (struct worker_arg){p, &p->zs[i + 1]};
    if (pthread_attr_init(&attr) != 0) {
        free(a);
        return -1;
    }
    pthread_attr_setstacksize(&attr, WORKER_STACK);
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    rc = pthread_create(&p->tid[i], &attr, worker, a);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    pthread_attr_destroy(&attr);
    if (rc != 0)
        free(a);
    return rc;
}

iolens_status iol_par_create(int nthreads, size_t chunk, iol_par_emit_fn emit, void *arg,
                             struct iol_par **out)
{
    struct iol_par *p;

    *out = NULL;
    if (nthreads < 2 || nthreads > IOL_PAR_MAX_THREADS || !chunk || !emit)
        return IOLENS_ERR_ARGUMENT;
    if (!(p = calloc(1, sizeof(*p))))
        return IOLENS_ERR_NOMEM;
    p->chunk = chunk;
    p->nslots = (size_t)nthreads + 1; /* one chunk per thread, one more waiting */
    p->emit = emit;
    p->arg = arg;
    if (pthread_mutex_init(&p->mu, NULL) != 0) {
        free(p);
        return IOLENS_ERR_NOMEM;
    }
    pthread_cond_init(&p->work, NULL);
    pthread_cond_init(&p->done, NULL);
    if (init_streams(p, nthreads) != IOLENS_OK) {
        iol_par_free(p);
        return IOLENS_ERR_NOMEM;
    }
    for (int i = 0; i < nthreads - 1; i++) {
        if (start_worker(p, i) != 0)
            break; /* fewer workers: the submitter does the rest */
        p->nworkers++;
    }
    if (p->nworkers == 0) {
        iol_par_free(p);
        return IOLENS_ERR_NOMEM;
    }
    *out = p;
    return IOLENS_OK;
}

void iol_par_free(struct iol_par *p)
{
    if (!p)
        return;
    pthread_mutex_lock(&p->mu);
    p->stop = 1;
    pthread_cond_broadcast(&p->work);
    pthread_mutex_unlock(&p->mu);
    for (int i = 0; i < p->nworkers; i++)
        pthread_join(p->tid[i], NULL);
    for (int i = 0; i < p->zs_ready; i++)
        deflateEnd(&p->zs[i]);
    for (size_t i = 0; i < p->nslots; i++) {
        free(p->slot[i].in);
        free(p->slot[i].out);
    }
    pthread_cond_destroy(&p->work);
    pthread_cond_destroy(&p->done);
    pthread_mutex_destroy(&p->mu);
    free(p);
}
