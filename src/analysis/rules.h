/* What the insight rules (rules.c) and the helpers that make findings
 * (findings.c) share. */
#ifndef IOLENS_ANALYSIS_RULES_H
#define IOLENS_ANALYSIS_RULES_H

#include "analysis_internal.h"
#include "thresholds.h"

struct iol_ctx;

/* One rule: its public description and the function that applies it. */
struct iol_rule {
    struct iolens_rule_info info;
    void (*check)(struct iol_ctx *c, const struct iolens_rule_info *rule);
};

/* What a rule sees: the summary, the thresholds, the job's totals over the
 * files' judged records, and the findings made so far. */
struct iol_ctx {
    const struct iolens_summary *s;
    const double *t;          /* indexed by enum iol_threshold */
    int64_t job_bytes, job_ops;
    struct iolens_finding *found;
    size_t nfound, cap;
    int nomem;
};

/* Is f's record of interface i judged? MPI-IO files are judged by their
 * MPI-IO records, not by the POSIX records beneath them. */
int iol_judged(const struct iolens_file_summary *f, int i);

/* Does f carry too small a share of the job's bytes, and of its operations
 * or too few of them, to raise a finding (negligible.share, negligible.ops)? */
int iol_negligible(const struct iol_ctx *c, const struct iolens_file_summary *f);

/* A new finding of rule, its summary printf-formatted, or NULL (no memory:
 * c->nomem is set). */
struct iolens_finding *iol_finding(struct iol_ctx *c, const struct iolens_rule_info *rule,
                                   enum iolens_severity sev, const char *iface,
                                   const char *fmt, ...) __attribute__((format(printf, 5, 6)));

/* Add a figure to a finding's evidence (ignored past the maximum). */
void iol_evidence(struct iolens_finding *f, const char *key, enum iolens_evidence_kind kind,
                  double value);
void iol_evidence_text(struct iolens_finding *f, const char *key, const char *text);

/* Offer a file to a finding's list, which keeps the ones with the highest
 * value (the others count in more_files). */
void iol_offer_file(struct iolens_finding *f, const struct iolens_file_summary *file,
                    const char *figure, double value);

/* Add a rank to a finding's list once (ignored past the maximum). */
void iol_add_rank(struct iolens_finding *f, int64_t rank);

/* "1.5 MiB"-style text of n bytes into buf. @return buf. */
const char *iol_bytes_text(double n, char *buf, size_t len);

/* The rule table (rules.c). */
extern const struct iol_rule iol_rules[];
extern const size_t iol_nrules;

#endif
