/* Shared declarations of the iolens command-line verbs. */
#ifndef IOLENS_CLI_H
#define IOLENS_CLI_H

#include <getopt.h>
#include <stdio.h>

#include "iolens/analysis.h"
#include "iolens/log.h"

/* One verb: its name, one-line summary, usage text and entry point. */
struct cli_verb {
    const char *name;
    const char *summary;
    const char *usage;
    int (*run)(int argc, char **argv);
    int own_help; /* 1: the verb reads --help itself (its arguments may be another program's) */
};

int cli_parse(int argc, char **argv);
int cli_dxt(int argc, char **argv);
int cli_recover(int argc, char **argv);
/* iolens insights: findings of one log. @return 0, 1 (unreadable log) or 2 (usage). */
int cli_insights(int argc, char **argv);
/* iolens report: one HTML page for one log. @return 0, 1 (unreadable log or
 * unwritable page) or 2 (usage). */
int cli_report(int argc, char **argv);
/* iolens run: run a program with the runtime preloaded, as one job. Exits as
 * the program ended. @return only on failure: 125, 126 or 127. */
int cli_run(int argc, char **argv);
/* iolens ingest: finished logs into a database. @return 0, 1 (a log
 * unreadable), 2 (usage) or 3 (database error). */
int cli_ingest(int argc, char **argv);
/* iolens collect: live events into a database. @return 0, 1 (database
 * error) or 2 (usage). */
int cli_collect(int argc, char **argv);
/* iolens serve: a live web page over a database. @return 0 (stopped by a
 * signal), 1 (database or address failed) or 2 (usage). */
int cli_serve(int argc, char **argv);

/* iolens convert: rewrite a log as a 3.41 log. @return 0, 1 (unreadable log or
 * unwritable output) or 2 (usage). */
int cli_convert(int argc, char **argv);
/* iolens export: a log as JSON, CSV or a Perfetto trace. @return 0, 1 (unreadable
 * log or unwritable output) or 2 (usage). */
int cli_export(int argc, char **argv);

extern const struct cli_verb cli_parse_verb;
extern const struct cli_verb cli_convert_verb; /* convert.c */
extern const struct cli_verb cli_export_verb;  /* export.c */
extern const struct cli_verb cli_predict_verb; /* predict.c */
extern const struct cli_verb cli_dxt_verb;
extern const struct cli_verb cli_callsites_verb; /* callsites.c */
extern const struct cli_verb cli_collect_verb; /* collect.c */
extern const struct cli_verb cli_ingest_verb; /* ingest.c */
extern const struct cli_verb cli_insights_verb; /* insights.c */
extern const struct cli_verb cli_link_flags_verb; /* link_flags.c */
extern const struct cli_verb cli_merge_verb; /* merge.c */
extern const struct cli_verb cli_diff_verb; /* diff.c */
extern const struct cli_verb cli_recover_verb;
extern const struct cli_verb cli_report_verb; /* report.c */
extern const struct cli_verb cli_run_verb;
extern const struct cli_verb cli_serve_verb; /* serve.c */

/* Print "iolens <verb>: <what>: <reason>" on stderr (before a verb runs,
 * "iolens: <what>: <reason>"), after what stdout holds.
 * @return the exit status to use (1). */
int cli_error(const char *what, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Print "iolens <verb>: <message>" on stderr, for what concerns no one file.
 * @return 1. */
int cli_say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Print "iolens <verb>: <reason> (try 'iolens <verb> --help')" on stderr.
 * @return the exit status of wrong usage (2). */
int cli_usage_error(const char *verb, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* getopt_long for a verb, with shortopts starting with ':'. A bad option
 * (unknown, ambiguous, missing or unexpected argument) is reported with
 * cli_usage_error. @return the option, -1 after the last, or '?' after an error. */
int cli_getopt(const char *verb, int argc, char **argv, const char *shortopts,
               const struct option *opts);

/* Print each of n logs in turn with one(path, arg); with more than one, each
 * log's output starts with a line "# ==> PATH <==" (and a blank line before
 * it, from the second on). A failed log does not stop the others.
 * @return the highest status one returned (0 when every log was printed),
 * 1 or more when stdout could not be written. */
int cli_each_log(int n, char **paths, int (*one)(const char *path, void *arg), void *arg);

/* Open a log for a verb, printing the one-line reason on failure.
 * @return the handle, or NULL after printing the error. */
iolens_log *cli_open_log(const char *path);

/* Print the job summary, region sizes and mount table that parse and dxt share. */
void cli_print_log_header(FILE *out, const iolens_log *log);

/* Mount point and file-system type of a record name (deepest prefix match).
 * Both are "UNKNOWN" when no mount matches or name is NULL. */
void cli_match_mount(const struct iolens_log_info *in, const char *name, const char **mnt_pt,
                     const char **fs_type);

/* What a record of mod with the given id prints beside its counters: its
 * name (the module's default_name, or "(null)", when the log has none), mount
 * point and file-system type; no layout. Names must have been loaded. */
struct iolens_print_ctx cli_print_ctx(const iolens_log *log, const struct iolens_module_desc *mod,
                                      uint64_t id);

/* A recommendation of a finding: the interface it is for and its text. */
struct cli_rec_line {
    const char *iface, *text;
};

/* The recommendations a finding shows: those of its own interface and of
 * the interfaces the job uses. @return their number (at most 4). */
size_t cli_recommendations(const struct iolens_finding *f, const struct iolens_summary *s,
                           struct cli_rec_line out[4]);

/* Does the log in hold records of module id that iolens decodes? A module it
 * holds but cannot decode (or does not know) is named on stderr as left out.
 * @return 1 or 0. */
int cli_module_kept(const struct iolens_log_info *in, int id);

/* Write s as a JSON string: control characters and bytes that are not UTF-8
 * escaped (such a byte as the code point of the same value). */
void cli_json_string(FILE *out, const char *s);

/* Write v as a JSON number: integers without decimals, null if not finite. */
void cli_json_number(FILE *out, double v);

/* Write one finding as the JSON object of `iolens insights --json`. */
void cli_json_finding(FILE *out, const struct iolens_summary *s, const struct iolens_finding *f);

#endif
