/* The DXT timeline (include/iolens/analysis.h): one pass over the trace
 * modules keeps exact totals per lane (module, rank, thread) and a bounded
 * sample of the segments. Strided samples live in one buffer of twice the
 * budget; a lane whose stride grows leaves samples behind that no longer
 * fit it, and they are swept out (and offered to the slowest) when the
 * buffer fills, so each segment costs O(1) on average. The same pass adds
 * every segment's bytes into its module's heatmap grid. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "iolens/modules/dxt.h"
#include "analysis_internal.h"

struct build {
    struct iolens_dxt_timeline *t;
    size_t lanes_cap, max_lanes;
    size_t *slots;          /* 1 + lane index, 0 empty */
    size_t nslots;
    struct iolens_dxt_sample *buf; /* strided samples, some stale */
    size_t nbuf, buf_cap;
    int64_t kept;           /* strided samples the lanes' strides keep */
    int64_t limit;          /* M: strided samples one lane may keep */
    struct iolens_dxt_sample *slow; /* min-heap on duration */
    size_t nslow;
    size_t overflow;        /* index of the overflow lane, or SIZE_MAX */
    double run_time;        /* the heatmaps' span, seconds */
    int64_t nprocs;
};

static int64_t strided(const struct iolens_dxt_lane *l)
{
    return l->stride ? (l->segments + l->stride - 1) / l->stride : 0;
}

static double duration(const struct iolens_dxt_sample *s)
{
    return s->end - s->start;
}

/* Keep s among the slowest if it is slower than the fastest of them. */
static void offer_slow(struct build *b, const struct iolens_dxt_sample *s)
{
    size_t n = b->nslow, i = 0;
    if (b->t->max_slowest == 0)
        return;
    if (n < b->t->max_slowest) {
        for (i = b->nslow++; i > 0 && duration(&b->slow[(i - 1) / 2]) > duration(s); i = (i - 1) / 2)
            b->slow[i] = b->slow[(i - 1) / 2];
        b->slow[i] = *s;
        return;
    }
    if (duration(s) <= duration(&b->slow[0]))
        return;
    for (;;) { /* sift s down from the root */
        size_t c = 2 * i + 1;
        if (c >= n)
            break;
        if (c + 1 < n && duration(&b->slow[c + 1]) < duration(&b->slow[c]))
            c++;
        if (duration(&b->slow[c]) >= duration(s))
            break;
        b->slow[i] = b->slow[c];
        i = c;
    }
    b->slow[i] = *s;
}

static int fits_stride(const struct build *b, const struct iolens_dxt_sample *s)
{
    int64_t stride = b->t->lanes[s->lane].stride;
    return stride && s->seq % stride == 0;
}

/* Drop the samples their lane's stride no longer keeps (offered to the slowest). */
static void sweep(struct build *b)
{
    size_t n = 0;
    for (size_t i = 0; i < b->nbuf; i++) {
        if (fits_stride(b, &b->buf[i]))
            b->buf[n++] = b->buf[i];
        else
            offer_slow(b, &b->buf[i]);
    }
    b->nbuf = n;
}

/* Double a lane's stride until it keeps at most the limit. */
static void thin(struct build *b, struct iolens_dxt_lane *l)
{
    while (l->stride && strided(l) > b->limit) {
        b->kept -= strided(l);
        l->stride *= 2;
        b->kept += strided(l);
    }
}

/* Halve the per-lane limit until the lanes fit the budget (or it is 1). */
static void lower_limit(struct build *b)
{
    while (b->kept > (int64_t)b->t->max_segments && b->limit > 1) {
        b->limit /= 2;
        for (size_t i = 0; i < b->t->nlanes; i++)
            thin(b, &b->t->lanes[i]);
    }
}

static size_t lane_home(int mod, int64_t rank, uint64_t thread, size_t nslots)
{
    uint64_t h = ((uint64_t)mod * 0x9e3779b97f4a7c15ULL) ^ ((uint64_t)rank * 0xff51afd7ed558ccdULL) ^
                 (thread * 0xc4ceb9fe1a85ec53ULL);
    h ^= h >> 29;
    return (size_t)h & (nslots - 1);
}

