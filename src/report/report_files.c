/* The report's file figures: the per-file table (one row per file and
 * interface, the summary's heaviest files), files counted by kind, data by
 * mount point, what the table leaves out, and the heatmap grids (HEATMAP
 * records' and DXT traces'). */
#include <stdlib.h>
#include <string.h>

#include "../cli/cli.h"
#include "report_data.h"

/* a + b for byte counts of 0 or more, saturating (damaged logs hold any value). */
static int64_t add(int64_t a, int64_t b)
{
    int64_t sum;
    return __builtin_add_overflow(a, b, &sum) ? INT64_MAX : sum;
}

static const char *const iface_names[IOLENS_IFACES] = {
    [IOLENS_IFACE_POSIX] = "POSIX", [IOLENS_IFACE_MPIIO] = "MPI-IO",
    [IOLENS_IFACE_STDIO] = "STDIO"};

/* The ranks that accessed a file: all for a shared record, else one per
 * record (a rank has one record per file). */
static int64_t file_ranks(const struct iolens_io_stats *st, int64_t nprocs)
{
    return st->shared_records ? nprocs : st->records - st->shared_records;
}

/* One table row: [name, interface, bytes read, bytes written, reads, writes,
 * metadata ops, read time, write time, meta time, ranks, slowest rank, its
 * time, partial]. Arrays, not objects: 4096 rows stay small. */
static void write_row(FILE *out, const struct iolens_file_summary *f, int iface, int64_t nprocs)
{
    const struct iolens_io_stats *st = &f->io[iface];
    cli_json_string(out, f->name ? f->name : "<unknown>");
    fprintf(out, ",\"%s\",%lld,%lld,%lld,%lld,%lld,", iface_names[iface],
            (long long)st->bytes_read, (long long)st->bytes_written, (long long)st->reads,
            (long long)st->writes, (long long)st->meta_ops);
    cli_json_number(out, st->read_time);
    fputc(',', out);
    cli_json_number(out, st->write_time);
    fputc(',', out);
    cli_json_number(out, st->meta_time);
    fprintf(out, ",%lld,%lld,", (long long)file_ranks(st, nprocs), (long long)st->time_max_rank);
    cli_json_number(out, st->time_max);
    fprintf(out, ",%d", f->partial);
}

static void write_table(FILE *out, const struct iolens_summary *s)
{
    size_t n = s->nfiles < REPORT_MAX_FILES ? s->nfiles : REPORT_MAX_FILES;
    int rows = 0;
    report_key(out, "files", 0);
    fputc('[', out);
    for (size_t i = 0; i < n; i++) {
        for (int k = 0; k < IOLENS_IFACES; k++) {
            if (!(s->files[i].ifaces >> k & 1))
                continue;
            fputs(rows++ ? ",\n[" : "\n[", out);
            write_row(out, &s->files[i], k, s->nprocs);
            fputc(']', out);
        }
    }
    fputc(']', out);
    report_num(out, "files_left_out", (double)(s->nfiles - n));
}

/* Per interface: the files of the table by kind of access, and the rest. */
static void write_counts(FILE *out, const struct iolens_summary *s)
{
    report_key(out, "ifaces", 0);
    fputc('{', out);
    for (int k = 0; k < IOLENS_IFACES; k++) {
        /* count, bytes, largest file's bytes: all, read-only, write-only,
         * read/write, shared, one rank */
        int64_t kinds[6][3] = {{0}};
        for (size_t i = 0; i < s->nfiles; i++) {
            const struct iolens_io_stats *st = &s->files[i].io[k];
            if (!(s->files[i].ifaces >> k & 1))
                continue;
            int64_t b = add(st->bytes_read, st->bytes_written);
            int kind = st->bytes_written ? (st->bytes_read ? 3 : 2) : st->bytes_read ? 1 : -1;
            int share = st->shared_records || st->records > 1 ? 4 : 5;
            int which[3] = {0, kind, share};
            for (int w = 0; w < 3; w++) {
                if (which[w] < 0)
                    continue;
                kinds[which[w]][0]++;
                kinds[which[w]][1] = add(kinds[which[w]][1], b);
                kinds[which[w]][2] = b > kinds[which[w]][2] ? b : kinds[which[w]][2];
            }
        }
        const struct iolens_io_stats *t = &s->iface[k], *r = &s->rest[k];
        report_key(out, iface_names[k], k == 0);
        fputc('{', out);
        report_key(out, "kinds", 1);
        fputc('[', out);
        for (int i = 0; i < 6; i++)
            fprintf(out, "%s[%lld,%lld,%lld]", i ? "," : "", (long long)kinds[i][0],
                    (long long)kinds[i][1], (long long)kinds[i][2]);
        fputc(']', out);
        report_num(out, "records", (double)t->records);
        report_num(out, "bytes_read", (double)t->bytes_read);
        report_num(out, "bytes_written", (double)t->bytes_written);
        report_num(out, "read_time", t->read_time);
        report_num(out, "write_time", t->write_time);
        report_num(out, "meta_time", t->meta_time);
        report_num(out, "rest_records", (double)r->records);
        report_num(out, "rest_bytes", (double)add(r->bytes_read, r->bytes_written));
        fputc('}', out);
    }
    fputc('}', out);
    report_num(out, "rest_files", (double)s->rest_files);
}

