/* Models of iolens predict: Table II's coefficients, and model files
 * (docs/predict.md, "Model files"): lines "NAME VALUE" where NAME is const
 * or X1..X16, '#' starting a comment; a variable not listed is excluded (0);
 * "dependent intensity" or "dependent ln" says what the linear value
 * predicts (ln when absent: the paper's reading, and the first files'). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "predict.h"
#include "predict_default_model.h"

#define MODEL_MAGIC "iolens-predict-model 1"

void pr_model_paper(struct pr_model *m)
{
    /* Table II; X5, X6, X8, X11, X15 and X16 were excluded by the stepwise fit */
    static const double beta[PR_NVARS] = {
        -1.99,     0.17,     278.80, 3706.47, -42612.30, 0, 0, -10487.80, 0,
        809.04, 183996.00, 0, 227.98, 6456.39, 0.78,   0, 0};
    memcpy(m->beta, beta, sizeof beta);
    m->dependent = PR_DEP_LOG;
    snprintf(m->name, sizeof m->name, "paper");
}

double pr_model_intensity(const struct pr_model *m, double cioc)
{
    if (m->dependent == PR_DEP_LOG)
        return fmin(1, exp(cioc));
    return fmin(1, fmax(0, cioc));
}

const char *const pr_dependent_names[2] = {[PR_DEP_LOG] = "ln", [PR_DEP_INTENSITY] = "intensity"};
const char *const pr_direction_names[2] = {[PR_STEP_FORWARD] = "forward",
                                           [PR_STEP_BACKWARD] = "backward"};

int pr_name_index(const char *const names[2], const char *word)
{
    for (int i = 0; i < 2; i++)
        if (!strcmp(word, names[i]))
            return i;
    return -1;
}

/* The variable index of name (const = 0, X1..X16), or -1. */
static int var_index(const char *name)
{
    if (!strcmp(name, "const"))
        return 0;
    if (name[0] != 'X')
        return -1;
    char *end;
    long i = strtol(name + 1, &end, 10);
    return *end || end == name + 1 || i < 1 || i >= PR_NVARS ? -1 : (int)i;
}

/* Read a model from f (named name in errors) into m. @return 0, or -1 with err set. */
static int parse_model(FILE *f, const char *name, struct pr_model *m, char *err, size_t errlen)
{
    char line[512];
    int lineno = 0, magic = 0;
    memset(m, 0, sizeof *m);
    while (fgets(line, sizeof line, f)) {
        lineno++;
        char *hash = strchr(line, '#');
        if (hash)
            *hash = '\0';
        char var[32], word[32], extra[2];
        double v;
        if (magic && sscanf(line, "dependent %31s %1s", word, extra) == 1) {
            int d = pr_name_index(pr_dependent_names, word);
            if (d >= 0) {
                m->dependent = (enum pr_dependent)d;
                continue;
            }
            snprintf(err, errlen, "%s:%d: expected 'dependent ln|intensity'", name, lineno);
            return -1;
        }
        int got = sscanf(line, "%31s %lf %1s", var, &v, extra);
        if (got <= 0)
            continue;
        if (!magic) {
            if (strncmp(line, MODEL_MAGIC, strlen(MODEL_MAGIC))) {
                snprintf(err, errlen, "%s: not a model file (first line must be '%s')", name,
                         MODEL_MAGIC);
                return -1;
            }
            magic = 1;
            continue;
        }
        int i = var_index(var);
        if (got != 2 || i < 0 || !isfinite(v)) {
            snprintf(err, errlen, "%s:%d: expected 'const|X1..X16 NUMBER'", name, lineno);
            return -1;
        }
        m->beta[i] = v;
    }
    if (!magic) {
        snprintf(err, errlen, "%s: empty model file", name);
        return -1;
    }
    return 0;
}

int pr_model_load(struct pr_model *m, const char *path, char *err, size_t errlen)
{
    if (!strcmp(path, "paper")) {
        pr_model_paper(m);
        return 0;
    }
    int builtin = !strcmp(path, "calibrated");
    FILE *f = builtin ? fmemopen((void *)pr_default_model_text, strlen(pr_default_model_text), "r")
                      : fopen(path, "r");
    if (!f) {
        snprintf(err, errlen, "%s: %s", path, strerror(errno));
        return -1;
    }
    int rc = parse_model(f, builtin ? "built-in calibrated model" : path, m, err, errlen);
    fclose(f);
    const char *base = strrchr(path, '/');
    snprintf(m->name, sizeof m->name, "%s", base ? base + 1 : path);
    return rc;
}

int pr_model_save(const struct pr_model *m, const char *path, const char *note)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return -1;
    fprintf(f, "%s\n", MODEL_MAGIC);
    for (const char *s = note; s && *s;) {
        size_t n = strcspn(s, "\n");
        fprintf(f, "# %.*s\n", (int)n, s);
        s += n + (s[n] == '\n');
    }
    fprintf(f, "dependent %s\n", pr_dependent_names[m->dependent]);
    for (int i = 0; i < PR_NVARS; i++) {
        if (i == 0)
            fprintf(f, "const %.17g\n", m->beta[0]);
        else
            fprintf(f, "X%d %.17g\n", i, m->beta[i]);
    }
    int bad = ferror(f);
    if (fclose(f) || bad)
        return -1;
    return 0;
}
