/* Fatal signals and the sigaction/signal wrappers (and signal()'s relatives:
 * bsd_signal, ssignal, sysv_signal, __sysv_signal, sigset).
 *
 * For each fatal signal the runtime handles, the kernel's action is the
 * runtime's handler, and the program's own action (what it set, or the
 * default) is kept here; the wrappers set and report that program
 * action, so the program sees exactly what it set. On delivery:
 * - the program has a handler: it is called (with the mask and flags the
 *   program asked for; SA_RESETHAND resets the program's action). Nothing
 *   else happens: a handler that returns, longjmps or exits decides.
 * - the action is the default: the log is written, the kernel's action
 *   becomes the default, and the signal takes its course (a fault recurs
 *   when the handler returns; a sent signal is sent again).
 * A signal the program ignores is left to the kernel. The runtime's own
 * calls use real_sigaction, never the wrappers. */
#include "signals.h"

#include <errno.h>
#include <signal.h>
#include <string.h>

#include "core.h"

static const int fatal_signals[] = {SIGSEGV, SIGBUS, SIGABRT, SIGTERM, SIGINT};
#define NFATAL (sizeof(fatal_signals) / sizeof(fatal_signals[0]))

struct fatal {
    _Atomic int installed;   /* 1: the kernel's action is on_fatal_signal */
    struct sigaction prog;   /* the program's action while installed */
};
static struct fatal fatal[NFATAL];

static int (*real_sigaction)(int, const struct sigaction *, struct sigaction *);
/* libc's signal() family; glibc implements each with an internal sigaction
 * that our sigaction wrapper never sees, so each is wrapped on its own. */
static sighandler_t (*real_signal)(int, sighandler_t);
static sighandler_t (*real_bsd_signal)(int, sighandler_t);
static sighandler_t (*real_ssignal)(int, sighandler_t);
static sighandler_t (*real_sysv_signal)(int, sighandler_t);
static sighandler_t (*real___sysv_signal)(int, sighandler_t);
static sighandler_t (*real_sigset)(int, sighandler_t);

int iol_sys_sigaction(int sig, const struct sigaction *act, struct sigaction *old)
{
    return real_sigaction ? real_sigaction(sig, act, old) : (errno = ENOSYS, -1);
}

static int fatal_index(int sig)
{
    for (size_t i = 0; i < NFATAL; i++)
        if (fatal_signals[i] == sig)
            return (int)i;
    return -1;
}

/* The handler of an action, whichever member of the union holds it. */
static void *handler_of(const struct sigaction *a)
{
    return (a->sa_flags & SA_SIGINFO) ? (void *)a->sa_sigaction : (void *)a->sa_handler;
}

static int is_default(const struct sigaction *a)
{
    return handler_of(a) == (void *)SIG_DFL;
}

static void on_fatal_signal(int sig, siginfo_t *info, void *ctx);

/* Make the runtime's handler the kernel's action for signal i, on behalf of
 * the program action prog (its mask and flags, except that SA_RESETHAND is
 * applied by the handler). @return as sigaction. */
static int install(size_t i, const struct sigaction *prog)
{
    struct sigaction act;
    memset(&act, 0, sizeof(act));
    act.sa_sigaction = on_fatal_signal;
    if (is_default(prog)) {
        act.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_RESTART;
        sigemptyset(&act.sa_mask);
    } else {
        act.sa_flags = (prog->sa_flags | SA_SIGINFO) & ~SA_RESETHAND;
        act.sa_mask = prog->sa_mask;
    }
    fatal[i].prog = *prog;
    int rc = real_sigaction(fatal_signals[i], &act, NULL);
    atomic_store(&fatal[i].installed, rc == 0);
    return rc;
}

