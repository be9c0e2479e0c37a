/* Running the iolens command in-process and checking its stderr (fuzz_cli_run.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_cli_run.h"

int iolens_cli_main(int argc, char **argv); /* src/cli/main.c, renamed for these targets */

int fuzz_run_cli(int argc, char **argv, const char *path)
{
    char *text = NULL;
    size_t len = 0;
    FILE *saved = stderr;
    FILE *mem = open_memstream(&text, &len);
    if (!mem)
        abort();
    stderr = mem; /* sanitizer reports still go to file descriptor 2 */
    int rc = iolens_cli_main(argc, argv);
    stderr = saved;
    fclose(mem);

    if (rc != 0) {
        char prefix[128];
        int nerr = 0, other = 0;
        if (path)
            snprintf(prefix, sizeof(prefix), "iolens %s: %s:", argv[1], path);
        else
            snprintf(prefix, sizeof(prefix), "iolens %s:", argv[1]);
        for (char *line = text, *nl; *line; line = nl + 1) {
            if (!(nl = strchr(line, '\n'))) {
                other++;
                break;
            }
            /* "PATH: reason", or "PATH:LINE: reason" for a text file */
            const char *at = line + strlen(prefix);
            int ours = !strncmp(line, prefix, strlen(prefix)) && at < nl;
            if (ours && *at != ' ') {
                while (at < nl && *at >= '0' && *at <= '9')
                    at++;
                ours = at > line + strlen(prefix) && at < nl && *at == ':';
                at++;
            }
            if (ours && at + 1 < nl && *at == ' ')
                nerr++;
            else if (strncmp(line, "# warning:", 10) != 0)
                other++;
        }
        if (nerr != 1 || other != 0) {
            fprintf(stderr, "fuzz: 'iolens %s' exit %d with %d error line(s) and %d other "
                            "line(s) on stderr:\n%s", argv[1], rc, nerr, other, text);
            abort();
        }
    }
    free(text);
    return rc;
}
