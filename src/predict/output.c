/* iolens predict's output: the blocks in rank order, as text or as JSON
 * (docs/predict.md, "Output"). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "predict.h"

static void json_string(FILE *out, const char *s)
{
    fputc('"', out);
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            fprintf(out, "\\%c", c);
        else if (c < 0x20)
            fprintf(out, "\\u%04x", c);
        else
            fputc(c, out);
    }
    fputc('"', out);
}

static void json_number(FILE *out, double v)
{
    if (!isfinite(v))
        fputs("null", out);
    else if (v == floor(v) && fabs(v) < 1e15)
        fprintf(out, "%.0f", v);
    else
        fprintf(out, "%.17g", v);
}

/* Block indices in rank order. */
static size_t *ranked(const struct pr_program *prog)
{
    size_t *order = malloc((prog->n ? prog->n : 1) * sizeof *order);
    if (!order)
        return NULL;
    for (size_t i = 0; i < prog->n; i++) {
        int r = prog->blocks[i].rank;
        order[r >= 1 && (size_t)r <= prog->n ? (size_t)r - 1 : i] = i;
    }
    return order;
}

static const char *base_name(const char *path)
{
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}

/* "name=value" for each parameter that is not 0, "name=unknown" for unknown ones. */
static void text_params(FILE *out, const struct pr_block *b)
{
    fputs("       ", out);
    for (int p = 0; p < PR_NPARAMS; p++) {
        if (b->unknown[p])
            fprintf(out, " %s=unknown", pr_param_names[p]);
        else if (b->p[p] != 0)
            fprintf(out, " %s=%.15g", pr_param_names[p], b->p[p]);
    }
    if (b->kind == PR_LOOP)
        b->trip_count >= 0 ? fprintf(out, " trips=%.15g", b->trip_count)
                           : fprintf(out, " trips=unknown(%s)", b->trips);
    fputc('\n', out);
}

void pr_print_text(FILE *out, const struct pr_program *prog, const struct pr_model *m, int top)
{
    size_t *order = ranked(prog);
    if (!order)
        return;
    size_t nio = 0;
    for (size_t i = 0; i < prog->n; i++)
        nio += prog->blocks[i].p[PR_IO_OPS] > 0;
    fprintf(out, "# model %s; %zu blocks, %zu with I/O; score = predicted I/O intensity "
                 "(%s, 0 without I/O)\n",
            m->name, prog->n, nio,
            m->dependent == PR_DEP_LOG ? "exp of CIOC" : "CIOC within [0,1]");
    fprintf(out, "%4s %6s %10s  %-8s %-20s %-24s %s\n", "rank", "score", "cioc", "kind", "block",
            "where", "suggests");
    size_t shown = top > 0 && (size_t)top < prog->n ? (size_t)top : prog->n;
    for (size_t k = 0; k < shown; k++) {
        const struct pr_block *b = &prog->blocks[order[k]];
        char where[256], sugg[128];
        snprintf(where, sizeof where, "%s:%u", base_name(b->file), b->line);
        pr_suggest(b, sugg, sizeof sugg);
        fprintf(out, "%4d %6.4f ", b->rank, b->score);
        if (b->p[PR_IO_OPS] > 0)
            fprintf(out, "%10.4g", b->cioc);
        else
            fprintf(out, "%10s", "-");
        fprintf(out, "  %-8s %-20s %-24s %s\n", pr_kind_name(b->kind), b->name, where, sugg);
        text_params(out, b);
    }
    if (shown < prog->n)
        fprintf(out, "# %zu more blocks (--top 0 shows all)\n", prog->n - shown);
    free(order);
}

static void json_block(FILE *out, const struct pr_block *b, int first)
{
    char sugg[128];
    fputs(first ? "\n  " : ",\n  ", out);
    fputs("{\"kind\": ", out);
    json_string(out, pr_kind_name(b->kind));
    fputs(", \"name\": ", out);
    json_string(out, b->name);
    fputs(", \"file\": ", out);
    json_string(out, b->file);
    fprintf(out, ", \"line\": %u, \"rank\": %d, \"score\": ", b->line, b->rank);
    json_number(out, b->score);
    fputs(", \"cioc\": ", out);
    if (b->p[PR_IO_OPS] > 0)
        json_number(out, b->cioc);
    else
        fputs("null", out);
    fputs(", \"parameters\": {", out);
    for (int p = 0; p < PR_NPARAMS; p++) {
        fprintf(out, "%s\"%s\": ", p ? ", " : "", pr_param_names[p]);
        if (b->unknown[p])
            fputs("null", out);
        else
            json_number(out, b->p[p]);
    }
    if (b->kind == PR_LOOP) {
        fputs(", \"trips\": ", out);
        if (b->trip_count >= 0)
            json_number(out, b->trip_count);
        else
            json_string(out, b->trips[0] ? b->trips : "unknown");
    }
    fputs("}, \"x\": [", out);
    for (int v = 1; v < PR_NVARS; v++) {
        fputs(v > 1 ? ", " : "", out);
        json_number(out, b->x[v]);
    }
    pr_suggest(b, sugg, sizeof sugg);
    fputs("], \"suggestions\": [", out);
    for (const char *s = sugg; *s;) {
        size_t n = strcspn(s, ",");
        char one[64];
        snprintf(one, sizeof one, "%.*s", (int)n, s);
        if (s != sugg)
            fputs(", ", out);
        json_string(out, one);
        s += n;
        s += strspn(s, ", ");
    }
    fputs("]}", out);
}

void pr_print_json(FILE *out, const struct pr_program *prog, const struct pr_model *m)
{
    size_t *order = ranked(prog);
    if (!order)
        return;
    fputs("{\"model\": ", out);
    json_string(out, m->name);
    fputs(", \"dependent\": ", out);
    json_string(out, m->dependent == PR_DEP_LOG ? "ln" : "intensity");
    fputs(", \"blocks\": [", out);
    for (size_t k = 0; k < prog->n; k++)
        json_block(out, &prog->blocks[order[k]], k == 0);
    fputs("\n]}\n", out);
    free(order);
}