static void on_fatal_signal(int sig, siginfo_t *info, void *ctx)
{
    int i = fatal_index(sig);
    if (i < 0)
        return;
    struct sigaction prog = fatal[i].prog;
    if (!is_default(&prog) && handler_of(&prog) != (void *)SIG_IGN) {
        if (prog.sa_flags & SA_RESETHAND) {
            memset(&fatal[i].prog, 0, sizeof(fatal[i].prog));
            fatal[i].prog.sa_handler = SIG_DFL;
        }
        if (prog.sa_flags & SA_SIGINFO)
            prog.sa_sigaction(sig, info, ctx);
        else
            prog.sa_handler(sig);
        return;
    }
    int saved = errno;
    iol_core_end_from_signal(sig);
    /* The default action from now on. A fault raised by an instruction
     * recurs when we return; anything sent (kill, raise, abort) is sent
     * again, and arrives once this handler returns. */
    struct sigaction dfl;
    memset(&dfl, 0, sizeof(dfl));
    dfl.sa_handler = SIG_DFL;
    sigemptyset(&dfl.sa_mask);
    if (real_sigaction(sig, &dfl, NULL) == 0)
        atomic_store(&fatal[i].installed, 0);
    int faulted = (sig == SIGSEGV || sig == SIGBUS) && info && info->si_code > 0;
    if (!faulted)
        raise(sig);
    errno = saved;
}

void iol_signals_install(void)
{
    for (size_t i = 0; i < NFATAL; i++) {
        struct sigaction old;
        if (real_sigaction(fatal_signals[i], NULL, &old) != 0)
            continue;
        /* Only where the program keeps the default action: a handler set
         * before the runtime started, or an ignored signal, stays as it is. */
        if (is_default(&old))
            install(i, &old);
    }
}

void iol_signals_reset(void)
{
    struct sigaction dfl;
    memset(&dfl, 0, sizeof(dfl));
    dfl.sa_handler = SIG_DFL;
    sigemptyset(&dfl.sa_mask);
    for (size_t i = 0; i < NFATAL; i++)
        if (atomic_load(&fatal[i].installed))
            real_sigaction(fatal_signals[i], &dfl, NULL);
    real_sigaction(SIGALRM, &dfl, NULL);
}

/* Should sigaction on signal i go through the program-action table? Yes
 * while the runtime's handler is installed, and, while the runtime records,
 * for any new action but "ignore". */
static int emulated(int i, const struct sigaction *act)
{
    if (i < 0)
        return 0;
    if (atomic_load(&fatal[i].installed))
        return 1;
    return act && handler_of(act) != (void *)SIG_IGN &&
           atomic_load_explicit(&iol_state, memory_order_acquire) == IOL_ON;
}

/* sigaction on a handled signal: set and report the program's action. */
static int emulate(int i, const struct sigaction *act, struct sigaction *old)
{
    struct sigaction prev;
    int sig = fatal_signals[i];

    if (atomic_load(&fatal[i].installed))
        prev = fatal[i].prog;
    else if (real_sigaction(sig, NULL, &prev) != 0)
        return -1;
    if (act) {
        int rc;
        if (handler_of(act) == (void *)SIG_IGN) {
            rc = real_sigaction(sig, act, NULL);
            if (rc == 0)
                atomic_store(&fatal[i].installed, 0);
        } else {
            rc = install((size_t)i, act);
        }
        if (rc != 0)
            return -1;
    }
    if (old)
        *old = prev;
    return 0;
}

IOL_EXPORT int sigaction(int sig, const struct sigaction *act, struct sigaction *old)
{
    (void)iol_active(); /* the first call of a process starts the runtime */
    int i = fatal_index(sig);
    if (!real_sigaction || !emulated(i, act))
        return real_sigaction ? real_sigaction(sig, act, old) : (errno = ENOSYS, -1);
    return emulate(i, act, old);
}

/* Set the program's handler of sig with the flags of one member of the
 * signal() family, or hand the call to real (libc's definition of that
 * member) when the runtime does not handle sig. @return the previous
 * handler, or SIG_ERR with errno set. */
static sighandler_t set_handler(int sig, sighandler_t handler, int flags,
                                sighandler_t (*real)(int, sighandler_t))
{
    (void)iol_active(); /* the first call of a process starts the runtime */
    int i = fatal_index(sig);
    struct sigaction act, old;
    memset(&act, 0, sizeof(act));
    act.sa_handler = handler;
    act.sa_flags = flags;
    sigemptyset(&act.sa_mask);
    if (!real_sigaction || !emulated(i, &act)) {
        if (real)
            return real(sig, handler);
        errno = ENOSYS;
        return SIG_ERR;
    }
    /* libc refuses it; the runtime's handler would otherwise call it. */
    if (handler == SIG_ERR) {
        errno = EINVAL;
        return SIG_ERR;
    }
    if (emulate(i, &act, &old) != 0)
        return SIG_ERR;
    /* For an SA_SIGINFO action, the union's other member, as glibc returns it. */
    return old.sa_handler;
}

