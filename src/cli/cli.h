/* Shared declarations of the iolens command-line verbs. */
#ifndef IOLENS_CLI_H
#define IOLENS_CLI_H

#include <stdio.h>

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
/* iolens run: run a program with the runtime preloaded, as one job. Exits as
 * the program ended. @return only on failure: 125, 126 or 127. */
int cli_run(int argc, char **argv);

extern const struct cli_verb cli_parse_verb;
extern const struct cli_verb cli_dxt_verb;
extern const struct cli_verb cli_recover_verb;
extern const struct cli_verb cli_run_verb;

/* Print "iolens: <what>: <reason>" on stderr. @return the exit status to use (1). */
int cli_error(const char *what, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Open a log for a verb, printing the one-line reason on failure.
 * @return the handle, or NULL after printing the error. */
iolens_log *cli_open_log(const char *path);

/* Print the job summary, region sizes and mount table that parse and dxt share. */
void cli_print_log_header(FILE *out, const iolens_log *log);

/* Mount point and file-system type of a record name (deepest prefix match).
 * Both are "UNKNOWN" when no mount matches or name is NULL. */
void cli_match_mount(const struct iolens_log_info *in, const char *name, const char **mnt_pt,
                     const char **fs_type);

#endif
