/* Fuzz target: the input is a log file given to the iolens command itself,
 * in-process: `iolens parse --all LOG`, `iolens dxt LOG` and
 * `iolens insights LOG`. Besides crashes,
 * it checks the command's promise on stderr: a failing run prints exactly one
 * line "iolens VERB: LOG: reason" ("# warning:" lines aside). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_common.h"

int iolens_cli_main(int argc, char **argv); /* src/cli/main.c, renamed for this target */

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    if (!freopen("/dev/null", "w", stdout))
        abort();
    return 0;
}

static void run(int argc, char **argv, const char *path)
{
    char *text = NULL;
    size_t len = 0;
    FILE *saved = stderr;
    FILE *mem = open_memstream(&text, &len);
    if (!mem)
        abort();
    stderr = mem; /* sanitizer reports still go to file descriptor 2 */
    int rc = iolens_cli_main(argc, argv);
    stderr = saved;
    fclose(mem);

    if (rc != 0) {
        char prefix[128];
        int nerr = 0, other = 0;
        snprintf(prefix, sizeof(prefix), "iolens %s: %s: ", argv[1], path);
        for (char *line = text, *nl; *line; line = nl + 1) {
            if (!(nl = strchr(line, '\n'))) {
                other++;
                break;
            }
            if (!strncmp(line, prefix, strlen(prefix)) && line + strlen(prefix) < nl)
                nerr++;
            else if (strncmp(line, "# warning:", 10) != 0)
                other++;
        }
        if (nerr != 1 || other != 0) {
            fprintf(stderr, "fuzz: 'iolens %s' exit %d with %d error line(s) and %d other "
                            "line(s) on stderr:\n%s", argv[1], rc, nerr, other, text);
            abort();
        }
    }
    free(text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *path = fuzz_scratch(data, size);
    char *parse[] = {"iolens", "parse", "--all", (char *)path, NULL};
    char *dxt[] = {"iolens", "dxt", (char *)path, NULL};
    char *insights[] = {"iolens", "insights", (char *)path, NULL};
    run(4, parse, path);
    run(3, dxt, path);
    run(3, insights, path);
    return 0;
}
