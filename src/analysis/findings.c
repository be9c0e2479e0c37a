/* Making findings (rules.h) and the insights of a summary: the rules of
 * rules.c run in table order, then the findings are sorted by severity. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rules.h"

const char *iolens_severity_name(enum iolens_severity sev)
{
    switch (sev) {
    case IOLENS_SEV_INFO: return "info";
    case IOLENS_SEV_WARN: return "warn";
    case IOLENS_SEV_HIGH: return "high";
    }
    return "?";
}

int iol_judged(const struct iolens_file_summary *f, int i)
{
    if (!(f->ifaces >> i & 1))
        return 0;
    return !(i == IOLENS_IFACE_POSIX && (f->ifaces >> IOLENS_IFACE_MPIIO & 1));
}

static int64_t file_ops(const struct iolens_io_stats *s)
{
    return iol_add(iol_add(s->reads, s->writes), s->meta_ops);
}

int iol_negligible(const struct iol_ctx *c, const struct iolens_file_summary *f)
{
    int64_t bytes = 0, ops = 0;
    for (int i = 0; i < IOLENS_IFACES; i++) {
        if (iol_judged(f, i)) {
            bytes = iol_add(bytes, iol_stats_bytes(&f->io[i]));
            ops = iol_add(ops, file_ops(&f->io[i]));
        }
    }
    double share = c->t[IOL_T_NEGLIGIBLE_SHARE];
    return (double)bytes < share * (double)c->job_bytes &&
           ((double)ops < share * (double)c->job_ops || (double)ops < c->t[IOL_T_NEGLIGIBLE_OPS]);
}

struct iolens_finding *iol_finding(struct iol_ctx *c, const struct iolens_rule_info *rule,
                                   enum iolens_severity sev, const char *iface,
                                   const char *fmt, ...)
{
    if (c->nfound == c->cap) {
        size_t cap = c->cap ? 2 * c->cap : 16;
        struct iolens_finding *more = realloc(c->found, cap * sizeof(*more));
        if (!more) {
            c->nomem = 1;
            return NULL;
        }
        c->found = more;
        c->cap = cap;
    }
    struct iolens_finding *f = &c->found[c->nfound++];
    memset(f, 0, sizeof(*f));
    f->rule = rule;
    f->severity = sev;
    f->iface = iface;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(f->summary, sizeof(f->summary), fmt, ap);
    va_end(ap);
    return f;
}

void iol_evidence(struct iolens_finding *f, const char *key, enum iolens_evidence_kind kind,
                  double value)
{
    if (f->nevidence == IOLENS_FINDING_MAX_EVIDENCE)
        return;
    struct iolens_evidence *e = &f->evidence[f->nevidence++];
    memset(e, 0, sizeof(*e));
    e->key = key;
    e->kind = kind;
    e->value = value;
}

void iol_evidence_text(struct iolens_finding *f, const char *key, const char *text)
{
    if (f->nevidence == IOLENS_FINDING_MAX_EVIDENCE)
        return;
    struct iolens_evidence *e = &f->evidence[f->nevidence++];
    memset(e, 0, sizeof(*e));
    e->key = key;
    e->kind = IOLENS_EV_TEXT;
    snprintf(e->text, sizeof(e->text), "%s", text);
}

void iol_offer_file(struct iolens_finding *f, const struct iolens_file_summary *file,
                    const char *figure, double value)
{
    size_t at = f->nfiles;
    if (at == IOLENS_FINDING_MAX_FILES) {
        f->more_files++;
        if (value <= f->files[at - 1].value)
            return;
        at--; /* the last one leaves the list */
    } else {
        f->nfiles++;
    }
    while (at > 0 && f->files[at - 1].value < value) {
        f->files[at] = f->files[at - 1];
        at--;
    }
    f->files[at].name = file->name ? file->name : "<unknown>";
    f->files[at].figure = figure;
    f->files[at].value = value;
}

void iol_add_rank(struct iolens_finding *f, int64_t rank)
{
    for (size_t i = 0; i < f->nranks; i++)
        if (f->ranks[i] == rank)
            return;
    if (f->nranks < IOLENS_FINDING_MAX_RANKS)
        f->ranks[f->nranks++] = rank;
}

const char *iol_bytes_text(double n, char *buf, size_t len)
{
    static const char *const units[] = {"bytes", "KiB", "MiB", "GiB", "TiB", "PiB"};
    int u = 0;
    while (n >= 1024 && u < 5) {
        n /= 1024;
        u++;
    }
    if (u == 0)
        snprintf(buf, len, "%.0f bytes", n);
    else
        snprintf(buf, len, "%.*f %s", n < 10 ? 1 : 0, n, units[u]);
    return buf;
}

const struct iolens_rule_info *iolens_insight_rule(size_t i)
{
    return i < iol_nrules ? &iol_rules[i].info : NULL;
}

/* The job's bytes and operations over the judged records of the kept files
 * and all of the rest. */
static void job_totals(struct iol_ctx *c)
{
    const struct iolens_summary *s = c->s;
    for (size_t k = 0; k < s->nfiles; k++)
        for (int i = 0; i < IOLENS_IFACES; i++)
            if (iol_judged(&s->files[k], i)) {
                c->job_bytes = iol_add(c->job_bytes, iol_stats_bytes(&s->files[k].io[i]));
                c->job_ops = iol_add(c->job_ops, file_ops(&s->files[k].io[i]));
            }
    for (int i = 0; i < IOLENS_IFACES; i++) {
        c->job_bytes = iol_add(c->job_bytes, iol_stats_bytes(&s->rest[i]));
        c->job_ops = iol_add(c->job_ops, file_ops(&s->rest[i]));
    }
}

static int by_severity(const void *a, const void *b)
{
    const struct iolens_finding *x = a, *y = b;
    if (x->severity != y->severity)
        return x->severity > y->severity ? -1 : 1;
    return (x->rule > y->rule) - (x->rule < y->rule); /* table order */
}

iolens_status iolens_insights(const struct iolens_summary *s, const iolens_insight_config *cfg,
                              struct iolens_finding **out, size_t *n)
{
    iolens_insight_config *defaults = NULL;
    struct iol_ctx c = {.s = s};

    *out = NULL;
    *n = 0;
    if (!cfg && !(cfg = defaults = iolens_insight_config_new()))
        return IOLENS_ERR_NOMEM;
    c.t = cfg->v;
    job_totals(&c);
    for (size_t i = 0; i < iol_nrules && !c.nomem; i++)
        iol_rules[i].check(&c, &iol_rules[i].info);
    iolens_insight_config_free(defaults);
    if (c.nomem) {
        free(c.found);
        return IOLENS_ERR_NOMEM;
    }
    /* Equal severities keep the table's order: by the rule's place in it. */
    if (c.nfound > 1)
        qsort(c.found, c.nfound, sizeof(*c.found), by_severity);
    *out = c.found;
    *n = c.nfound;
    return IOLENS_OK;
}

void iolens_findings_free(struct iolens_finding *f)
{
    free(f);
}