/* signal() as glibc defines it (BSD semantics): the handler stays installed,
 * interrupted calls restart. */
IOL_EXPORT sighandler_t signal(int sig, sighandler_t handler)
{
    return set_handler(sig, handler, SA_RESTART, real_signal);
}

/* bsd_signal(): glibc's alias of signal() (X/Open before 2008). */
IOL_EXPORT sighandler_t bsd_signal(int sig, sighandler_t handler)
{
    return set_handler(sig, handler, SA_RESTART, real_bsd_signal);
}

/* ssignal(): glibc's SVID alias of signal(). */
IOL_EXPORT sighandler_t ssignal(int sig, sighandler_t handler)
{
    return set_handler(sig, handler, SA_RESTART, real_ssignal);
}

/* sysv_signal(): System V semantics, as glibc defines them: the action is
 * reset to the default on delivery, the signal is not blocked in its
 * handler, interrupted calls fail with EINTR. */
IOL_EXPORT sighandler_t sysv_signal(int sig, sighandler_t handler)
{
    return set_handler(sig, handler, SA_RESETHAND | SA_NODEFER, real_sysv_signal);
}

/* __sysv_signal(): what signal() calls in a program compiled for strict ISO C
 * or X/Open (<signal.h> redirects it there); sysv_signal()'s semantics. */
IOL_EXPORT sighandler_t __sysv_signal(int sig, sighandler_t handler)
{
    return set_handler(sig, handler, SA_RESETHAND | SA_NODEFER, real___sysv_signal);
}

/* sigset() as glibc defines it (System V): SIG_HOLD blocks sig and reports
 * its action; any other disposition is set (no flags) and sig unblocked. */
IOL_EXPORT sighandler_t sigset(int sig, sighandler_t disp)
{
    (void)iol_active();
    int i = fatal_index(sig);
    struct sigaction act, old;
    sigset_t set, oset;
    memset(&act, 0, sizeof(act));
    act.sa_handler = disp;
    sigemptyset(&act.sa_mask);
    /* SIG_HOLD changes no action: only an installed handler has one to report. */
    if (!real_sigaction || !emulated(i, disp == SIG_HOLD ? NULL : &act)) {
        if (real_sigset)
            return real_sigset(sig, disp);
        errno = ENOSYS;
        return SIG_ERR;
    }
    if (disp == SIG_ERR) {
        errno = EINVAL;
        return SIG_ERR;
    }
    sigemptyset(&set);
    sigaddset(&set, sig);
    if (disp == SIG_HOLD) {
        if (sigprocmask(SIG_BLOCK, &set, &oset) != 0)
            return SIG_ERR;
        if (sigismember(&oset, sig))
            return SIG_HOLD;
        return emulate(i, NULL, &old) == 0 ? old.sa_handler : SIG_ERR;
    }
    if (emulate(i, &act, &old) != 0 || sigprocmask(SIG_UNBLOCK, &set, &oset) != 0)
        return SIG_ERR;
    return sigismember(&oset, sig) ? SIG_HOLD : old.sa_handler;
}

/* <signal.h> marks sigset deprecated; naming it here is wrapping it, not using it. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
static const struct iol_binding bindings[] = {
    {"sigaction", (void *)sigaction, (void **)&real_sigaction},
    {"signal", (void *)signal, (void **)&real_signal},
    {"bsd_signal", (void *)bsd_signal, (void **)&real_bsd_signal},
    {"ssignal", (void *)ssignal, (void **)&real_ssignal},
    {"sysv_signal", (void *)sysv_signal, (void **)&real_sysv_signal},
    {"__sysv_signal", (void *)__sysv_signal, (void **)&real___sysv_signal},
    {"sigset", (void *)sigset, (void **)&real_sigset},
};
#pragma GCC diagnostic pop

const struct iol_binding_table iol_signal_bindings = {
    bindings, sizeof(bindings) / sizeof(bindings[0]),
};
