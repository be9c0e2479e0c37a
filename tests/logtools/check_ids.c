/* Check a log's record ids against its names: every name's id is the
 * record-id hash of the name, and every record of a module without a default
 * name has a name. For logs written by `iolens convert --obfuscate`, whose
 * ids are recomputed from the pseudonyms.
 *   check_ids LOG          exit 0 when both hold, 1 (and what differs) otherwise
 *   check_ids --names LOG  print the log's names, one a line */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "iolens/log.h"

static int bad;

static int print_name(uint64_t id, const char *name, void *arg)
{
    (void)id;
    (void)arg;
    printf("%s\n", name);
    return 0;
}

static int check_name(uint64_t id, const char *name, void *arg)
{
    (void)arg;
    if (iolens_record_id(name) != id && bad++ < 5)
        fprintf(stderr, "FAIL: name '%s' has id %" PRIu64 ", its hash is %" PRIu64 "\n", name,
                id, iolens_record_id(name));
    return 0;
}

int main(int argc, char **argv)
{
    iolens_log *log;
    char why[256];
    int names = argc == 3 && !strcmp(argv[1], "--names");
    if (argc != 2 && !names) {
        fprintf(stderr, "usage: check_ids [--names] LOG\n");
        return 2;
    }
    if (iolens_log_open(argv[argc - 1], &log, why, sizeof(why)) != IOLENS_OK ||
        iolens_log_load_names(log) != IOLENS_OK) {
        fprintf(stderr, "FAIL: %s: %s\n", argv[argc - 1], why);
        return 1;
    }
    if (names) {
        iolens_log_each_name(log, print_name, NULL);
        iolens_log_close(log);
        return 0;
    }
    iolens_log_each_name(log, check_name, NULL);
    long records = 0;
    for (int id = 0; id < IOLENS_MAX_MODS; id++) {
        const struct iolens_module_desc *mod = iolens_module(id);
        const void *rec;
        if (!mod || iolens_log_get_info(log)->mod_map[id].len == 0)
            continue;
        while (iolens_log_next_record(log, id, &rec) == IOLENS_OK) {
            struct iolens_record_base b;
            memcpy(&b, rec, sizeof(b));
            records++;
            if (!mod->default_name && !iolens_log_name(log, b.id) && bad++ < 5)
                fprintf(stderr, "FAIL: %s record %" PRIu64 " has no name\n", mod->name, b.id);
        }
    }
    printf("%s: %zu names, %ld records, %d problems\n", argv[1], iolens_log_name_count(log),
           records, bad);
    iolens_log_close(log);
    return bad ? 1 : 0;
}
