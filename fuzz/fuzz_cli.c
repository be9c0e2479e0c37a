/* Fuzz target: the input is a log file given to the iolens command itself,
 * in-process: `iolens parse --all LOG`, `iolens dxt LOG`,
 * `iolens insights LOG` and `iolens callsites LOG`. Besides crashes,
 * it checks the command's promise on stderr: a failing run prints exactly one
 * line "iolens VERB: LOG: reason" ("# warning:" lines aside). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "fuzz_cli_run.h"
#include "fuzz_common.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    if (!freopen("/dev/null", "w", stdout))
        abort();
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *path = fuzz_scratch(data, size);
    char *parse[] = {"iolens", "parse", "--all", (char *)path, NULL};
    char *dxt[] = {"iolens", "dxt", (char *)path, NULL};
    char *insights[] = {"iolens", "insights", (char *)path, NULL};
    fuzz_run_cli(4, parse, path);
    fuzz_run_cli(3, dxt, path);
    fuzz_run_cli(3, insights, path);
    char *callsites[] = {"iolens", "callsites", (char *)path, NULL};
    fuzz_run_cli(3, callsites, path);
    return 0;
}
