/* Fuzz target: the input is the runtime's config file (IOLENS_CONFIG_PATH:
 * "KEY [VALUE [MODULES]]" lines), read by the runtime's own loader as a
 * process starting under libiolens.so would, then asked everything the
 * runtime asks of a configuration. The loader runs inside the programs it
 * instruments: whatever the file holds, it must not crash, hang or write out
 * of bounds. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/config.h"
#include "fuzz_common.h"
#include "iolens/module.h"

extern char **environ;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    /* only the file: no setting of the environment the fuzzer runs in */
    for (char **e = environ; *e;) {
        if (!strncmp(*e, "IOLENS_", 7) || !strncmp(*e, "DARSHAN_", 8) ||
            !strncmp(*e, "DXT_", 4)) {
            char name[256];
            size_t n = strcspn(*e, "=");
            if (n >= sizeof(name))
                abort();
            memcpy(name, *e, n);
            name[n] = '\0';
            unsetenv(name);
        } else {
            e++;
        }
    }
    return 0;
}

static struct iol_config cfg;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *path = fuzz_scratch(data, size);
    if (setenv("IOLENS_CONFIG_PATH", path, 1))
        abort();
    memset(&cfg, 0, sizeof(cfg));
    iol_config_load(&cfg);
    for (int m = 0; m < 64; m++) {
        (void)iol_config_mod_disabled(&cfg, m);
        (void)iol_config_max_records(&cfg, m, 0);
        (void)iol_config_name_excluded(&cfg, m, 1, "/tmp/data/file.0");
        (void)iol_config_name_excluded(&cfg, m, 0, "dataset:/g/d");
    }
    for (int r = 0; r < 8; r++)
        (void)iol_config_rank_excluded(&cfg, r, 8);
    for (size_t i = 0; i < cfg.nname_rules; i++)
        regfree(&cfg.name_rules[i].re);
    for (size_t i = 0; i < cfg.napp_rules; i++)
        regfree(&cfg.app_rules[i].re);
    return 0;
}
