/* fileno() of the standard streams before and after the program's first
 * STDIO call. The STDIO module knows the standard streams by name only from
 * that call on (Darshan's starts there): the calls before it (a program
 * asking isatty(fileno(stdout)), say) give no POSIX record; those after it
 * count as opens (POSIX_FILENOS) of <STDERR> and <STDOUT>. */
#include <unistd.h>

#include "wl.h"

int main(int argc, char **argv)
{
    (void)wl_dir(argc, argv);

    WL_CHECK(fileno(stdout) == 1, "fileno stdout");
    WL_CHECK(fileno(stderr) == 2, "fileno stderr");
    WL_CHECK(isatty(fileno(stdout)) == 0, "stdout is not a terminal");

    WL_EXPECT_N(fprintf(stderr, "%s\n", "std_fileno"), 11, "fprintf stderr");
    WL_CHECK(fileno(stderr) == 2, "fileno stderr");
    WL_CHECK(fileno(stdout) == 1, "fileno stdout");
    WL_EXPECT_N(printf("%s\n", "out"), 4, "printf");
    WL_CHECK(fflush(stdout) == 0, "fflush");
    return 0;
}
