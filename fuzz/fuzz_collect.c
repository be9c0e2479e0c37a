/* Fuzz target: the input is what `iolens collect` receives from outside (MQTT
 * messages, lines of events files): each line is given to collect_message
 * and the batch committed, into an SQLite database in memory. Besides
 * crashes, it checks the collector's promise: a malformed message is skipped
 * and counted, never a database error. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "collect.h"

static struct collector col;
static unsigned inputs;

static void open_db(void)
{
    char why[512];
    if (!(col.db = db_open("sqlite::memory:", why, sizeof(why)))) {
        fprintf(stderr, "fuzz: cannot open the database: %s\n", why);
        abort();
    }
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    /* the collector's one line per malformed message; fd 2 stays for the
     * sanitizers and libFuzzer */
    if (!(stderr = fopen("/dev/null", "w")))
        abort();
    open_db();
    return 0;
}

static void fail(const char *what)
{
    fprintf(fdopen(2, "w"), "fuzz: %s: %s\n", what, db_error(col.db));
    abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *text = (const char *)data, *end = text + size;
    while (text < end) {
        const char *nl = memchr(text, '\n', (size_t)(end - text));
        size_t len = nl ? (size_t)(nl - text) : (size_t)(end - text);
        if (collect_message(&col, text, len, "fuzz") < 0)
            fail("a message made a database error");
        text += len + (nl != NULL);
    }
    if (collect_commit(&col, NULL, NULL) < 0)
        fail("the commit failed");
    /* a fresh database now and then: what was stored stays bounded */
    if (++inputs % 2000 == 0) {
        collect_free(&col);
        db_close(col.db);
        memset(&col, 0, sizeof(col));
        open_db();
    }
    return 0;
}