/* Bytes of the table's files by mount point (the files left out of the
 * table are not placed; MPI-IO files' bytes are those of their POSIX
 * records). */
static void write_mounts(FILE *out, const struct report_input *in)
{
    const struct iolens_log_info *info = iolens_log_get_info(in->log);
    const struct iolens_summary *s = in->s;
    struct place {
        int64_t files, read, written;
    } *at = calloc(info->nmounts + 1, sizeof(*at));
    report_key(out, "mounts", 0);
    fputc('[', out);
    for (size_t i = 0; at && i < s->nfiles; i++) {
        const char *mnt, *fs;
        size_t m = 0;
        cli_match_mount(info, s->files[i].name, &mnt, &fs);
        while (m < info->nmounts && info->mounts[m].path != mnt)
            m++;
        at[m].files++;
        for (int k = 0; k < IOLENS_IFACES; k++) {
            if (k == IOLENS_IFACE_MPIIO || !(s->files[i].ifaces >> k & 1))
                continue;
            at[m].read = add(at[m].read, s->files[i].io[k].bytes_read);
            at[m].written = add(at[m].written, s->files[i].io[k].bytes_written);
        }
    }
    int n = 0;
    for (size_t m = 0; at && m <= info->nmounts; m++) {
        if (!at[m].files)
            continue;
        fputs(n++ ? ",{" : "{", out);
        report_key(out, "mount", 1);
        cli_json_string(out, m < info->nmounts ? info->mounts[m].path : "(other)");
        report_str(out, "fs", m < info->nmounts ? info->mounts[m].type : "");
        report_num(out, "files", (double)at[m].files);
        report_num(out, "read", (double)at[m].read);
        report_num(out, "written", (double)at[m].written);
        fputc('}', out);
    }
    fputc(']', out);
    free(at);
}

void report_write_files(FILE *out, const struct report_input *in)
{
    write_table(out, in->s);
    write_counts(out, in->s);
    write_mounts(out, in);
}

/* Non-empty cells only: [row, bin, read, written]. */
/* One grid as {"label", "source", "nbins", "nrows", "bin_seconds",
 * "ranks_per_row", "cells": [[row, bin, read, written]...]} (non-empty cells). */
static void write_grid(FILE *out, const char *label, const char *source,
                       const struct iolens_heatmap_grid *g)
{
    report_key(out, "label", 1);
    cli_json_string(out, label);
    report_str(out, "source", source);
    report_num(out, "nbins", g->nbins);
    report_num(out, "nrows", g->nrows);
    report_num(out, "bin_seconds", g->bin_seconds);
    report_num(out, "ranks_per_row", (double)g->ranks_per_row);
    report_key(out, "cells", 0);
    fputc('[', out);
    int cells = 0;
    for (size_t c = 0; c < (size_t)g->nrows * (size_t)g->nbins; c++) {
        if (!g->read[c] && !g->written[c])
            continue;
        fprintf(out, "%s[%zu,%zu,%lld,%lld]", cells++ ? "," : "", c / (size_t)g->nbins,
                c % (size_t)g->nbins, (long long)g->read[c], (long long)g->written[c]);
    }
    fputc(']', out);
}

void report_write_heatmaps(FILE *out, const struct report_input *in)
{
    const struct iolens_dxt_timeline *t = in->dxt;
    report_key(out, "heatmaps", 0);
    fputc('[', out);
    int n = 0;
    for (int k = 0; k < IOLENS_IFACES; k++) {
        if (!in->s->heatmap[k].present)
            continue;
        fputs(n++ ? ",{" : "{", out);
        write_grid(out, iface_names[k], "HEATMAP", &in->s->heatmap[k]);
        fputc('}', out);
    }
    for (size_t i = 0; t && i < t->nheat; i++) {
        char label[64];
        snprintf(label, sizeof(label), "%s (from traces)", iolens_module_name(t->heat[i].mod_id));
        fputs(n++ ? ",{" : "{", out);
        write_grid(out, label, "DXT", &t->heat[i].grid);
        fputc('}', out);
    }
    fputc(']', out);
}