static int same_lane(const struct iolens_dxt_lane *l, int mod, int64_t rank, uint64_t thread)
{
    return !l->overflow && l->mod_id == mod && l->rank == rank && l->thread_id == thread;
}

/* Add a lane at the end of the array. @return its index, or SIZE_MAX (no memory). */
static size_t new_lane(struct build *b, int mod, int64_t rank, uint64_t thread, int overflow)
{
    struct iolens_dxt_timeline *t = b->t;
    if (t->nlanes == b->lanes_cap) {
        size_t cap = b->lanes_cap ? 2 * b->lanes_cap : 64;
        void *p = realloc(t->lanes, cap * sizeof(*t->lanes));
        if (!p)
            return SIZE_MAX;
        t->lanes = p;
        b->lanes_cap = cap;
    }
    /* With more lanes than the budget, lanes that come once it is spent get no strided samples. */
    int full = b->limit == 1 && b->kept >= (int64_t)t->max_segments;
    t->lanes[t->nlanes] = (struct iolens_dxt_lane){.mod_id = mod, .overflow = overflow,
                                                   .rank = overflow ? -1 : rank,
                                                   .thread_id = overflow ? IOLENS_DXT_NO_THREAD : thread,
                                                   .stride = overflow || full ? 0 : 1};
    return t->nlanes++;
}

/* Double the lane map. @return 0, or -1 (no memory). */
static int grow_slots(struct build *b)
{
    size_t n = b->nslots ? 2 * b->nslots : 256;
    size_t *slots = calloc(n, sizeof(*slots));
    if (!slots)
        return -1;
    for (size_t i = 0; i < b->t->nlanes; i++) {
        const struct iolens_dxt_lane *l = &b->t->lanes[i];
        if (l->overflow)
            continue;
        size_t h = lane_home(l->mod_id, l->rank, l->thread_id, n);
        while (slots[h])
            h = (h + 1) & (n - 1);
        slots[h] = i + 1;
    }
    free(b->slots);
    b->slots = slots;
    b->nslots = n;
    return 0;
}

/* The lane of (mod, rank, thread), made when new. @return its index, or SIZE_MAX. */
static size_t lane_of(struct build *b, int mod, int64_t rank, uint64_t thread)
{
    if (2 * (b->t->nlanes + 1) > b->nslots && b->t->nlanes < b->max_lanes && grow_slots(b) < 0)
        return SIZE_MAX;
    size_t h = lane_home(mod, rank, thread, b->nslots);
    for (; b->slots[h]; h = (h + 1) & (b->nslots - 1))
        if (same_lane(&b->t->lanes[b->slots[h] - 1], mod, rank, thread))
            return b->slots[h] - 1;
    if (b->t->nlanes - (b->overflow != SIZE_MAX) >= b->max_lanes) {
        if (b->overflow == SIZE_MAX)
            b->overflow = new_lane(b, mod, rank, thread, 1);
        return b->overflow;
    }
    size_t i = new_lane(b, mod, rank, thread, 0);
    if (i != SIZE_MAX)
        b->slots[h] = i + 1;
    return i;
}

static void add_segment(struct build *b, size_t lane, struct iolens_dxt_sample *s)
{
    struct iolens_dxt_lane *l = &b->t->lanes[lane];
    double d = s->end - s->start;
    s->lane = (uint32_t)lane;
    s->seq = l->segments;
    if (l->segments == 0 || s->start < l->first_start)
        l->first_start = s->start;
    if (l->segments == 0 || s->end > l->last_end)
        l->last_end = s->end;
    l->segments++;
    l->busy += d > 0 ? d : 0;
    if (s->write) {
        l->writes++;
        l->bytes_written = iol_add(l->bytes_written, s->length > 0 ? s->length : 0);
    } else {
        l->reads++;
        l->bytes_read = iol_add(l->bytes_read, s->length > 0 ? s->length : 0);
    }
    b->t->segments++;
    if (!fits_stride(b, s)) {
        offer_slow(b, s);
        return;
    }
    b->kept++;
    if (b->nbuf == b->buf_cap)
        sweep(b);
    b->buf[b->nbuf++] = *s;
    thin(b, l);
    lower_limit(b);
}

