/* iolens predict: rank the code blocks of C sources by predicted I/O
 * intensity (Vidya's CIOC formula), or fit the formula's coefficients to
 * measured runs (--calibrate). The analysis is src/predict/. */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "../predict/predict.h"
#include "cli.h"

static const char predict_usage[] =
    "usage: iolens predict [options] FILE... [-- COMPILER-FLAGS...]\n"
    "       iolens predict --calibrate [--fit forward|backward]\n"
    "              [--dependent intensity|ln] [-o MODEL] RUN...\n"
    "\n"
    "Predict, from the source alone, how I/O-intensive each code block (file,\n"
    "function, loop, branch) is, with the CIOC formula of the Vidya paper\n"
    "(Devarajan et al.): Table I's parameters are read from the code with libclang,\n"
    "made into the variables X1..X16 and weighed by the model's coefficients.\n"
    "Blocks are printed most I/O-intensive first, with file:line, the parameters\n"
    "behind the score (unknown when the source does not determine them) and the\n"
    "optimisations they suggest. See docs/predict.md.\n"
    "\n"
    "  -p, --build-dir DIR  read each file's compiler flags from\n"
    "                       DIR/compile_commands.json (files it does not list\n"
    "                       take the flags after --)\n"
    "  --json               print {\"blocks\": [...]}, every block\n"
    "  --model M            'calibrated' (the default: the model fitted on the\n"
    "                       project's benchmark set, built in), 'paper' (Table\n"
    "                       II's coefficients) or a model file written by\n"
    "                       --calibrate\n"
    "  --top N              print the first N blocks (text; default 30, 0: all)\n"
    "  --assume-trips N     trips scored for a loop whose count the source does\n"
    "                       not give (default 100; shown as unknown)\n"
    "  --procs N            processes the program runs with (P14; default 1\n"
    "                       without MPI_Init, else unknown)\n"
    "  --concurrency N      concurrent accesses the storage serves well (P15;\n"
    "                       default unknown)\n"
    "  --calibrate          fit the coefficients to measured runs: each RUN is a\n"
    "                       JSON file naming the program's sources and giving its\n"
    "                       measured I/O by call site and time by function\n"
    "                       (docs/predict.md); prints R^2 and each function's error\n"
    "  --fit forward|backward\n"
    "                       with --calibrate: the stepwise direction (default\n"
    "                       forward: variables enter while their |t| >= 2;\n"
    "                       backward: all enter, those with |t| < 2 leave)\n"
    "  --dependent intensity|ln\n"
    "                       with --calibrate: fit the measured intensity itself\n"
    "                       (the default) or its logarithm (as Table II was)\n"
    "  -o, --output MODEL   with --calibrate: write the model file there\n"
    "\n"
    "Exit status: 0, 1 when a file cannot be read or analysed, 2 for wrong usage.\n";

enum {
    OPT_JSON = 256,
    OPT_MODEL,
    OPT_TOP,
    OPT_TRIPS,
    OPT_PROCS,
    OPT_CONC,
    OPT_CALIBRATE,
    OPT_FIT,
    OPT_DEPENDENT
};

/* Sorted by name. */
static const struct option predict_options[] = {
    {"assume-trips", required_argument, NULL, OPT_TRIPS},
    {"build-dir", required_argument, NULL, 'p'},
    {"calibrate", no_argument, NULL, OPT_CALIBRATE},
    {"concurrency", required_argument, NULL, OPT_CONC},
    {"dependent", required_argument, NULL, OPT_DEPENDENT},
    {"fit", required_argument, NULL, OPT_FIT},
    {"json", no_argument, NULL, OPT_JSON},
    {"model", required_argument, NULL, OPT_MODEL},
    {"output", required_argument, NULL, 'o'},
    {"procs", required_argument, NULL, OPT_PROCS},
    {"top", required_argument, NULL, OPT_TOP},
    {NULL, 0, NULL, 0},
};

/* A number option's value. @return 0, or 2 after the usage error. */
static int number_arg(const char *opt, const char *arg, double min, double *out)
{
    char *end;
    errno = 0;
    double v = strtod(arg, &end);
    if (errno || end == arg || *end || v < min)
        return cli_usage_error("predict", "%s: '%s' is not a number >= %g", opt, arg, min);
    *out = v;
    return 0;
}

