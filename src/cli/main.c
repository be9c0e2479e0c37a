/* iolens: one command, one verb per file. */
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"

/* Sorted by name. */
static const struct cli_verb *const verbs[] = {
    &cli_callsites_verb,
    &cli_collect_verb,
    &cli_convert_verb,
    &cli_diff_verb,
    &cli_dxt_verb,
    &cli_export_verb,
    &cli_ingest_verb,
    &cli_insights_verb,
    &cli_link_flags_verb,
    &cli_merge_verb,
    &cli_parse_verb,
    &cli_predict_verb,
    &cli_recover_verb,
    &cli_report_verb,
    &cli_run_verb,
    &cli_serve_verb,
};

/* The verb running, for the messages' prefix; NULL before one is chosen. */
static const char *current_verb;

/* "iolens parse: " once a verb runs, else "iolens: ". */
static void put_prefix(void)
{
    if (current_verb)
        fprintf(stderr, "iolens %s: ", current_verb);
    else
        fputs("iolens: ", stderr);
}

/* A message on one line, whatever the names in it hold (a file name, a
 * run file's source path, with a newline in it): control characters are
 * written escaped, as \n or \x01. */
static void put_one_line(const char *fmt, va_list ap)
{
    char text[2048];
    int n = vsnprintf(text, sizeof text, fmt, ap);
    for (const unsigned char *c = (const unsigned char *)text; *c; c++) {
        if (*c >= 0x20 && *c != 0x7f)
            fputc(*c, stderr);
        else if (*c == '\n')
            fputs("\\n", stderr);
        else if (*c == '\t')
            fputs("\\t", stderr);
        else
            fprintf(stderr, "\\x%02x", *c);
    }
    if (n >= (int)sizeof text)
        fputs("...", stderr);
    fputc('\n', stderr);
}

int cli_error(const char *what, const char *fmt, ...)
{
    va_list ap;
    fflush(stdout); /* what was printed before the error comes before it */
    put_prefix();
    fprintf(stderr, "%s: ", what);
    va_start(ap, fmt);
    put_one_line(fmt, ap);
    va_end(ap);
    return 1;
}

int cli_say(const char *fmt, ...)
{
    va_list ap;
    fflush(stdout);
    put_prefix();
    va_start(ap, fmt);
    put_one_line(fmt, ap);
    va_end(ap);
    return 1;
}

int cli_usage_error(const char *verb, const char *fmt, ...)
{
    va_list ap;
    fflush(stdout);
    fprintf(stderr, "iolens %s: ", verb);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, " (try 'iolens %s --help')\n", verb);
    return 2;
}

/* Why getopt_long refused the long option arg ("--name" or "--name=value"). */
static const char *long_option_problem(const struct option *opts, const char *arg)
{
    const char *name = arg + 2;
    size_t len = strcspn(name, "=");
    int matches = 0, exact = 0;
    for (const struct option *o = opts; o->name; o++) {
        if (!strncmp(o->name, name, len)) {
            matches++;
            exact |= o->name[len] == '\0';
        }
    }
    if (matches == 0)
        return "unknown option";
    if (matches > 1 && !exact)
        return "ambiguous option";
    return name[len] == '=' ? "takes no argument" : "needs an argument";
}

int cli_getopt(const char *verb, int argc, char **argv, const char *shortopts,
               const struct option *opts)
{
    int at = optind;
    opterr = 0; /* our own error line instead of getopt's */
    int c = getopt_long(argc, argv, shortopts, opts, NULL);
    if (c != '?' && c != ':')
        return c;
    /* optind stays on a word of short options until its last one is read */
    const char *arg = optind == at ? argv[optind] : argv[optind - 1];
    if (!strncmp(arg, "--", 2))
        cli_usage_error(verb, "%s: %s", arg, long_option_problem(opts, arg));
    else
        cli_usage_error(verb, "-%c: %s", optopt,
                        c == ':' ? "needs an argument" : "unknown option");
    return '?';
}

static void usage(FILE *out)
{
    fprintf(out, "usage: iolens <verb> [options] [args]\n\nverbs:\n");
    for (size_t i = 0; i < sizeof(verbs) / sizeof(verbs[0]); i++)
        fprintf(out, "  %-10s %s\n", verbs[i]->name, verbs[i]->summary);
    fprintf(out, "\n'iolens <verb> --help' describes a verb.\n");
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
        usage(stdout);
        return 0;
    }
    if (!strcmp(argv[1], "--version")) {
        printf("iolens %s\n", IOLENS_VERSION_STRING);
        return 0;
    }
    for (size_t i = 0; i < sizeof(verbs) / sizeof(verbs[0]); i++) {
        if (!strcmp(argv[1], verbs[i]->name)) {
            for (int a = 2; a < argc && !verbs[i]->own_help; a++) {
                if (!strcmp(argv[a], "--help") || !strcmp(argv[a], "-h")) {
                    fputs(verbs[i]->usage, stdout);
                    return 0;
                }
            }
            current_verb = verbs[i]->name;
            return verbs[i]->run(argc - 1, argv + 1);
        }
    }
    cli_error(argv[1], "unknown verb (try 'iolens --help')");
    return 2;
}
