/* How a process ends: the constructor and destructor, _exit/_Exit, exec*,
 * fork, and fatal signals. Each writes the log exactly once (iol_core_end). */
#ifndef IOL_RT_LIFECYCLE_H
#define IOL_RT_LIFECYCLE_H

#include "real.h"

/* The binding table of the lifecycle wrappers (_exit, _Exit, exec*). */
extern const struct iol_binding_table iol_lifecycle_bindings;

/* Install what must be installed once per process, at the first start:
 * fatal-signal handlers (only where the program left the default action),
 * the fork child handler and the quick_exit handler. */
void iol_lifecycle_install(void);

/* Put back the default action of the signals we handle, and SIGALRM's (in a
 * forked writer). */
void iol_lifecycle_reset_signals(void);

#endif
