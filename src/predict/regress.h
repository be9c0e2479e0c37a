/* Least squares with backward stepwise elimination, for --calibrate. */
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
 * constant 1): every varying column enters, then the one of smallest |t|
 * leaves while |t| < 2 (or while the variables outnumber the records).
 * @return 0, or -1 (memory, or a singular system). */
int pr_stepwise(const double *x, const double *y, size_t n, int nvars, struct pr_fit *out);

#endif
