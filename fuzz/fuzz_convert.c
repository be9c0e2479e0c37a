/* Fuzz target: the input is a log given to `iolens convert` (plainly, and with
 * --obfuscate and --records) and to `iolens export --format json|perfetto`, in-process.
 * Besides crashes and the one-line error promise (fuzz_cli_run.h), it checks
 * what convert promises: a log it writes reads back whole, every record of
 * every module, without an error. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "fuzz_cli_run.h"
#include "fuzz_common.h"
#include "iolens/log.h"

static char out[64], doc[64];

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    if (!freopen("/dev/null", "w", stdout))
        abort();
    snprintf(out, sizeof(out), "/tmp/fuzz_convert.%ld.darshan", (long)getpid());
    snprintf(doc, sizeof(doc), "/tmp/fuzz_convert.%ld.json", (long)getpid());
    return 0;
}

/* The log convert wrote must read without an error. */
static void read_back(void)
{
    iolens_log *log;
    char why[256];
    const void *rec;
    iolens_status st;
    if (iolens_log_open(out, &log, why, sizeof(why)) != IOLENS_OK) {
        fprintf(stderr, "fuzz: convert wrote a log that does not open: %s\n", why);
        abort();
    }
    if (iolens_log_load_names(log) != IOLENS_OK) {
        fprintf(stderr, "fuzz: convert wrote names that do not read: %s\n", iolens_log_error(log));
        abort();
    }
    for (int id = 0; id < IOLENS_MAX_MODS; id++) {
        if (iolens_log_get_info(log)->mod_map[id].len == 0)
            continue;
        while ((st = iolens_log_next_record(log, id, &rec)) == IOLENS_OK)
            ;
        if (st != IOLENS_END) {
            fprintf(stderr, "fuzz: convert wrote %s records that do not read: %s\n",
                    iolens_module_name(id), iolens_log_error(log));
            abort();
        }
    }
    iolens_log_close(log);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *path = fuzz_scratch(data, size);
    char *plain[] = {"iolens", "convert", (char *)path, out, NULL};
    char *obf[] = {"iolens", "convert", "--obfuscate", "k", "--records", "a", "--compress",
                   "none", (char *)path, out, NULL};
    char *json[] = {"iolens", "export", "--format", "json", "-o", doc, (char *)path, NULL};
    char *trace[] = {"iolens", "export", "--format", "perfetto", "-o", doc, (char *)path, NULL};
    if (fuzz_run_cli(4, plain, path) == 0)
        read_back();
    if (fuzz_run_cli(10, obf, path) == 0)
        read_back();
    fuzz_run_cli(7, json, path);
    fuzz_run_cli(7, trace, path);
    unlink(out);
    unlink(doc);
    return 0;
}
