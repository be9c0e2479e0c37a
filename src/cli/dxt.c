/* iolens dxt: the text darshan-dxt-parser prints for a log's DXT traces. */
#include "cli.h"

static const char dxt_usage[] =
    "usage: iolens dxt LOG\n\nPrint the DXT traces of a log as darshan-dxt-parser does.\n";

int cli_dxt(int argc, char **argv)
{
    if (argc != 2) {
        fputs(dxt_usage, stderr);
        return 2;
    }
    iolens_log *log = cli_open_log(argv[1]);
    if (!log)
        return 1;
    cli_print_log_header(stdout, log);
    iolens_log_close(log);
    return 0;
}

const struct cli_verb cli_dxt_verb = {
    .name = "dxt",
    .summary = "print a log's DXT traces as darshan-dxt-parser does",
    .usage = dxt_usage,
    .run = cli_dxt,
};