/* ---- heatmaps ---- */

/* Start the grid of trace module mod (200 bins over the run time, rows as
 * the HEATMAP grid's). @return it, or NULL (no memory; freed with the timeline). */
static struct iolens_heatmap_grid *heat_start(struct build *b, int mod)
{
    struct iolens_dxt_heatmap *h = &b->t->heat[b->t->nheat++];
    h->mod_id = mod;
    return iol_heatmap_grid_shape(&h->grid, IOLENS_HEATMAP_MAX_BINS,
                                  b->run_time / IOLENS_HEATMAP_MAX_BINS, b->nprocs) == 0
               ? &h->grid
               : NULL;
}

/* The bin of time t: the first before the run, the last after it. */
static int heat_bin(const struct iolens_heatmap_grid *g, double t)
{
    double at = t / g->bin_seconds;
    if (!(at >= 0))
        return 0;
    return at < g->nbins ? (int)at : g->nbins - 1;
}

/* Bytes of the segment done by time t, rounded: length x the share of its
 * duration before t. Differences of these add up to the length exactly. */
static int64_t heat_done(const struct iolens_dxt_sample *s, double t)
{
    double share = (t - s->start) / (s->end - s->start);
    if (!(share > 0))
        return 0;
    return share < 1 ? (int64_t)llround((double)s->length * share) : s->length;
}

/* Spread the segment's bytes over the bins it spans, in proportion to its
 * time in each (all in its bin when it has no duration or a time is not finite). */
static void heat_add(struct iolens_heatmap_grid *g, int64_t rank, const struct iolens_dxt_sample *s)
{
    if (s->length <= 0)
        return;
    int64_t row = rank >= 0 ? rank / g->ranks_per_row : 0;
    row = row < g->nrows ? row : g->nrows - 1;
    int64_t *cells = (s->write ? g->written : g->read) + (size_t)row * (size_t)g->nbins;
    int first = heat_bin(g, s->start), last = heat_bin(g, s->end);
    if (!(s->end > s->start) || !isfinite(s->start) || !isfinite(s->end) || first == last) {
        cells[first] = iol_add(cells[first], s->length);
        return;
    }
    int64_t before = 0;
    for (int k = first; k <= last; k++) {
        int64_t done = k == last ? s->length : heat_done(s, (k + 1) * g->bin_seconds);
        cells[k] = iol_add(cells[k], done - before);
        before = done;
    }
}

/* Add one record's segments (and their bytes to heat, when not NULL). @return 0, or -1 (no memory). */
static int add_record(struct build *b, int mod, const struct iolens_dxt_record *rec,
                      struct iolens_heatmap_grid *heat)
{
    int64_t n = rec->write_count + rec->read_count;
    size_t lane = SIZE_MAX;
    uint64_t lane_thread = 0;
    for (int64_t i = 0; i < n; i++) {
        const struct iolens_dxt_segment *g = &rec->segments[i];
        if (lane == SIZE_MAX || g->thread_id != lane_thread) {
            if ((lane = lane_of(b, mod, rec->base.rank, g->thread_id)) == SIZE_MAX)
                return -1;
            lane_thread = g->thread_id;
        }
        struct iolens_dxt_sample s = {.write = i < rec->write_count, .file = rec->base.id,
                                      .offset = g->offset, .length = g->length,
                                      .start = g->start_time, .end = g->end_time};
        if (heat)
            heat_add(heat, rec->base.rank, &s);
        add_segment(b, lane, &s);
    }
    return 0;
}

static int by_lane_start(const void *pa, const void *pb)
{
    const struct iolens_dxt_sample *a = pa, *b = pb;
    if (a->lane != b->lane)
        return a->lane < b->lane ? -1 : 1;
    if (a->start != b->start)
        return a->start < b->start ? -1 : 1;
    return (a->seq > b->seq) - (a->seq < b->seq);
}

