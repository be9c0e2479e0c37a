/* The real-definition table of iolens-static-syms (syms.c), which only lists
 * the binding tables: no real definitions. The archive's table is generated
 * by mkarchive.sh. */
#include "core/real.h"

const struct iol_static_real iol_static_reals[] = {{NULL, NULL}};
