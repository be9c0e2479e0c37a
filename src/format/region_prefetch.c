/* Decompressing a large region on a second thread. The thread fills a small
 * ring of chunks with iol_region_read_direct while the caller decodes records
 * from the previous chunk; only chunk hand-overs synchronise, never records. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "region.h"

#define CHUNK_BYTES (256 * 1024)
#define NCHUNKS 3

struct chunk {
    unsigned char *data;
    size_t len;
    iolens_status st;
    int full;
    int last;   /* the region ends with this chunk (short read or error) */
};

struct iol_prefetch {
    pthread_t thread;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    struct chunk chunks[NCHUNKS];
    unsigned head;  /* chunk the reader takes from */
    size_t pos;     /* bytes of it already taken */
    int stop;
    int done;       /* the reader has seen the last chunk */
    iolens_status final_st; /* what the last chunk ended with, given to every later read */
};

static void *produce(void *arg)
{
    struct iolens_region *rg = arg;
    struct iol_prefetch *pf = rg->pf;
    for (unsigned i = 0;; i = (i + 1) % NCHUNKS) {
        struct chunk *c = &pf->chunks[i];
        pthread_mutex_lock(&pf->mu);
        while (c->full && !pf->stop)
            pthread_cond_wait(&pf->cv, &pf->mu);
        int stop = pf->stop;
        pthread_mutex_unlock(&pf->mu);
        if (stop)
            return NULL;

        size_t got = 0;
        iolens_status st = iol_region_read_direct(rg, c->data, CHUNK_BYTES, &got);

        pthread_mutex_lock(&pf->mu);
        c->len = st == IOLENS_OK ? got : 0;
        c->st = st;
        c->last = st != IOLENS_OK || got < CHUNK_BYTES;
        c->full = 1;
        pthread_cond_broadcast(&pf->cv);
        pthread_mutex_unlock(&pf->mu);
        if (c->last)
            return NULL;
    }
}

void iol_prefetch_start(struct iolens_region *rg)
{
    struct iol_prefetch *pf = calloc(1, sizeof(*pf));
    if (!pf)
        return;
    for (int i = 0; i < NCHUNKS; i++) {
        pf->chunks[i].data = malloc(CHUNK_BYTES);
        if (!pf->chunks[i].data)
            goto fail;
    }
    pthread_mutex_init(&pf->mu, NULL);
    pthread_cond_init(&pf->cv, NULL);
    rg->pf = pf;
    if (pthread_create(&pf->thread, NULL, produce, rg) != 0) {
        pthread_mutex_destroy(&pf->mu);
        pthread_cond_destroy(&pf->cv);
        rg->pf = NULL;
        goto fail;
    }
    return;
fail:
    for (int i = 0; i < NCHUNKS; i++)
        free(pf->chunks[i].data);
    free(pf);
}

iolens_status iol_prefetch_read(struct iolens_region *rg, void *buf, size_t n, size_t *got)
{
    struct iol_prefetch *pf = rg->pf;
    unsigned char *out = buf;
    size_t done = 0;
    iolens_status st = IOLENS_OK;

    pthread_mutex_lock(&pf->mu);
    if (pf->done)
        st = pf->final_st;
    while (done < n && !pf->done) {
        struct chunk *c = &pf->chunks[pf->head];
        while (!c->full)
            pthread_cond_wait(&pf->cv, &pf->mu);
        size_t take = c->len - pf->pos;
        if (take > n - done)
            take = n - done;
        memcpy(out + done, c->data + pf->pos, take);
        done += take;
        pf->pos += take;
        if (pf->pos < c->len)
            continue;
        if (c->last) {
            pf->done = 1;
            pf->final_st = st = c->st;
            break;
        }
        c->full = 0;
        pf->pos = 0;
        pf->head = (pf->head + 1) % NCHUNKS;
        pthread_cond_broadcast(&pf->cv);
    }
    pthread_mutex_unlock(&pf->mu);
    *got = done;
    return st;
}

void iol_prefetch_stop(struct iolens_region *rg)
{
    struct iol_prefetch *pf = rg->pf;
    if (!pf)
        return;
    pthread_mutex_lock(&pf->mu);
    pf->stop = 1;
    pthread_cond_broadcast(&pf->cv);
    pthread_mutex_unlock(&pf->mu);
    pthread_join(pf->thread, NULL);
    pthread_mutex_destroy(&pf->mu);
    pthread_cond_destroy(&pf->cv);
    for (int i = 0; i < NCHUNKS; i++)
        free(pf->chunks[i].data);
    free(pf);
    rg->pf = NULL;
}
