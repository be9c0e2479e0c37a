/* Least squares for --calibrate: the normal equations, solved by Gauss-Jordan
 * elimination with partial pivoting, and stepwise selection with the paper's
 * rule (Section III-C: a variable whose |t| is under 2 stays out), forward or
 * backward: the paper does not say which. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "regress.h"

/* A tiny ridge on the diagonal keeps collinear columns (X2 and X4 are equal
 * when no call is asynchronous) solvable; relative to the column's scale. */
#define RIDGE 1e-9

/* Invert the k x k matrix a in place (row-major) into inv. @return 0 or -1. */
static int invert(double *a, double *inv, int k)
{
    for (int i = 0; i < k; i++)
        for (int j = 0; j < k; j++)
            inv[i * k + j] = i == j;
    for (int c = 0; c < k; c++) {
        int piv = c;
        for (int r = c + 1; r < k; r++)
            if (fabs(a[r * k + c]) > fabs(a[piv * k + c]))
                piv = r;
        if (fabs(a[piv * k + c]) < 1e-300)
            return -1;
        for (int j = 0; j < k; j++) {
            double t = a[c * k + j];
            a[c * k + j] = a[piv * k + j], a[piv * k + j] = t;
            t = inv[c * k + j];
            inv[c * k + j] = inv[piv * k + j], inv[piv * k + j] = t;
        }
        double d = a[c * k + c];
        for (int j = 0; j < k; j++)
            a[c * k + j] /= d, inv[c * k + j] /= d;
        for (int r = 0; r < k; r++) {
            if (r == c || a[r * k + c] == 0)
                continue;
            double f = a[r * k + c];
            for (int j = 0; j < k; j++)
                a[r * k + j] -= f * a[c * k + j], inv[r * k + j] -= f * inv[c * k + j];
        }
    }
    return 0;
}

/* OLS on the columns in cols (k of them). @return 0 or -1. */
static int fit(const double *x, const double *y, size_t n, int nvars, const int *cols, int k,
               struct pr_fit *out)
{
    double *a = calloc((size_t)(k * k), sizeof *a), *inv = calloc((size_t)(k * k), sizeof *inv);
    double *b = calloc((size_t)k, sizeof *b);
    int rc = -1;
    if (!a || !inv || !b)
        goto out;
    for (size_t r = 0; r < n; r++) {
        const double *row = x + r * (size_t)nvars;
        for (int i = 0; i < k; i++) {
            b[i] += row[cols[i]] * y[r];
            for (int j = 0; j < k; j++)
                a[i * k + j] += row[cols[i]] * row[cols[j]];
        }
    }
    for (int i = 0; i < k; i++)
        a[i * k + i] += RIDGE * (a[i * k + i] > 0 ? a[i * k + i] : 1);
    if (invert(a, inv, k))
        goto out;
    memset(out->beta, 0, sizeof out->beta);
    for (int i = 0; i < k; i++)
        for (int j = 0; j < k; j++)
            out->beta[cols[i]] += inv[i * k + j] * b[j];
    double mean = 0, sst = 0, ssr = 0;
    for (size_t r = 0; r < n; r++)
        mean += y[r] / (double)n;
    for (size_t r = 0; r < n; r++) {
        double pred = 0;
        for (int i = 0; i < k; i++)
            pred += out->beta[cols[i]] * x[r * (size_t)nvars + cols[i]];
        ssr += (y[r] - pred) * (y[r] - pred);
        sst += (y[r] - mean) * (y[r] - mean);
    }
    out->r2 = sst > 0 ? 1 - ssr / sst : 0;
    out->adj_r2 = n > (size_t)k ? 1 - (1 - out->r2) * (double)(n - 1) / (double)(n - (size_t)k)
                                : out->r2;
    double sigma2 = n > (size_t)k ? ssr / (double)(n - (size_t)k) : 0;
    memset(out->t, 0, sizeof out->t);
    for (int i = 0; i < k; i++) {
        double se = sqrt(fmax(sigma2 * inv[i * k + i], 0));
        out->t[cols[i]] = se > 0 ? out->beta[cols[i]] / se : INFINITY;
    }
    out->n = n;
    rc = 0;
out:
    free(a);
    free(inv);
    free(b);
    return rc;
}

