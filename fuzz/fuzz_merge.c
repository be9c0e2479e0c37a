/* Fuzz target: the input is a log file given to iolens_joblog_merge (the
 * library of `iolens merge`): alone, alone with its whole-job records
 * reduced (IOLENS_MERGE_REDUCE_ALL), and twice with --force (the ranks of
 * two jobs laid one after the other, their shared records combined). Each
 * merged log must read back through every reader entry point; a refused or
 * failed merge must say why in one non-empty line. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fuzz_common.h"
#include "iolens/joblog.h"

static char out_path[64];

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    static char dir[] = "/tmp/iolens-fuzz-merge.XXXXXX";
    (void)argc;
    (void)argv;
    if (!mkdtemp(dir))
        abort();
    snprintf(out_path, sizeof(out_path), "%s/merged.darshan", dir);
    return 0;
}

static void merge(iolens_log *const *logs, size_t n, unsigned flags)
{
    static const char *const names[] = {"a.darshan", "b.darshan"};
    char detail[512] = "";
    uint64_t left_out = 0;
    iolens_status st = iolens_joblog_merge(logs, names, n, out_path, flags, &left_out, detail,
                                           sizeof(detail));
    if (st != IOLENS_OK) {
        if (!detail[0] || strchr(detail, '\n')) {
            fprintf(stderr, "fuzz: merge failed (%d) without a one-line reason: '%s'\n", st,
                    detail);
            abort();
        }
        return;
    }
    fuzz_read_log(out_path);
    unlink(out_path);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    iolens_log *logs[2] = {NULL, NULL};
    const char *path = fuzz_scratch(data, size);
    if (iolens_log_open(path, &logs[0], NULL, 0) != IOLENS_OK)
        return 0;
    if (iolens_log_open(path, &logs[1], NULL, 0) == IOLENS_OK) {
        merge(logs, 1, 0);
        merge(logs, 1, IOLENS_MERGE_REDUCE_ALL);
        merge(logs, 2, IOLENS_MERGE_FORCE);
        iolens_log_close(logs[1]);
    }
    iolens_log_close(logs[0]);
    return 0;
}
