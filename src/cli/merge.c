/* iolens merge: the logs of one MPI job (one per rank, or a rank's own log
 * written when the job log could not be, or one `iolens recover` made) made
 * into the job's log, shared records reduced as the MPI runtime reduces
 * them. The library does the work (iolens_joblog_merge, include/iolens/joblog.h). */
#include <stdlib.h>

#include "iolens/joblog.h"
#include "cli.h"

static const char merge_usage[] =
    "usage: iolens merge [--force] [--reduce-all] OUT LOG...\n"
    "\n"
    "Write to OUT the log of the MPI job whose logs are LOG...: each the log of one\n"
    "rank (IOLENS_LOG_PER_RANK=1 writes one per rank; a rank whose job log could not\n"
    "be written, or one of a job killed before MPI_Finalize and recovered with\n"
    "`iolens recover`, has a log of its own), or the log of a whole job. The result\n"
    "is the log the MPI runtime would have written:\n"
    "  - each record gets its rank; a file that every rank's log has a record of,\n"
    "    in POSIX, MPI-IO, STDIO, H5F, H5D, PNETCDF_FILE or PNETCDF_VAR, becomes one\n"
    "    record of rank -1, combined as the runtime's reduction combines it (sums,\n"
    "    extremes, fastest and slowest rank and bytes, variances across ranks, the\n"
    "    four most common values), in the order Open MPI 4.1's MPI_Reduce uses;\n"
    "  - HEATMAP and DXT records stay per rank (heatmaps on the job's longest span);\n"
    "  - the job's data are rank 0's log's, with the number of ranks, the earliest\n"
    "    start and the latest end; every log's names; each module partial if it is\n"
    "    partial in any log.\n"
    "A rank's log is told by its metadata (iolens_rank=R, or rank=R with\n"
    "world_size=N); a log of one process without them stands for the rank of its\n"
    "place among such logs. A log of a whole job is taken as it is (merging it alone\n"
    "gives the same log).\n"
    "\n"
    "The logs must be of one job: the same job id and number of processes, logs of\n"
    "several processes (a job header) starting at the same time; every rank\n"
    "exactly once. Otherwise merge says why, in one line, and writes nothing.\n"
    "  --force        merge logs that do not look like one job's, or that leave out\n"
    "                 ranks (a file is shared only if every rank has it); logs\n"
    "                 whose ranks clash (logs of several jobs) are laid one after\n"
    "                 the other in the order given (ranks renumbered), and the\n"
    "                 shared records of one file that several of them hold are\n"
    "                 combined into one (variances across all their ranks)\n"
    "  --reduce-all   also reduce the files every rank has in a whole job's log\n"
    "                 (one written with DISABLE_SHARED_REDUCTION)\n"
    "\n"
    "Records of a module this iolens has no definition of are left out (with a note).\n"
    "\n"
    "Exit status: 0 when OUT was written, 1 when an input could not be read, was\n"
    "refused, or OUT could not be written, 2 for wrong usage.\n";

int cli_merge(int argc, char **argv)
{
    static const struct option opts[] = {
        {"force", no_argument, NULL, 'f'},
        {"reduce-all", no_argument, NULL, 'r'},
        {NULL, 0, NULL, 0},
    };
    unsigned flags = 0;
    int c, rc = 1;

    optind = 1;
    while ((c = cli_getopt("merge", argc, argv, ":", opts)) != -1) {
        switch (c) {
        case 'f': flags |= IOLENS_MERGE_FORCE; break;
        case 'r': flags |= IOLENS_MERGE_REDUCE_ALL; break;
        default: return 2;
        }
    }
    if (argc - optind < 2)
        return cli_usage_error("merge", argc - optind ? "no log to merge" : "no output given");
    const char *out = argv[optind];
    size_t n = (size_t)(argc - optind - 1);
    iolens_log **logs = calloc(n, sizeof(*logs));
    if (!logs)
        return cli_say("out of memory");
    size_t opened = 0;
    for (; opened < n; opened++)
        if (!(logs[opened] = cli_open_log(argv[optind + 1 + (int)opened])))
            goto out;
    char detail[512];
    uint64_t left_out = 0;
    if (iolens_joblog_merge(logs, (const char *const *)(argv + optind + 1), n, out, flags,
                            &left_out, detail, sizeof(detail)) != IOLENS_OK) {
        cli_say("%s", detail); /* "FILE: reason", or why the logs are not one job's */
        goto out;
    }
    for (int m = 0; m < IOLENS_MAX_MODS; m++)
        if (left_out & (1ULL << m))
            cli_say("note: module id %d left out of %s: this iolens cannot read its records",
                    m, out);
    rc = 0;
out:
    for (size_t i = 0; i < opened; i++)
        iolens_log_close(logs[i]);
    free(logs);
    return rc;
}

const struct cli_verb cli_merge_verb = {
    .name = "merge",
    .summary = "merge the logs of one MPI job (one per rank) into its job log",
    .usage = merge_usage,
    .run = cli_merge,
};
