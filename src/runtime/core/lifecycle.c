/* Process start and end. The log is written exactly once per process image:
 * at exit (the destructor runs after the program's atexit handlers), at
 * _exit/_Exit, before exec* replaces the image, or from a fatal signal whose
 * action is the default. A forked child starts its own record set. */
#include "lifecycle.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "core.h"
#include "job.h"
#include "signals.h"

static void (*real__exit)(int) __attribute__((noreturn));
static void (*real__Exit)(int) __attribute__((noreturn));
static int (*real_execve)(const char *, char *const[], char *const[]);
static int (*real_execv)(const char *, char *const[]);
static int (*real_execvp)(const char *, char *const[]);
static int (*real_execvpe)(const char *, char *const[], char *const[]);
static int (*real_fexecve)(int, char *const[], char *const[]);
static int (*real_execveat)(int, const char *, char *const[], char *const[], int);

/* ---- start and normal end ---- */

/* The C library (glibc) passes main's arguments to ELF constructors. */
__attribute__((constructor)) static void iol_constructor(int argc, char **argv)
{
    iol_job_set_args(argc, argv);
    iol_core_start();
}

__attribute__((destructor)) static void iol_destructor(void)
{
    iol_core_end(IOL_END_EXIT);
}

static void on_quick_exit(void)
{
    iol_core_end(IOL_END_EXIT);
}

static void on_fork_child(void)
{
    iol_core_fork_child();
}

IOL_EXPORT void _exit(int status)
{
    if (iol_active())
        iol_core_end(IOL_END_EXIT);
    if (real__exit)
        real__exit(status);
    syscall(SYS_exit_group, status);
    __builtin_unreachable();
}

IOL_EXPORT void _Exit(int status)
{
    if (iol_active())
        iol_core_end(IOL_END_EXIT);
    if (real__Exit)
        real__Exit(status);
    syscall(SYS_exit_group, status);
    __builtin_unreachable();
}

/* ---- fatal signals (signals.c), fork, quick_exit ---- */

void iol_lifecycle_install(void)
{
    iol_signals_install();
    pthread_atfork(NULL, NULL, on_fork_child);
    at_quick_exit(on_quick_exit);
}

void iol_lifecycle_reset_signals(void)
{
    iol_signals_reset();
}

/* ---- exec ---- */

/* Before an exec: write the log of the image about to be replaced, if it
 * holds records. @return whether it held none (see after_failed_exec). */
static int before_exec(void)
{
    if (!iol_active())
        return 0;
    int empty = !iol_core_holds_records();
    iol_core_end(IOL_END_EXEC);
    return empty;
}

/* After a failed exec: the process goes on, with a fresh record set
 * (iol_core_restart). */
static void after_failed_exec(int empty)
{
    int saved = errno;
    iol_core_restart(empty);
    errno = saved;
}

static int missing(void)
{
    errno = ENOSYS;
    return -1;
}

/* The bodies of execve, execv and execvp, which execle, execl and execlp
 * share: a wrapper never calls another exported wrapper. */
static int do_execve(const char *path, char *const argv[], char *const envp[])
{
    int empty = before_exec();
    int ret = real_execve(path, argv, envp);
    after_failed_exec(empty);
    return ret;
}

static int do_execv(const char *path, char *const argv[])
{
    int empty = before_exec();
    int ret = real_execv(path, argv);
    after_failed_exec(empty);
    return ret;
}

static int do_execvp(const char *file, char *const argv[])
{
    int empty = before_exec();
    int ret = real_execvp(file, argv);
    after_failed_exec(empty);
    return ret;
}

IOL_EXPORT int execve(const char *path, char *const argv[], char *const envp[])
{
    return do_execve(path, argv, envp);
}

IOL_EXPORT int execv(const char *path, char *const argv[])
{
    return do_execv(path, argv);
}

IOL_EXPORT int execvp(const char *file, char *const argv[])
{
    return do_execvp(file, argv);
}

IOL_EXPORT int execvpe(const char *file, char *const argv[], char *const envp[])
{
    if (!real_execvpe)
        return missing();
    int empty = before_exec();
    int ret = real_execvpe(file, argv, envp);
    after_failed_exec(empty);
    return ret;
}

IOL_EXPORT int fexecve(int fd, char *const argv[], char *const envp[])
{
    int empty = before_exec();
    int ret = real_fexecve(fd, argv, envp);
    after_failed_exec(empty);
    return ret;
}

IOL_EXPORT int execveat(int dirfd, const char *path, char *const argv[], char *const envp[],
                        int flags)
{
    if (!real_execveat)
        return missing();
    int empty = before_exec();
    int ret = real_execveat(dirfd, path, argv, envp, flags);
    after_failed_exec(empty);
    return ret;
}

/* execl, execlp, execle: the list becomes a vector on the stack. */
#define EXECL_MAX_ARGS 4096

static int count_args(const char *arg0, va_list ap)
{
    int n = 1;
    va_list c;
    va_copy(c, ap);
    if (arg0)
        while (va_arg(c, const char *) && n < EXECL_MAX_ARGS)
            n++;
    va_end(c);
    return arg0 ? n : 0;
}

static void fill_args(char **argv, int n, const char *arg0, va_list ap)
{
    argv[0] = (char *)arg0;
    for (int i = 1; i < n; i++)
        argv[i] = va_arg(ap, char *);
    argv[n] = NULL;
}

IOL_EXPORT int execl(const char *path, const char *arg, ...)
{
    va_list ap;
    va_start(ap, arg);
    int n = count_args(arg, ap);
    char *argv[n + 1];
    fill_args(argv, n, arg, ap);
    va_end(ap);
    return do_execv(path, argv);
}

IOL_EXPORT int execlp(const char *file, const char *arg, ...)
{
    va_list ap;
    va_start(ap, arg);
    int n = count_args(arg, ap);
    char *argv[n + 1];
    fill_args(argv, n, arg, ap);
    va_end(ap);
    return do_execvp(file, argv);
}

IOL_EXPORT int execle(const char *path, const char *arg, ...)
{
    va_list ap;
    va_start(ap, arg);
    int n = count_args(arg, ap);
    char *argv[n + 1];
    fill_args(argv, n, arg, ap);
    if (n > 0)
        (void)va_arg(ap, char *); /* the NULL that ends the list */
    char *const *envp = va_arg(ap, char *const *);
    va_end(ap);
    return do_execve(path, argv, envp);
}

/* execl, execlp and execle share the bodies of execv, execvp and execve, so
 * their own libc definitions are looked up but never called. */
static void *unused_execl, *unused_execlp, *unused_execle;

static const struct iol_binding bindings[] = {
    {"_exit", (void *)_exit, (void **)&real__exit},
    {"_Exit", (void *)_Exit, (void **)&real__Exit},
    {"execve", (void *)execve, (void **)&real_execve},
    {"execv", (void *)execv, (void **)&real_execv},
    {"execvp", (void *)execvp, (void **)&real_execvp},
    {"execvpe", (void *)execvpe, (void **)&real_execvpe},
    {"fexecve", (void *)fexecve, (void **)&real_fexecve},
    {"execveat", (void *)execveat, (void **)&real_execveat},
    {"execl", (void *)execl, &unused_execl},
    {"execlp", (void *)execlp, &unused_execlp},
    {"execle", (void *)execle, &unused_execle},
};

const struct iol_binding_table iol_lifecycle_bindings = {
    bindings, sizeof(bindings) / sizeof(bindings[0]),
};
