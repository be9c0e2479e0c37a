/* Time a runtime adds at the end of a process that touched many files; run by
 * bench/shutdown.sh.
 *
 *   shutdown run [-p LIB] N DIR
 *       runs "shutdown work N DIR" as a child with LD_PRELOAD=LIB (none when
 *       LIB is empty or absent) and prints
 *           "N EXIT_MS WORK_MS MAXRSS_KB EXIT_CPU_MS"
 *       EXIT_MS: from the child's last close to its exit as its parent sees it
 *       (wait4 returning); WORK_MS: from the child's start of work to its last
 *       close; MAXRSS_KB: the child's peak resident set (wait4's ru_maxrss, what
 *       /usr/bin/time -f %M prints); EXIT_CPU_MS: CPU time (user + system, all
 *       threads) the child used after its last close.
 *   shutdown work N DIR
 *       creates DIR/f0000000 ... (N files): open, write 16 bytes, close; then
 *       sends the CLOCK_MONOTONIC times of its start and of its last close,
 *       and the CPU time it had used then, to descriptor 3 and returns from
 *       main. */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

static int64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static int64_t cpu_ns(const struct rusage *ru)
{
    return ((int64_t)ru->ru_utime.tv_sec + ru->ru_stime.tv_sec) * 1000000000 +
           ((int64_t)ru->ru_utime.tv_usec + ru->ru_stime.tv_usec) * 1000;
}

static int work(long n, const char *dir)
{
    char path[4096];
    static const char data[16] = "0123456789abcdef";
    int64_t t[3];
    struct rusage ru;

    t[0] = now_ns();
    for (long i = 0; i < n; i++) {
        snprintf(path, sizeof(path), "%s/f%07ld", dir, i);
        int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (fd < 0) {
            fprintf(stderr, "shutdown: cannot create %s: %s\n", path, strerror(errno));
            return 1;
        }
        if (write(fd, data, sizeof(data)) != (ssize_t)sizeof(data))
            return 1;
        close(fd);
    }
    t[1] = now_ns();
    getrusage(RUSAGE_SELF, &ru);
    t[2] = cpu_ns(&ru);
    if (write(3, t, sizeof(t)) != (ssize_t)sizeof(t))
        return 1;
    return 0;
}

/* environ with LD_PRELOAD set to lib (removed when lib is empty). */
static char **child_env(const char *lib)
{
    size_t n = 0, k = 0;
    while (environ[n])
        n++;
    char **env = calloc(n + 2, sizeof(*env));
    if (!env)
        return NULL;
    for (size_t i = 0; i < n; i++)
        if (strncmp(environ[i], "LD_PRELOAD=", 11) != 0)
            env[k++] = environ[i];
    if (lib && *lib) {
        size_t len = strlen(lib) + 12;
        if (!(env[k] = malloc(len)))
            return NULL;
        snprintf(env[k++], len, "LD_PRELOAD=%s", lib);
    }
    env[k] = NULL;
    return env;
}

static int run(const char *self, const char *lib, const char *n, const char *dir)
{
    int fds[2];
    char **env = child_env(lib);
    int64_t t[3];
    struct rusage ru;
    int status;

    if (!env || pipe(fds) != 0)
        return 1;
    pid_t pid = fork();
    if (pid < 0)
        return 1;
    if (pid == 0) {
        close(fds[0]);
        if (fds[1] != 3) {
            dup2(fds[1], 3);
            close(fds[1]);
        }
        char *argv[] = {(char *)self, "work", (char *)n, (char *)dir, NULL};
        execve("/proc/self/exe", argv, env);
        _exit(127);
    }
    close(fds[1]);
    size_t got = 0;
    while (got < sizeof(t)) {
        ssize_t r = read(fds[0], (char *)t + got, sizeof(t) - got);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            break;
        got += (size_t)r;
    }
    if (wait4(pid, &status, 0, &ru) != pid)
        return 1;
    int64_t end = now_ns();
    close(fds[0]);
    if (got != sizeof(t) || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        fprintf(stderr, "shutdown: the child failed (status %d)\n", status);
        return 1;
    }
    printf("%s %.3f %.3f %ld %.3f\n", n, (double)(end - t[1]) / 1e6, (double)(t[1] - t[0]) / 1e6,
           ru.ru_maxrss, (double)(cpu_ns(&ru) - t[2]) / 1e6);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc == 4 && strcmp(argv[1], "work") == 0)
        return work(strtol(argv[2], NULL, 10), argv[3]);
    if (argc == 4 && strcmp(argv[1], "run") == 0)
        return run(argv[0], "", argv[2], argv[3]);
    if (argc == 6 && strcmp(argv[1], "run") == 0 && strcmp(argv[2], "-p") == 0)
        return run(argv[0], argv[3], argv[4], argv[5]);
    fputs("usage: shutdown run [-p LIB] N DIR\n       shutdown work N DIR\n", stderr);
    return 2;
}
