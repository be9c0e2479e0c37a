/* iolens: one command, one verb per file. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"

/* Sorted by name. */
static const struct cli_verb *const verbs[] = {
    &cli_dxt_verb,
    &cli_parse_verb,
    &cli_recover_verb,
    &cli_run_verb,
};

int cli_error(const char *what, const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "iolens: %s: ", what);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    return 1;
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
            return verbs[i]->run(argc - 1, argv + 1);
        }
    }
    cli_error(argv[1], "unknown verb (try 'iolens --help')");
    return 2;
}
