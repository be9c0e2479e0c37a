/* iolens run's process tree: the program runs as our child, signals sent to
 * iolens run reach it, and iolens run, the subreaper of the tree, waits for
 * every process of it before gathering their logs. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "run.h"

static const int forwarded[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2};
#define NFORWARDED (sizeof(forwarded) / sizeof(*forwarded))

static volatile sig_atomic_t child_pid;

/* A signal for the program: pass it on, unless the terminal sent it to the
 * whole foreground process group (Ctrl-C), which the program is in too. */
static void forward(int sig, siginfo_t *si, void *ctx)
{
    (void)ctx;
    if (si && si->si_code == SI_KERNEL)
        return;
    if (child_pid > 0)
        kill((pid_t)child_pid, sig);
}

/* Install the forwarding handlers (or, in the child, the defaults) and set
 * the mask to old. */
static void signals(int install, const sigset_t *old)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof(sa));
    sigemptyset(&sa.sa_mask);
    if (install) {
        sa.sa_sigaction = forward;
        sa.sa_flags = SA_SIGINFO | SA_RESTART;
    } else {
        sa.sa_handler = SIG_DFL;
    }
    for (size_t i = 0; i < NFORWARDED; i++)
        sigaction(forwarded[i], &sa, NULL);
    sigprocmask(SIG_SETMASK, old, NULL);
}

/* In the child: exec the program; on failure report errno through fd. */
static _Noreturn void child(char **argv, int fd, const sigset_t *old)
{
    char id[24];
    signals(0, old);
    snprintf(id, sizeof(id), "%ld", (long)getpid());
    if (setenv("IOLENS_RUN_JOBID", id, 1) == 0)
        execvp(argv[0], argv);
    int err = errno;
    ssize_t n = write(fd, &err, sizeof(err));
    (void)n;
    _exit(127);
}

/* Reap every process of the tree; the root's status into *res. Once the
 * root has ended, wait at most RUN_GRACE_SECONDS for the others. */
static void reap(struct run_result *res)
{
    int root_done = 0, st;
    struct timespec end = {0, 0}, now, nap = {0, 10 * 1000 * 1000};

    for (;;) {
        pid_t p = waitpid(-1, &st, root_done ? WNOHANG : 0);
        if (p < 0 && errno == EINTR)
            continue;
        if (p < 0)
            break; /* ECHILD: the whole tree has ended */
        if (p == res->root) {
            res->status = st;
            root_done = 1;
            child_pid = 0;
            clock_gettime(CLOCK_MONOTONIC, &end);
            end.tv_sec += RUN_GRACE_SECONDS;
        } else if (p == 0) {
            clock_gettime(CLOCK_MONOTONIC, &now);
            if (now.tv_sec > end.tv_sec ||
                (now.tv_sec == end.tv_sec && now.tv_nsec >= end.tv_nsec)) {
                res->remaining = 1;
                break;
            }
            nanosleep(&nap, NULL);
        }
    }
}

int run_tree(char **argv, struct run_result *res)
{
    sigset_t block, old;
    int pipefd[2], err = 0;

    memset(res, 0, sizeof(*res));
    /* Orphans of the tree come to us, not to init: their logs are the job's. */
    prctl(PR_SET_CHILD_SUBREAPER, 1);
    if (pipe2(pipefd, O_CLOEXEC) != 0)
        return cli_say("%s", strerror(errno)), RUN_FAILED;
    fflush(NULL);
    sigemptyset(&block);
    for (size_t i = 0; i < NFORWARDED; i++)
        sigaddset(&block, forwarded[i]);
    sigprocmask(SIG_BLOCK, &block, &old);
    pid_t pid = fork();
    if (pid == 0)
        child(argv, pipefd[1], &old);
    close(pipefd[1]);
    if (pid < 0) {
        err = errno;
        sigprocmask(SIG_SETMASK, &old, NULL);
        close(pipefd[0]);
        return cli_say("%s", strerror(err)), RUN_FAILED;
    }
    res->root = pid;
    child_pid = pid;
    signals(1, &old);
    ssize_t n;
    do {
        n = read(pipefd[0], &err, sizeof(err));
    } while (n < 0 && errno == EINTR);
    close(pipefd[0]);
    if (n == (ssize_t)sizeof(err)) { /* exec failed */
        while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
            ;
        if (err == ENOENT && !strchr(argv[0], '/'))
            cli_error(argv[0], "command not found");
        else
            cli_error(argv[0], "%s", strerror(err));
        return err == ENOENT ? RUN_NOT_FOUND : RUN_CANNOT_EXEC;
    }
    reap(res);
    return 0;
}

_Noreturn void run_exit_like(int status)
{
    if (WIFSIGNALED(status)) {
        int sig = WTERMSIG(status);
        struct rlimit none = {0, 0};
        sigset_t one;
        setrlimit(RLIMIT_CORE, &none); /* the program dumped its own core */
        signal(sig, SIG_DFL);
        sigemptyset(&one);
        sigaddset(&one, sig);
        sigprocmask(SIG_UNBLOCK, &one, NULL);
        fflush(NULL);
        raise(sig);
        exit(128 + sig);
    }
    exit(WIFEXITED(status) ? WEXITSTATUS(status) : RUN_FAILED);
}