/* The kept samples, strided and slowest, into the timeline. @return 0, or -1. */
static int finish(struct build *b)
{
    struct iolens_dxt_timeline *t = b->t;
    sweep(b);
    t->nsamples = b->nbuf + b->nslow;
    if (t->nsamples && !(t->samples = malloc(t->nsamples * sizeof(*t->samples))))
        return -1;
    if (b->nbuf)
        memcpy(t->samples, b->buf, b->nbuf * sizeof(*b->buf));
    if (b->nslow)
        memcpy(t->samples + b->nbuf, b->slow, b->nslow * sizeof(*b->slow));
    if (t->nsamples)
        qsort(t->samples, t->nsamples, sizeof(*t->samples), by_lane_start);
    for (size_t i = 0; i < t->nsamples; i++)
        t->lanes[t->samples[i].lane].shown++;
    t->lane_limit = b->limit;
    return 0;
}

static iolens_status read_traces(struct build *b, iolens_log *log)
{
    const struct iolens_log_info *in = iolens_log_get_info(log);
    /* Darshan's run time, as iolens parse's header gives it; without a
     * span (a damaged log), 1 s. */
    double run_time = iolens_log_run_time(in);
    b->run_time = run_time > 0 && isfinite(run_time) ? run_time : 1;
    b->nprocs = in->job.nprocs;
    for (int id = 0; id < IOLENS_MAX_MODS; id++) {
        const struct iolens_module_desc *mod = iolens_module(id);
        const void *rec;
        struct iolens_heatmap_grid *heat = NULL;
        iolens_status st;
        if (!mod || !mod->trace || in->mod_map[id].len == 0)
            continue;
        b->t->present = 1;
        b->t->partial |= (int)(in->partial_flags >> id & 1);
        if (b->t->nheat < IOLENS_DXT_HEATMAPS && !(heat = heat_start(b, id)))
            return IOLENS_ERR_NOMEM;
        while ((st = iolens_log_next_record(log, id, &rec)) == IOLENS_OK)
            if (add_record(b, id, rec, heat) < 0)
                return IOLENS_ERR_NOMEM;
        if (st != IOLENS_END)
            return st;
    }
    return finish(b) < 0 ? IOLENS_ERR_NOMEM : IOLENS_OK;
}

iolens_status iolens_dxt_timeline_build(iolens_log *log, const struct iolens_dxt_options *opts,
                                        struct iolens_dxt_timeline **out)
{
    struct build b = {.overflow = SIZE_MAX};
    iolens_status st = IOLENS_ERR_NOMEM;

    *out = NULL;
    if (!(b.t = calloc(1, sizeof(*b.t))))
        return IOLENS_ERR_NOMEM;
    b.t->max_segments = opts && opts->max_segments ? opts->max_segments : IOLENS_DXT_DEFAULT_SEGMENTS;
    b.t->max_slowest = opts && opts->max_slowest ? opts->max_slowest : IOLENS_DXT_DEFAULT_SLOWEST;
    b.max_lanes = opts && opts->max_lanes ? opts->max_lanes : IOLENS_DXT_DEFAULT_LANES;
    b.limit = (int64_t)b.t->max_segments;
    b.buf_cap = 2 * b.t->max_segments;
    if ((b.buf = malloc(b.buf_cap * sizeof(*b.buf))) &&
        (b.slow = malloc(b.t->max_slowest * sizeof(*b.slow))))
        st = read_traces(&b, log);
    free(b.buf);
    free(b.slow);
    free(b.slots);
    if (st != IOLENS_OK) {
        iolens_dxt_timeline_free(b.t);
        return st;
    }
    *out = b.t;
    return IOLENS_OK;
}

void iolens_dxt_timeline_free(struct iolens_dxt_timeline *t)
{
    if (!t)
        return;
    free(t->lanes);
    free(t->samples);
    for (size_t i = 0; i < t->nheat; i++) {
        free(t->heat[i].grid.read);
        free(t->heat[i].grid.written);
    }
    free(t);
}