/* The candidate columns into cols: the constant, then each column that
 * varies and is not the same as one already in (X4 is X2 when no call is
 * asynchronous). @return how many. */
static int candidates(const double *x, size_t n, int nvars, int *cols)
{
    int k = 0;
    for (int v = 0; v < nvars && v < PR_FIT_MAXVARS; v++) {
        double lo = INFINITY, hi = -INFINITY;
        for (size_t r = 0; r < n; r++) {
            double val = x[r * (size_t)nvars + v];
            lo = fmin(lo, val), hi = fmax(hi, val);
        }
        int same = 0;
        for (int i = 1; i < k && !same; i++) {
            same = 1;
            for (size_t r = 0; r < n && same; r++)
                same = x[r * (size_t)nvars + v] == x[r * (size_t)nvars + cols[i]];
        }
        if (v == 0 || (hi > lo && !same))
            cols[k++] = v;
    }
    return k;
}

/* Backward elimination from every candidate; cols (k of them) keeps the
 * columns left. @return their count, or -1. */
static int backward_fit(const double *x, const double *y, size_t n, int nvars, int *cols, int k,
                        struct pr_fit *out)
{
    for (;;) {
        if (fit(x, y, n, nvars, cols, k, out))
            return -1;
        int worst = -1;
        for (int i = 1; i < k; i++)
            if (fabs(out->t[cols[i]]) < 2 &&
                (worst < 0 || fabs(out->t[cols[i]]) < fabs(out->t[cols[worst]])))
                worst = i;
        /* too few records for the variables: drop the weakest too */
        if (worst < 0 && (size_t)k + 1 >= n && k > 1) {
            worst = 1;
            for (int i = 2; i < k; i++)
                if (fabs(out->t[cols[i]]) < fabs(out->t[cols[worst]]))
                    worst = i;
        }
        if (worst < 0)
            return k;
        memmove(cols + worst, cols + worst + 1, (size_t)(k - worst - 1) * sizeof *cols);
        k--;
    }
}

/* Forward selection among the candidates (ncand in cand, the constant
 * first) into cols. @return the count of columns in, or -1. */
static int forward_fit(const double *x, const double *y, size_t n, int nvars, const int *cand,
                       int ncand, int *cols, struct pr_fit *out)
{
    int k = 1, taken[PR_FIT_MAXVARS] = {0};
    cols[0] = cand[0];
    for (;;) {
        int best = -1;
        double best_t = 0;
        for (int c = 1; c < ncand && (size_t)k + 2 < n; c++) {
            if (taken[c])
                continue;
            cols[k] = cand[c];
            if (fit(x, y, n, nvars, cols, k + 1, out))
                continue; /* singular with this column: it adds nothing */
            double t = fabs(out->t[cand[c]]);
            if (t >= 2 && (best < 0 || t > best_t)) {
                best_t = t;
                best = c;
            }
        }
        if (best < 0)
            break;
        taken[best] = 1;
        cols[k++] = cand[best];
    }
    return fit(x, y, n, nvars, cols, k, out) ? -1 : k;
}

int pr_stepwise(const double *x, const double *y, size_t n, int nvars, int backward,
                struct pr_fit *out)
{
    int cand[PR_FIT_MAXVARS], cols[PR_FIT_MAXVARS];
    int ncand = candidates(x, n, nvars, cand);
    int k = backward ? backward_fit(x, y, n, nvars, memcpy(cols, cand, sizeof cand), ncand, out)
                     : forward_fit(x, y, n, nvars, cand, ncand, cols, out);
    if (k < 0)
        return -1;
    memset(out->used, 0, sizeof out->used);
    for (int i = 0; i < k; i++)
        out->used[cols[i]] = 1;
    return 0;
}
