/* The parts of iolens run (run.c): the job's process tree (run_tree.c), the
 * job log gathered from its processes' logs (run_gather.c), and the check
 * for programs the runtime cannot instrument (run_static.c). */
#ifndef IOLENS_CLI_RUN_H
#define IOLENS_CLI_RUN_H

#include <sys/types.h>

/* Exit statuses of iolens run itself, as env(1) and the shells use them, so
 * that they stay apart from the program's own. */
enum { RUN_FAILED = 125, RUN_CANNOT_EXEC = 126, RUN_NOT_FOUND = 127 };

/* How the job's first process ended. */
struct run_result {
    pid_t root;     /* its process id (the job's) */
    int status;     /* its wait status */
    int remaining;  /* processes of the tree still running when iolens run gave up waiting */
};

/* Run argv[0] (looked up in PATH as a shell does) with argv as a child of
 * this process, with IOLENS_RUN_JOBID set to its pid, forwarding SIGINT,
 * SIGTERM, SIGHUP, SIGQUIT, SIGUSR1 and SIGUSR2 to it (except those a
 * terminal sent to the whole process group, which it got already); then wait
 * for it and, as the subreaper of its tree, for the processes it left behind
 * (at most RUN_GRACE_SECONDS more). @return 0 with *res filled, or
 * RUN_FAILED, RUN_CANNOT_EXEC or RUN_NOT_FOUND after printing one line. */
int run_tree(char **argv, struct run_result *res);

#define RUN_GRACE_SECONDS 10

/* Exit as the job's first process ended: its exit status, or death by the
 * same signal (without a core dump of iolens run's own). */
_Noreturn void run_exit_like(int status);

/* Gather the logs the processes of the job left in dir (IOLENS_RUN_DIR) into
 * one job log (docs/runtime.md, "iolens run"): record files of killed
 * processes are recovered first, processes that did no I/O are left out, the
 * others get ranks in the order they started. The log goes where the
 * settings say (IOLENS_LOGFILE, IOLENS_LOGPATH, their DARSHAN_ forms and the
 * config file's keys, else the current directory). dir is removed unless
 * remaining processes may still write into it. Problems are one line each.
 * @return 0, or 1 if the job log could not be written. */
int run_gather(const char *dir, const struct run_result *res);

/* Warn (one line) when the program execvp would run for prog is a statically
 * linked ELF executable, which LD_PRELOAD cannot instrument. */
void run_warn_static(const char *prog);

#endif
