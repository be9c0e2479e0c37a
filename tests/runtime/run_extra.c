/* A library the `iolens run` test preloads before running iolens run, to see
 * that the program still loads it (run_prog looks for this symbol). */

/* The symbol run_prog looks up. @return 1. */
int run_extra_marker(void);

int run_extra_marker(void)
{
    return 1;
}
