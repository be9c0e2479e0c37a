/* Fatal signals (SIGSEGV, SIGBUS, SIGABRT, SIGTERM, SIGINT): the log is
 * written when one of them is about to take its default action, and the
 * default action then runs. The runtime's handler stays in place when the
 * program installs its own (sigaction, signal, bsd_signal, ssignal,
 * sysv_signal, __sysv_signal, sigset): it calls the program's
 * handler, and writes the log only when the action in force is the default,
 * so a program with its own handlers behaves exactly as without the runtime,
 * and still gets its log when it dies of the signal. */
#ifndef IOL_RT_SIGNALS_H
#define IOL_RT_SIGNALS_H

#include <signal.h>

#include "real.h"

/* The binding table of sigaction and the signal() family. */
extern const struct iol_binding_table iol_signal_bindings;

/* libc's sigaction, never the wrapper: for the runtime's own use (a library
 * it loads that changes a signal's action behind the program's back).
 * @return as sigaction. */
int iol_sys_sigaction(int sig, const struct sigaction *act, struct sigaction *old);

/* Install the handler for each fatal signal whose action is the default
 * (a handler the program set before the runtime started, or an ignored
 * signal, stays as it is). Once per process, at the first start. */
void iol_signals_install(void);

/* Put back the default action where the runtime's handler is installed, and
 * SIGALRM's, whose alarm ends an overrunning writer (in the short-lived
 * process that writes the log after a signal). */
void iol_signals_reset(void);

#endif
