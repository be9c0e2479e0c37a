/* What the pieces of iolens predict share among themselves (not the CLI). */
#ifndef IOLENS_PREDICT_INTERNAL_H
#define IOLENS_PREDICT_INTERNAL_H

#include <clang-c/Index.h>

#include "predict.h"

/* What an I/O call does. */
enum pr_op { OP_OPEN, OP_CLOSE, OP_READ, OP_WRITE, OP_FLUSH, OP_SEEK, OP_META };

enum {
    IO_TEXT = 1,       /* formatted text, not binary data */
    IO_ASYNC = 2,      /* returns before the transfer is done */
    IO_COLLECTIVE = 4, /* MPI-IO collective (or PnetCDF _all) */
    IO_PREFIX = 8,     /* the name is a prefix (ncmpi_put_vara_double_all...) */
    IO_LITSIZE = 16,   /* size is the length of the string literal in size_arg */
    IO_ONEBYTE = 32,   /* one byte per call (fputc) */
};

/* One I/O function: its interface, operation and where its arguments are
 * (-1: none). Size = arg[size_arg] * arg[count_arg] (fread's two), times
 * the MPI datatype's size when dtype_arg is set. */
struct pr_iofunc {
    const char *name;
    enum pr_iface iface;
    enum pr_op op;
    int size_arg, count_arg, dtype_arg, offset_arg, path_arg;
    unsigned flags;
};

/* The I/O function called name, or NULL. */
const struct pr_iofunc *pr_iofunc_find(const char *name);

/* 1 if name is a pseudo-random number function (rand, random, lrand48...). */
int pr_is_random_source(const char *name);

/* Size in bytes of the MPI datatype spelled name ("MPI_DOUBLE"), 0 if unknown. */
int pr_mpi_type_size(const char *name);

/* A value of the evaluator: known (a number) or not. */
struct pr_val {
    double v;
    int known;
};

/* Variables with known values during the walk of one function instance. */
struct pr_binding {
    CXCursor decl;
    struct pr_val val;
};
struct pr_env {
    struct pr_binding *b;
    size_t n, cap;
};

/* The value of expression e under env (constants, macros, sizeof, enum,
 * const globals, bound variables and arithmetic on them). */
struct pr_val pr_eval(CXCursor e, const struct pr_env *env);

/* The value of variable decl: bound in env, or a const-qualified
 * variable's constant initializer; else unknown. */
struct pr_val pr_var_value(CXCursor decl, const struct pr_env *env);

/* Bind decl to v in env (replacing an earlier binding). @return 0 or -1 (memory). */
int pr_env_set(struct pr_env *env, CXCursor decl, struct pr_val v);

/* Forget every variable that stmt assigns, increments or takes the address of. */
void pr_env_forget_assigned(struct pr_env *env, CXCursor stmt);

/* The spelling of e's operator (BinaryOperator, UnaryOperator,
 * CompoundAssignOperator) into buf; "" if not found. */
void pr_operator(CXCursor e, char *buf, size_t len);

/* The source text of e (its tokens joined by spaces) into buf, cut to len. */
void pr_source_text(CXCursor e, char *buf, size_t len);

/* The children of c, in order, into out (at most max). @return their number. */
unsigned pr_children(CXCursor c, CXCursor *out, unsigned max);

/* The expression under implicit casts and parentheses. */
CXCursor pr_strip(CXCursor e);

/* The trip count of loop (a for, while or do statement) per entry, under env;
 * when unknown, text gets the bound as written. */
struct pr_val pr_trip_count(CXCursor loop, const struct pr_env *env, char *text, size_t len);

/* The share of its executions in which the branch condition cond holds: 0 or
 * 1 when its value is known; 1/K for `e % K == c` (1 - 1/K for !=), K and c
 * known, as when e steps through consecutive values; else -1, not determined
 * (each branch is then a possible path, taken in full). */
double pr_branch_share(CXCursor cond, const struct pr_env *env);

/* 1 if the offset expression e depends on data (a pseudo-random number, an
 * array element, a value returned by a call) rather than on loop counters
 * and constants; body is the function, whose assignments are followed. */
int pr_offset_is_random(CXCursor e, CXCursor body);

/* The name of the function a CallExpr calls ("" if indirect). */
void pr_callee_name(CXCursor call, char *buf, size_t len);

/* The string literal e (through casts) into buf. @return its length, or -1. */
long pr_string_literal(CXCursor e, char *buf, size_t len);

/* Append a block to prog. @return its index, or -1 (memory). */
long pr_block_add(struct pr_program *prog, enum pr_kind kind, const char *name, const char *file,
                  unsigned line);

/* Walk every function defined in the tus (n of them) and fill prog's blocks
 * (functions reached from main with their per-run counts, then the others
 * once). @return 0, or -1 (memory). */
int pr_walk(struct pr_program *prog, CXTranslationUnit *tus, int n, const struct pr_options *opt);

#endif
