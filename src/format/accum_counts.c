/* The accumulator's file counts by kind (accum_counts.h). */
#include <string.h>

#include "accum_counts.h"
#include "words.h"

void iol_counts_init(struct iol_file_counts *fc)
{
    memset(fc, 0, sizeof(*fc));
    for (int k = 0; k < IOLENS_FILE_KINDS; k++)
        fc->offsets[k].after_max = -1;
}

/* The kinds file fs counts in (ALL, its read/write kind if it moved bytes,
 * its sharing kind) into kinds. @return how many. */
static int kinds_of(const struct iol_file_sum *fs, int kinds[3])
{
    int n = 0;
    kinds[n++] = IOLENS_FILES_ALL;
    if (fs->read_bytes > 0 && fs->written_bytes == 0)
        kinds[n++] = IOLENS_FILES_READ_ONLY;
    else if (fs->written_bytes > 0 && fs->read_bytes == 0)
        kinds[n++] = IOLENS_FILES_WRITE_ONLY;
    else if (fs->written_bytes > 0 && fs->read_bytes > 0)
        kinds[n++] = IOLENS_FILES_READ_WRITE;
    kinds[n++] = fs->nprocs == 1    ? IOLENS_FILES_UNIQUE
                 : fs->nprocs == -1 ? IOLENS_FILES_SHARED
                                    : IOLENS_FILES_PART_SHARED;
    return n;
}

static void count_file(struct iolens_file_counts *c, struct iol_kind_offsets *o,
                       const struct iol_file_sum *fs, int64_t nprocs)
{
    c->count++;
    c->read_bytes = iol_add_wrap(c->read_bytes, fs->read_bytes);
    c->written_bytes = iol_add_wrap(c->written_bytes, fs->written_bytes);
    if (fs->read_bytes > c->max_read_bytes)
        c->max_read_bytes = fs->read_bytes;
    if (fs->written_bytes > c->max_written_bytes)
        c->max_written_bytes = fs->written_bytes;
    if (fs->max_offset == -1) {
        if (!o->resets++ || fs->first > o->last_reset)
            o->last_reset = fs->first;
    } else {
        c->total_max_offset = iol_add_wrap(c->total_max_offset, fs->max_offset);
        if (fs->max_offset > c->max_offset)
            c->max_offset = fs->max_offset;
    }
    /* A sum that reaches the job's ranks stays -1: the order does not matter. */
    if (fs->nprocs > 0 && c->nprocs > -1)
        c->nprocs = iol_add_wrap(c->nprocs, fs->nprocs);
    if (fs->nprocs < 0 || c->nprocs >= nprocs)
        c->nprocs = -1;
}

void iol_counts_add(struct iol_file_counts *fc, const struct iol_file_table *t, int64_t nprocs)
{
    int kinds[3];
    for (size_t i = 0; i < t->n; i++) {
        int n = kinds_of(&t->files[i], kinds);
        for (int j = 0; j < n; j++)
            count_file(&fc->kinds[kinds[j]], &fc->offsets[kinds[j]], &t->files[i], nprocs);
    }
}

int iol_counts_need_after(const struct iol_file_counts *fc)
{
    for (int k = 0; k < IOLENS_FILE_KINDS; k++)
        if (fc->offsets[k].resets > 0 && fc->offsets[k].resets < fc->kinds[k].count)
            return 1;
    return 0;
}

void iol_counts_add_after(struct iol_file_counts *fc, const struct iol_file_table *t)
{
    int kinds[3];
    for (size_t i = 0; i < t->n; i++) {
        const struct iol_file_sum *fs = &t->files[i];
        int n = kinds_of(fs, kinds);
        for (int j = 0; j < n; j++) {
            struct iol_kind_offsets *o = &fc->offsets[kinds[j]];
            if (o->resets == 0 || fs->first <= o->last_reset)
                continue;
            o->after_total = iol_add_wrap(o->after_total, fs->max_offset);
            if (fs->max_offset > o->after_max)
                o->after_max = fs->max_offset;
        }
    }
}

void iol_counts_result(const struct iol_file_counts *fc, struct iolens_file_counts *out)
{
    for (int k = 0; k < IOLENS_FILE_KINDS; k++) {
        out[k] = fc->kinds[k];
        if (fc->offsets[k].resets > 0) {
            out[k].total_max_offset = iol_add_wrap(-1, fc->offsets[k].after_total);
            out[k].max_offset = fc->offsets[k].after_max;
        }
    }
}
