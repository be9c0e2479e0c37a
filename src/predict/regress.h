/* Least squares with forward or backward stepwise selection, for --calibrate. */
#ifndef IOLENS_PREDICT_REGRESS_H
#define IOLENS_PREDICT_REGRESS_H

#include <stddef.h>

#define PR_FIT_MAXVARS 32

/* A fitted model: coefficients (0 for a variable left out), t-ratios, fit. */
struct pr_fit {
    double beta[PR_FIT_MAXVARS], t[PR_FIT_MAXVARS];
    int used[PR_FIT_MAXVARS];
    double r2, adj_r2;
    size_t n;
};

/* Fit y (n values) on the columns of x (n rows of nvars; column 0 is the
 * constant 1, always in). The candidates are the columns that vary and do not
 * repeat one before them. Forward (backward == 0): from the constant alone,
 * the candidate whose |t| would be largest enters while that |t| is at least 2
 * and the records outnumber the columns. Backward: every candidate enters,
 * then the one of smallest |t| leaves while |t| < 2 (or while the columns
 * outnumber the records).
 * @return 0, or -1 (memory, or a singular system). */
int pr_stepwise(const double *x, const double *y, size_t n, int nvars, int backward,
                struct pr_fit *out);

#endif
