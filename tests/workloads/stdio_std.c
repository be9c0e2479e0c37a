/* The standard streams. stdin is made to read a file this program writes
 * (open + dup2 onto descriptor 0); stdout and stderr go wherever the caller
 * sends them. Reads: fgets, fgetc, getchar, getc, fscanf, scanf, fread;
 * writes: printf, vprintf, fprintf, fputs, fputc, putchar, puts, fwrite,
 * fflush; and, first, fileno(stdout) and a write(2) on that descriptor.
 *
 * Built with -DWL_ORACLE, the calls Darshan 3.5 does not intercept
 * (getchar, getc, scanf, putchar, puts) are replaced by intercepted calls
 * that count the same; see deviations.md. */
#include <fcntl.h>
#include <stdarg.h>

#include "wl.h"

#ifdef WL_ORACLE
#define WL_GETCHAR() fgetc(stdin)
#define WL_GETC(f) fgetc(f)
#define WL_SCANF(fmt, p) fscanf(stdin, fmt, p)
#define WL_PUTCHAR(c) fputc(c, stdout)
#define WL_PUTS(s) fprintf(stdout, "%s\n", s)
#else
#define WL_GETCHAR() getchar()
#define WL_GETC(f) getc(f)
#define WL_SCANF(fmt, p) scanf(fmt, p)
#define WL_PUTCHAR(c) putchar(c)
#define WL_PUTS(s) puts(s)
#endif

static int my_vprintf(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vprintf(fmt, ap);
    va_end(ap);
    return n;
}

static _Alignas(8) const char input[] = "first line\nAB 17 23 tail\n";
static _Alignas(8) const char line1[] = "write(1)\n";

int main(int argc, char **argv)
{
    const char *dir = wl_dir(argc, argv);
    char path[4096], line[128], tail[8];
    int fd, num = 0;

    wl_path(path, sizeof path, dir, "stdin.txt");
    fd = open(path, O_CREAT | O_WRONLY | O_TRUNC, 0644);
    WL_CHECK(fd >= 0, "open for write");
    WL_EXPECT_N(write(fd, input, sizeof input - 1), sizeof input - 1, "write");
    WL_CHECK(close(fd) == 0, "close");
    fd = open(path, O_RDONLY);
    WL_CHECK(fd >= 0, "open for read");
    WL_CHECK(dup2(fd, 0) == 0, "dup2 onto stdin");
    WL_CHECK(close(fd) == 0, "close");

    /* stdin: 11 + 1 + 1 + 1 + 3 + 3 + 5 bytes */
    WL_CHECK(fgets(line, sizeof line, stdin) != NULL, "fgets");
    WL_CHECK(fgetc(stdin) == 'A', "fgetc");
    WL_CHECK(WL_GETCHAR() == 'B', "getchar");
    WL_CHECK(WL_GETC(stdin) == ' ', "getc");
    WL_CHECK(fscanf(stdin, "%d", &num) == 1 && num == 17, "fscanf");
    WL_CHECK(WL_SCANF("%d", &num) == 1 && num == 23, "scanf");
    WL_EXPECT_N(fread(tail, 1, 5, stdin), 5, "fread");
    WL_CHECK(fgetc(stdin) == '\n', "fgetc");
    WL_CHECK(fgetc(stdin) == EOF, "fgetc at EOF");

    /* POSIX on stdout's descriptor, before any stream output */
    fd = fileno(stdout);
    WL_CHECK(fd == 1, "fileno stdout");
    WL_EXPECT_N(write(fd, line1, 9), 9, "write to stdout");

    /* stdout */
    WL_EXPECT_N(printf("%s %d\n", "printf", 1), 9, "printf");
    WL_EXPECT_N(my_vprintf("%s %d\n", "vprintf", 2), 10, "vprintf");
    WL_EXPECT_N(fprintf(stdout, "%s\n", "fprintf"), 8, "fprintf");
    WL_CHECK(fputs("fputs\n", stdout) >= 0, "fputs");
    WL_CHECK(fputc('c', stdout) == 'c', "fputc");
    WL_CHECK(WL_PUTCHAR('\n') == '\n', "putchar");
    WL_CHECK(WL_PUTS("puts") >= 0, "puts");
    WL_EXPECT_N(fwrite("fwrite\n", 1, 7, stdout), 7, "fwrite");
    WL_CHECK(fflush(stdout) == 0, "fflush");

    /* stderr */
    WL_EXPECT_N(fprintf(stderr, "%s\n", "to stderr"), 10, "fprintf stderr");
    WL_CHECK(fputs("fputs stderr\n", stderr) >= 0, "fputs stderr");

    return 0;
}
