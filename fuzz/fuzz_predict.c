/* Fuzz target: the files `iolens predict` reads besides sources, in-process.
 * An input that starts with "iolens-predict-model" is a model file given to
 * `iolens predict --model FILE SOURCE`; any other is a run file given to
 * `iolens predict --calibrate` (its "sources" may name SOURCE_PATH, a small C
 * file the target writes, so that the fit runs), after the JSON reader is
 * run on it directly. Besides crashes, it checks the command's one-line error
 * promise (fuzz_cli_run.h) and the reader's: a failure's reason is one line,
 * and every value of a tree it returns can be walked. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fuzz_cli_run.h"
#include "fuzz_common.h"
#include "json.h"

/* Fixed, so that seeds can name it; every process writes the same text. */
#define SOURCE_PATH "/tmp/iolens-fuzz-predict.c"

static const char source[] =
    "#include <stdio.h>\n"
    "void save(const double *v, int n) {\n"
    "    FILE *f = fopen(\"out.dat\", \"wb\");\n"
    "    for (int i = 0; i < n; i += 64)\n"
    "        fwrite(v + i, sizeof(double), 64, f);\n"
    "    fclose(f);\n"
    "}\n"
    "double sum(const double *v, int n) {\n"
    "    double s = 0;\n"
    "    for (int i = 0; i < n; i++)\n"
    "        s += v[i];\n"
    "    return s;\n"
    "}\n";

static char model_out[64];

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    char tmp[64];
    if (!freopen("/dev/null", "w", stdout))
        abort();
    snprintf(tmp, sizeof(tmp), "%s.%ld", SOURCE_PATH, (long)getpid());
    FILE *f = fopen(tmp, "w");
    if (!f || fputs(source, f) < 0 || fclose(f) || rename(tmp, SOURCE_PATH))
        abort();
    snprintf(model_out, sizeof(model_out), "/tmp/fuzz_predict.%ld.model", (long)getpid());
    return 0;
}

/* Every value under v, through the accessors the command uses. */
static size_t walk(const struct pj_value *v)
{
    size_t n = 1;
    if (v->type == PJ_STRING && !v->string)
        abort();
    if (v->type == PJ_OBJECT)
        for (size_t i = 0; i < v->n; i++) {
            if (!v->keys[i] || pj_get(v, v->keys[i]) == NULL)
                abort();
            (void)pj_string(v, v->keys[i], NULL);
            (void)pj_number(v, v->keys[i], 0);
        }
    for (size_t i = 0; (v->type == PJ_OBJECT || v->type == PJ_ARRAY) && i < v->n; i++)
        n += walk(&v->items[i]);
    return n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *path = fuzz_scratch(data, size);
    if (size >= 20 && !memcmp(data, "iolens-predict-model", 20)) {
        char *argv[] = {"iolens", "predict", "--model", (char *)path, SOURCE_PATH, NULL};
        fuzz_run_cli(5, argv, path);
        return 0;
    }
    struct pj_value v;
    char err[256];
    if (pj_parse((const char *)data, size, &v, err, sizeof(err)) == 0) {
        walk(&v);
        pj_free(&v);
    } else if (!err[0] || strchr(err, '\n')) {
        fprintf(stderr, "fuzz: the JSON reader's reason is not one line: '%s'\n", err);
        abort();
    }
    /* a fit's error ("too few functions to fit") concerns all the runs */
    char *argv[] = {"iolens", "predict", "--calibrate", "-o", model_out, (char *)path, NULL};
    fuzz_run_cli(6, argv, NULL);
    return 0;
}
