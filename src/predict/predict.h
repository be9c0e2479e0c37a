/* iolens predict: the CIOC model of the Vidya paper (Devarajan et al.) computed
 * from C and C++ sources with libclang. The pieces: the I/O call table
 * (iocalls.c), the expression evaluator (values.c), the program walk that
 * builds the blocks and their Table I parameters (extract.c, walk.c), the
 * CIOC variables and score (cioc.c), the model files (model.c), the
 * regression (calibrate.c, regress.c) and the output (output.c).
 * docs/predict.md describes the model and each choice made here. */
#ifndef IOLENS_PREDICT_H
#define IOLENS_PREDICT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Table I's parameters, P1..P15 (index 0..14). */
enum pr_param {
    PR_LOOP_ITERS,  /* P1: iterations of the loops whose bodies make I/O calls */
    PR_IO_OPS,      /* P2: I/O calls executed */
    PR_BYTES,       /* P3: bytes read and written */
    PR_SYNC_OPS,    /* P4: blocking (not asynchronous) I/O calls */
    PR_COND_OPS,    /* P5: I/O calls under an if, switch or ?: */
    PR_BINARY_OPS,  /* P6: data calls in binary format (not formatted text) */
    PR_FLUSHES,     /* P7: flush and sync calls */
    PR_FILE_SIZE,   /* P8: size of the existing files opened */
    PR_FILES,       /* P9: files opened */
    PR_MEMORY,      /* P10: space complexity: bytes of memory the code touches */
    PR_STACK,       /* P11: bytes of local variables */
    PR_RANDOM_OPS,  /* P12: calls at data-dependent (random) offsets */
    PR_SMALL_OPS,   /* P13: data calls of known size under PR_SMALL_BYTES */
    PR_PROCS,       /* P14: processes of the application */
    PR_CONCURRENCY, /* P15: concurrency of the storage device */
    PR_NPARAMS
};

#define PR_NVARS 17        /* const, X1..X16 */
#define PR_SMALL_BYTES 4096 /* a request under this many bytes is small (P13) */

enum pr_kind { PR_FILE, PR_FUNCTION, PR_LOOP, PR_BRANCH };

/* The interfaces of I/O calls, as bits of pr_block.ifaces. */
enum pr_iface { PR_POSIX = 1, PR_STDIO = 2, PR_MPIIO = 4, PR_HDF5 = 8, PR_PNETCDF = 16 };

/* One code block and what the walk found in its own lines. */
struct pr_block {
    enum pr_kind kind;
    char *name;     /* function name, "for", "while", "do", "if", "switch", file path */
    char *file;     /* source file (as given) */
    unsigned line;
    int function;   /* index of the function block it is in (itself for a function), -1 for a file */
    double p[PR_NPARAMS];              /* values; unknown ones hold the scored substitute */
    unsigned char unknown[PR_NPARAMS]; /* 1: not determined by the source */
    char trips[96];  /* a loop's trip count as written, when not a constant */
    double trip_count; /* a loop's trips per entry (-1: unknown) */
    double reads, writes, collective, independent; /* data calls, for the suggestions */
    unsigned ifaces;
    int reached;     /* a function: walked from main (its counts are per run) */
    int stack_done;  /* locals counted once */
    uint64_t key[4]; /* identity: file id and offset */
    double x[PR_NVARS]; /* X0 = 1, X1..X16 */
    double cioc;     /* the formula's value (I/O blocks) */
    double score;    /* predicted I/O intensity in [0,1]; 0 without I/O */
    int rank;        /* 1 = most I/O-intensive */
};

/* What a model's linear value (CIOC) predicts: the logarithm of the I/O
 * intensity (Table II: its dependent variable's mean is -6.78), or the
 * intensity itself. */
enum pr_dependent { PR_DEP_LOG, PR_DEP_INTENSITY };

/* A model: the coefficients beta0..beta16 (0 for an excluded variable). */
struct pr_model {
    double beta[PR_NVARS];
    enum pr_dependent dependent;
    char name[64];
};

/* How --calibrate fits: which stepwise direction, and on what. */
enum pr_stepwise_dir { PR_STEP_FORWARD, PR_STEP_BACKWARD };

/* The words options and model files spell each value with, by enum value. */
extern const char *const pr_dependent_names[2];
extern const char *const pr_direction_names[2];

/* The enum value whose name (in names, 2 of them) is word, or -1. */
int pr_name_index(const char *const names[2], const char *word);
struct pr_fit_options {
    enum pr_stepwise_dir direction;
    enum pr_dependent dependent;
};

/* What the user tells the analysis, and what it assumes for unknowns. */
struct pr_options {
    const char *build_dir;   /* -p: folder holding compile_commands.json, or NULL */
    char **extra_args;       /* compiler flags after `--`, for files not in the database */
    int n_extra;
    double assume_trips;     /* trips scored for a loop whose count is unknown */
    double procs;            /* P14, <= 0: unknown (1 when no MPI_Init is seen) */
    double concurrency;      /* P15, <= 0: unknown */
};

/* The analysis of a set of sources: every block found. */
struct pr_program {
    struct pr_block *blocks;
    size_t n, cap;
    int has_mpi_init;
    int parse_errors;  /* diagnostics of severity error or fatal, all files */
    char *first_error; /* the first one, "file:line: text" */
};

/* Parse files (n of them) and fill prog with every block and its parameters.
 * On failure err (errlen bytes) says why in one line.
 * @return 0, or -1 (unreadable or non-C file, bad compile database). */
int pr_analyze(struct pr_program *prog, char **files, int n, const struct pr_options *opt,
               char *err, size_t errlen);

/* Compute X1..X16, the CIOC value, the score and the rank of every block. */
void pr_score(struct pr_program *prog, const struct pr_model *model);

/* Free what pr_analyze allocated. */
void pr_program_free(struct pr_program *prog);

/* The paper's Table II coefficients. */
void pr_model_paper(struct pr_model *m);

/* The I/O intensity, in [0,1], that m predicts from a block's CIOC value. */
double pr_model_intensity(const struct pr_model *m, double cioc);

/* Read a model file: "paper" gives Table II, "calibrated" the model fitted on
 * the benchmark set (bench/predict/calibrated.model, built in), the default.
 * @return 0, or -1 with err set. */
int pr_model_load(struct pr_model *m, const char *path, char *err, size_t errlen);

/* Write m as a model file, with comment lines (each a "# " line) from note.
 * @return 0, or -1 with errno set. */
int pr_model_save(const struct pr_model *m, const char *path, const char *note);

/* Table I's short names ("loop_iterations", ...), for output and docs. */
extern const char *const pr_param_names[PR_NPARAMS];

/* The kind's name: "file", "function", "loop", "branch". */
const char *pr_kind_name(enum pr_kind k);

/* The optimisations a block suggests (Section IV-A), comma-separated, into
 * buf; empty when none. */
void pr_suggest(const struct pr_block *b, char *buf, size_t len);

/* Print the ranked blocks (top at most `top` of them, 0: all) as text or JSON. */
void pr_print_text(FILE *out, const struct pr_program *prog, const struct pr_model *m, int top);
void pr_print_json(FILE *out, const struct pr_program *prog, const struct pr_model *m);

/* Fit a model to measured runs (run manifests, docs/predict.md) as fit says,
 * print the fit (R^2, per-block error) to out and fill model.
 * @return 0, or -1 with err set. */
int pr_calibrate(char **runs, int n, const struct pr_options *opt,
                 const struct pr_fit_options *fit, struct pr_model *model, FILE *out, char *err,
                 size_t errlen);

#endif
