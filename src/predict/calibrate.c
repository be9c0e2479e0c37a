/* iolens predict --calibrate: the paper's regression redone on measured runs.
 * Each run file (docs/predict.md, "Run files") names a program's sources and
 * gives, per function, its own run time and, per call site, the I/O time the
 * runtime measured; a function's measured I/O intensity is the I/O time of
 * its call sites over its own time. The dependent variable is the intensity,
 * as the paper's text says, or its natural logarithm (floored at
 * PR_MIN_INTENSITY), as Table II's mean of -6.78 for a quantity in [0,1]
 * says the paper's was (docs/predict.md, "Calibration", says which fits the
 * benchmark set better). */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "predict.h"
#include "regress.h"

#define PR_MIN_INTENSITY 1e-6

/* One function block with its measurement. */
struct record {
    char program[64], function[128];
    double x[PR_NVARS];
    double measured;
    int has_io;
};

struct records {
    struct record *r;
    size_t n, cap;
};

/* path relative to the folder of base, into out. */
static void relative_to(const char *base, const char *path, char *out, size_t len)
{
    const char *slash = strrchr(base, '/');
    if (path[0] == '/' || !slash)
        snprintf(out, len, "%s", path);
    else
        snprintf(out, len, "%.*s/%s", (int)(slash - base), base, path);
}

/* Sum of the site times of function fn. */
static double io_time(const struct pj_value *sites, const char *fn)
{
    double t = 0;
    for (size_t i = 0; sites && i < sites->n; i++)
        if (!strcmp(pj_string(&sites->items[i], "function", ""), fn))
            t += pj_number(&sites->items[i], "time", 0);
    return t;
}

static int add_record(struct records *rs, const char *program, const struct pr_block *b,
                      double measured)
{
    if (rs->n == rs->cap) {
        size_t cap = rs->cap ? rs->cap * 2 : 64;
        struct record *r = realloc(rs->r, cap * sizeof *r);
        if (!r)
            return -1;
        rs->r = r;
        rs->cap = cap;
    }
    struct record *r = &rs->r[rs->n++];
    snprintf(r->program, sizeof r->program, "%s", program);
    snprintf(r->function, sizeof r->function, "%s", b->name);
    memcpy(r->x, b->x, sizeof r->x);
    r->measured = measured;
    r->has_io = b->p[PR_IO_OPS] > 0;
    return 0;
}

/* Analyse one run's program and add a record per measured function. */
static int load_run(const char *path, const struct pr_options *base, struct records *rs,
                    char *err, size_t errlen)
{
    struct pj_value run, sitefile = {0};
    struct pr_program prog = {0};
    char *files[256], *flags[256];
    char paths[256][512];
    int nfiles = 0, nflags = 0, rc = -1;
    if (pj_load(path, &run, err, errlen))
        return -1;
    const struct pj_value *sources = pj_get(&run, "sources"), *fl = pj_get(&run, "flags");
    const struct pj_value *fns = pj_get(&run, "functions"), *sites = pj_get(&run, "sites");
    const char *sites_file = pj_string(&run, "sites_file", NULL);
    if (!sources || sources->type != PJ_ARRAY || !fns || fns->type != PJ_ARRAY) {
        snprintf(err, errlen, "%s: needs \"sources\" and \"functions\" arrays", path);
        goto out;
    }
    if (sites_file) {
        char sp[512];
        relative_to(path, sites_file, sp, sizeof sp);
        if (pj_load(sp, &sitefile, err, errlen))
            goto out;
        sites = pj_get(&sitefile, "sites");
    }
    if (!sites || sites->type != PJ_ARRAY) {
        snprintf(err, errlen, "%s: needs a \"sites\" array (or \"sites_file\")", path);
        goto out;
    }
    for (size_t i = 0; i < sources->n && nfiles < 256; i++) {
        if (sources->items[i].type != PJ_STRING)
            continue;
        relative_to(path, sources->items[i].string, paths[nfiles], sizeof paths[nfiles]);
        files[nfiles] = paths[nfiles];
        nfiles++;
    }
    for (size_t i = 0; fl && fl->type == PJ_ARRAY && i < fl->n && nflags < 256; i++)
        if (fl->items[i].type == PJ_STRING)
            flags[nflags++] = fl->items[i].string;
    struct pr_options opt = *base;
    opt.extra_args = flags;
    opt.n_extra = nflags;
    char why[400];
    if (pr_analyze(&prog, files, nfiles, &opt, why, sizeof why)) {
        snprintf(err, errlen, "%s: %s", path, why);
        goto out;
    }
    struct pr_model paper;
    pr_model_paper(&paper);
    pr_score(&prog, &paper); /* for the variables */
    const char *program = pj_string(&run, "program", path);
    for (size_t i = 0; i < fns->n; i++) {
        const char *name = pj_string(&fns->items[i], "function", "");
        double own = pj_number(&fns->items[i], "time", 0);
        for (size_t b = 0; b < prog.n; b++) {
            const struct pr_block *blk = &prog.blocks[b];
            if (blk->kind != PR_FUNCTION || strcmp(blk->name, name) || own <= 0)
                continue;
            double intensity = fmin(1, io_time(sites, name) / own);
            if (add_record(rs, program, blk, intensity)) {
                snprintf(err, errlen, "out of memory");
                goto out;
            }
            break;
        }
    }
    rc = 0;
out:
    pr_program_free(&prog);
    pj_free(&sitefile);
    pj_free(&run);
    return rc;
}

