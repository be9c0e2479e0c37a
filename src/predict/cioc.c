/* The CIOC formula (Section III-C): Table I's parameters made into the
 * variables X1..X16, the model's linear score, the predicted intensity and
 * the ranking; and the optimisations each block suggests (Section IV-D). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "predict.h"

/* X2..X13 are P2..P13 over the program's total, the sum over its functions
 * (which partition its code); X1 is P1 over the largest P1 of a function,
 * loop or branch. */
static void variables(struct pr_program *prog)
{
    double total[PR_NPARAMS] = {0}, max_p1 = 0;
    for (size_t i = 0; i < prog->n; i++) {
        const struct pr_block *b = &prog->blocks[i];
        if (b->kind == PR_FUNCTION)
            for (int p = PR_IO_OPS; p <= PR_SMALL_OPS; p++)
                total[p] += b->p[p];
        if (b->kind != PR_FILE && b->p[PR_LOOP_ITERS] > max_p1)
            max_p1 = b->p[PR_LOOP_ITERS];
    }
    for (size_t i = 0; i < prog->n; i++) {
        struct pr_block *b = &prog->blocks[i];
        b->x[0] = 1;
        b->x[1] = max_p1 > 0 ? b->p[PR_LOOP_ITERS] / max_p1 : 0;
        for (int p = PR_IO_OPS; p <= PR_SMALL_OPS; p++)
            b->x[p + 1] = total[p] > 0 ? b->p[p] / total[p] : 0;
        double procs = b->p[PR_PROCS], conc = b->p[PR_CONCURRENCY];
        if (b->unknown[PR_PROCS] || b->unknown[PR_CONCURRENCY])
            b->x[14] = 0;
        else
            b->x[14] = procs == conc ? 1 : fabs(procs - conc) / fmax(procs, conc);
        b->x[15] = b->p[PR_RANDOM_OPS] > 0;
        b->x[16] = b->p[PR_SMALL_OPS] > 0;
    }
}

static int has_io(const struct pr_block *b)
{
    return b->p[PR_IO_OPS] > 0;
}

/* -1 if a ranks first by larger v, 1 if b does, 0 if equal. */
static int larger_first(double a, double b)
{
    return a == b ? 0 : a > b ? -1 : 1;
}

/* I/O blocks first, by CIOC value; equal values by the I/O the block does
 * (bytes, then data calls: an open, close, seek or sync moves no data)
 * against the memory it touches; then by place. */
static int cmp_rank(const void *pa, const void *pb, void *prog)
{
    const struct pr_block *blocks = ((const struct pr_program *)prog)->blocks;
    const struct pr_block *a = &blocks[*(const size_t *)pa];
    const struct pr_block *b = &blocks[*(const size_t *)pb];
    int c;
    if (has_io(a) != has_io(b))
        return has_io(b) - has_io(a);
    if (has_io(a)) {
        if ((c = larger_first(a->cioc, b->cioc)) ||
            (c = larger_first(a->p[PR_BYTES], b->p[PR_BYTES])) ||
            (c = larger_first(a->reads + a->writes, b->reads + b->writes)) ||
            (c = larger_first(b->p[PR_MEMORY], a->p[PR_MEMORY])))
            return c;
    }
    if ((c = strcmp(a->file, b->file)))
        return c;
    if (a->line != b->line)
        return a->line < b->line ? -1 : 1;
    return (int)a->kind - (int)b->kind;
}

void pr_score(struct pr_program *prog, const struct pr_model *model)
{
    variables(prog);
    for (size_t i = 0; i < prog->n; i++) {
        struct pr_block *b = &prog->blocks[i];
        b->cioc = 0;
        for (int v = 0; v < PR_NVARS; v++)
            b->cioc += model->beta[v] * b->x[v];
        /* Procedure 2: a block without I/O scores 0 */
        b->score = has_io(b) ? pr_model_intensity(model, b->cioc) : 0;
    }
    size_t *order = malloc((prog->n ? prog->n : 1) * sizeof *order);
    if (!order) { /* ranks by position then */
        for (size_t i = 0; i < prog->n; i++)
            prog->blocks[i].rank = (int)i + 1;
        return;
    }
    for (size_t i = 0; i < prog->n; i++)
        order[i] = i;
    qsort_r(order, prog->n, sizeof *order, cmp_rank, prog);
    for (size_t i = 0; i < prog->n; i++)
        prog->blocks[order[i]].rank = (int)i + 1;
    free(order);
}

void pr_suggest(const struct pr_block *b, char *buf, size_t len)
{
    const char *s[5];
    int n = 0;
    double data = b->reads + b->writes;
    buf[0] = '\0';
    if (!has_io(b))
        return;
    if (b->p[PR_FLUSHES] > 0 && b->p[PR_FLUSHES] * 10 >= b->writes)
        s[n++] = "fewer flushes";
    if (b->p[PR_SMALL_OPS] > 0 && b->writes > 0 && b->p[PR_LOOP_ITERS] > 0)
        s[n++] = "buffering";
    if (b->reads > 0 && (b->p[PR_RANDOM_OPS] > 0 || b->p[PR_LOOP_ITERS] > 0))
        s[n++] = "prefetching";
    if (b->independent > 0)
        s[n++] = "collective I/O";
    if (b->p[PR_SMALL_OPS] > 0 && data > 0 && b->p[PR_SMALL_OPS] * 2 >= data)
        s[n++] = "larger requests";
    size_t at = 0;
    for (int i = 0; i < n && at < len; i++)
        at += (size_t)snprintf(buf + at, len - at, "%s%s", i ? ", " : "", s[i]);
}
