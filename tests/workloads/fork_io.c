/* fork: the parent writes a file and a stream, forks, and waits; the child
 * writes a file of its own, pwrites through the inherited descriptor and
 * writes through the inherited stream, then exits normally; the parent then
 * writes again and closes everything. Two logs: the parent's (its I/O before
 * and after the fork) and the child's (only its own I/O after the fork).
 *
 * Built with -DWL_ORACLE, the child opens the shared file and stream again
 * instead of using the inherited ones (Darshan 3.5 forgets inherited
 * descriptors and streams in the child); the extra open and seek are taken
 * out by hand; see deviations.md. */
#include <fcntl.h>
#include <sys/wait.h>

#include "wl.h"

static _Alignas(4096) unsigned char buf[4096];

static void child(const char *dir, int fa, FILE *fs)
{
    char path[4096];
    int fd;

    wl_path(path, sizeof path, dir, "fork_child.dat");
    fd = open(path, O_CREAT | O_WRONLY | O_TRUNC, 0644);
    WL_CHECK(fd >= 0, "child open");
    WL_EXPECT_N(write(fd, buf, 2000), 2000, "child write");
    WL_CHECK(close(fd) == 0, "child close");
#ifdef WL_ORACLE
    (void)fa;
    (void)fs;
    wl_path(path, sizeof path, dir, "fork_shared.dat");
    fa = open(path, O_WRONLY);
    WL_CHECK(fa >= 0, "oracle open");
    wl_path(path, sizeof path, dir, "fork_stream.txt");
    fs = fopen(path, "r+");
    WL_CHECK(fs != NULL, "oracle fopen");
    WL_CHECK(fseek(fs, 20, SEEK_SET) == 0, "oracle fseek");
#endif
    WL_EXPECT_N(pwrite(fa, buf, 500, 4096), 500, "child pwrite inherited");
    WL_CHECK(fputs("child 1234\n", fs) >= 0, "child fputs inherited");
    WL_CHECK(fflush(fs) == 0, "child fflush");
    exit(0);
}

int main(int argc, char **argv)
{
    const char *dir = wl_dir(argc, argv);
    char shared[4096], spath[4096], ppath[4096];
    int fa, fd, status;
    FILE *fs;
    pid_t pid;

    wl_path(shared, sizeof shared, dir, "fork_shared.dat");
    wl_path(spath, sizeof spath, dir, "fork_stream.txt");
    wl_path(ppath, sizeof ppath, dir, "fork_parent.dat");
    wl_fill(buf, sizeof buf, 30);

    fa = open(shared, O_CREAT | O_WRONLY | O_TRUNC, 0644);
    WL_CHECK(fa >= 0, "open");
    WL_EXPECT_N(write(fa, buf, 1000), 1000, "write");
    fs = fopen(spath, "w");
    WL_CHECK(fs != NULL, "fopen");
    WL_EXPECT_N(fprintf(fs, "%s\n", "parent before fork"), 19, "fprintf");
    WL_CHECK(fputc('\n', fs) == '\n', "fputc");
    WL_CHECK(fflush(fs) == 0, "fflush");

    pid = fork();
    WL_CHECK(pid >= 0, "fork");
    if (pid == 0)
        child(dir, fa, fs);
    WL_CHECK(waitpid(pid, &status, 0) == pid, "waitpid");
    WL_CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0, "child status");

    WL_EXPECT_N(write(fa, buf, 1000), 1000, "write after fork");
    WL_CHECK(close(fa) == 0, "close");
    WL_CHECK(fclose(fs) == 0, "fclose");
    fd = open(ppath, O_CREAT | O_WRONLY | O_TRUNC, 0644);
    WL_CHECK(fd >= 0, "open");
    WL_EXPECT_N(write(fd, buf, 3000), 3000, "write");
    WL_CHECK(close(fd) == 0, "close");
    return 0;
}