static double predict(const struct pr_model *m, const struct record *r)
{
    double c = 0;
    for (int v = 0; v < PR_NVARS; v++)
        c += m->beta[v] * r->x[v];
    return r->has_io ? pr_model_intensity(m, c) : 0;
}

static void report(FILE *out, const struct records *rs, const struct pr_fit *fit,
                   const struct pr_fit_options *how, const struct pr_model *m, size_t nfit)
{
    int log_scale = how->dependent == PR_DEP_LOG;
    fprintf(out, "# fitted on %zu function blocks with I/O (of %zu measured), %s stepwise; "
                 "dependent: %s",
            nfit, rs->n, pr_direction_names[how->direction],
            log_scale ? "ln(measured intensity)" : "measured intensity");
    if (log_scale)
        fprintf(out, ", floored at %g", PR_MIN_INTENSITY);
    fprintf(out, "\n# R^2 %.4f, adjusted R^2 %.4f (on the %s)\n", fit->r2, fit->adj_r2,
            log_scale ? "logarithm" : "intensity");
    fprintf(out, "%-6s %14s %10s\n", "var", "coefficient", "t-ratio");
    for (int v = 0; v < PR_NVARS; v++) {
        char name[8];
        snprintf(name, sizeof name, v ? "X%d" : "const", v);
        if (fit->used[v])
            fprintf(out, "%-6s %14.6g %10.3g\n", name, m->beta[v], fit->t[v]);
        else
            fprintf(out, "%-6s %14s %10s\n", name, "excluded", "-");
    }
    fprintf(out, "%-16s %-24s %10s %10s %10s\n", "program", "function", "measured", "predicted",
            "error");
    for (size_t i = 0; i < rs->n; i++) {
        const struct record *r = &rs->r[i];
        double p = predict(m, r);
        fprintf(out, "%-16s %-24s %10.4g %10.4g %+10.4g\n", r->program, r->function, r->measured,
                p, p - r->measured);
    }
}

int pr_calibrate(char **runs, int n, const struct pr_options *opt,
                 const struct pr_fit_options *how, struct pr_model *model, FILE *out, char *err,
                 size_t errlen)
{
    struct records rs = {0};
    double *x = NULL, *y = NULL;
    size_t nfit = 0;
    int rc = -1;
    for (int i = 0; i < n; i++)
        if (load_run(runs[i], opt, &rs, err, errlen))
            goto out;
    x = malloc((rs.n ? rs.n : 1) * PR_NVARS * sizeof *x);
    y = malloc((rs.n ? rs.n : 1) * sizeof *y);
    if (!x || !y) {
        snprintf(err, errlen, "out of memory");
        goto out;
    }
    /* Procedure 2 scores blocks without I/O 0: only I/O blocks are fitted */
    for (size_t i = 0; i < rs.n; i++) {
        if (!rs.r[i].has_io)
            continue;
        memcpy(x + nfit * PR_NVARS, rs.r[i].x, sizeof rs.r[i].x);
        y[nfit++] = how->dependent == PR_DEP_LOG ? log(fmax(rs.r[i].measured, PR_MIN_INTENSITY))
                                                 : rs.r[i].measured;
    }
    if (nfit < 3) {
        snprintf(err, errlen, "%zu measured functions with I/O in the runs: too few to fit", nfit);
        goto out;
    }
    struct pr_fit fit;
    if (pr_stepwise(x, y, nfit, PR_NVARS, how->direction == PR_STEP_BACKWARD, &fit)) {
        snprintf(err, errlen, "the fit failed (singular system)");
        goto out;
    }
    memset(model, 0, sizeof *model);
    memcpy(model->beta, fit.beta, sizeof model->beta);
    model->dependent = how->dependent;
    snprintf(model->name, sizeof model->name, "calibrated");
    report(out, &rs, &fit, how, model, nfit);
    rc = 0;
out:
    free(x);
    free(y);
    free(rs.r);
    return rc;
}