static int run_calibrate(char **runs, int n, const struct pr_options *opt,
                         const struct pr_fit_options *how, const char *output)
{
    struct pr_model model;
    char err[512];
    if (pr_calibrate(runs, n, opt, how, &model, stdout, err, sizeof err))
        return cli_say("%s", err);
    if (output) {
        char note[256];
        snprintf(note, sizeof note, "fitted by iolens predict --calibrate on %d runs", n);
        if (pr_model_save(&model, output, note))
            return cli_error(output, "%s", strerror(errno));
        printf("model written to %s\n", output);
    }
    return 0;
}

static int cli_predict(int argc, char **argv)
{
    struct pr_options opt = {.assume_trips = 100};
    const char *model_name = "calibrated", *output = NULL;
    struct pr_fit_options how = {PR_STEP_FORWARD, PR_DEP_INTENSITY};
    int fit_given = 0;
    double top = 30;
    int json = 0, calibrate = 0, c, bad = 0;
    /* what follows "--" are compiler flags, kept from getopt's permutation */
    int nargs = 1;
    while (nargs < argc && strcmp(argv[nargs], "--"))
        nargs++;
    if (nargs < argc) {
        opt.extra_args = argv + nargs + 1;
        opt.n_extra = argc - nargs - 1;
    }
    optind = 1;
    while ((c = cli_getopt("predict", nargs, argv, ":p:o:", predict_options)) != -1) {
        switch (c) {
        case 'p': opt.build_dir = optarg; break;
        case 'o': output = optarg; break;
        case OPT_JSON: json = 1; break;
        case OPT_MODEL: model_name = optarg; break;
        case OPT_CALIBRATE: calibrate = 1; break;
        case OPT_TOP: bad = number_arg("--top", optarg, 0, &top); break;
        case OPT_TRIPS: bad = number_arg("--assume-trips", optarg, 0, &opt.assume_trips); break;
        case OPT_PROCS: bad = number_arg("--procs", optarg, 1, &opt.procs); break;
        case OPT_CONC: bad = number_arg("--concurrency", optarg, 1, &opt.concurrency); break;
        case OPT_FIT:
        case OPT_DEPENDENT: {
            const char *const *names = c == OPT_FIT ? pr_direction_names : pr_dependent_names;
            int w = pr_name_index(names, optarg);
            if (w < 0)
                return cli_usage_error("predict", "--%s: '%s' is not %s or %s",
                                       c == OPT_FIT ? "fit" : "dependent", optarg, names[0],
                                       names[1]);
            if (c == OPT_FIT)
                how.direction = (enum pr_stepwise_dir)w;
            else
                how.dependent = (enum pr_dependent)w;
            fit_given = 1;
            break;
        }
        default: return 2;
        }
        if (bad)
            return bad;
    }
    int nfiles = nargs - optind;
    if (nfiles == 0)
        return cli_usage_error("predict", calibrate ? "no RUN given" : "no FILE given");
    if (output && !calibrate)
        return cli_usage_error("predict", "-o goes with --calibrate");
    if (fit_given && !calibrate)
        return cli_usage_error("predict", "--fit and --dependent go with --calibrate");
    if (calibrate)
        return run_calibrate(argv + optind, nfiles, &opt, &how, output);

    struct pr_model model;
    char err[512];
    if (pr_model_load(&model, model_name, err, sizeof err))
        return cli_say("%s", err);
    struct pr_program prog;
    if (pr_analyze(&prog, argv + optind, nfiles, &opt, err, sizeof err))
        return cli_say("%s", err);
    if (prog.parse_errors)
        cli_say("warning: %d errors while parsing (first: %s); code clang could not parse "
                "is missing from the analysis (give flags with -p or after --)",
                prog.parse_errors, prog.first_error ? prog.first_error : "?");
    pr_score(&prog, &model);
    if (json)
        pr_print_json(stdout, &prog, &model);
    else
        pr_print_text(stdout, &prog, &model, (int)top);
    pr_program_free(&prog);
    if (fflush(stdout) || ferror(stdout))
        return cli_error("stdout", "%s", strerror(errno));
    return 0;
}

const struct cli_verb cli_predict_verb = {
    .name = "predict",
    .summary = "rank code blocks by I/O intensity predicted from source (CIOC)",
    .usage = predict_usage,
    .run = cli_predict,
};
