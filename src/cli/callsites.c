/* iolens callsites: which lines of the program did its I/O (docs/callsites.md).
 * The log's CALLSITES records (IOLENS_CALLSITES=1) resolved with libdw
 * (callsites_load.c, callsites_resolve.c), sites ranked by I/O time, then
 * the functions' own times; --json prints both in the shape of
 * iolens predict's run files. */
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "callsites.h"
#include "cli.h"

static void json_frame(FILE *out, const struct cs_frame *f)
{
    fputs("{\"function\": ", out);
    cli_json_string(out, f->function ? f->function : "");
    fputs(", \"file\": ", out);
    cli_json_string(out, f->file ? f->file : "");
    fprintf(out, ", \"line\": %d, \"object\": ", f->line);
    cli_json_string(out, f->object ? f->object : "");
    fprintf(out, ", \"offset\": %" PRIu64 "}", f->offset);
}

static void print_json(FILE *out, const struct cs_result *r)
{
    fputs("{\"sites\": [", out);
    for (size_t i = 0; i < r->nsites; i++) {
        const struct cs_site *s = &r->sites[i];
        const struct cs_frame *f = &s->frames[0];
        char buf[512];
        fputs(i ? ",\n  {\"function\": " : "\n  {\"function\": ", out);
        cli_json_string(out, f->function ? f->function : cs_frame_text(f, buf, sizeof(buf)));
        fputs(", \"file\": ", out);
        cli_json_string(out, f->file ? f->file : "");
        fprintf(out, ", \"line\": %d, \"module\": ", f->line);
        cli_json_string(out, iolens_module_name(s->module) ? iolens_module_name(s->module) : "?");
        fputs(", \"op\": ", out);
        cli_json_string(out, iolens_callsites_op_name(s->op));
        fprintf(out, ", \"calls\": %" PRId64 ", \"bytes\": %" PRId64 ", \"time\": ", s->calls,
                s->bytes);
        cli_json_number(out, s->time);
        fputs(", \"frames\": [", out);
        for (int k = 0; k < s->nframes; k++) {
            if (k)
                fputs(", ", out);
            json_frame(out, &s->frames[k]);
        }
        fputs("]}", out);
    }
    fputs("],\n \"functions\": [", out);
    for (size_t i = 0; i < r->nfunctions; i++) {
        const struct cs_function *f = &r->functions[i];
        fputs(i ? ",\n  {\"function\": " : "\n  {\"function\": ", out);
        cli_json_string(out, f->function);
        fputs(", \"time\": ", out);
        cli_json_number(out, f->own);
        fputs(", \"inclusive\": ", out);
        cli_json_number(out, f->inclusive);
        fprintf(out, ", \"calls\": %" PRId64 "}", f->calls);
    }
    fprintf(out, "],\n \"partial\": %s, \"lost_calls\": %" PRId64 ", \"lost_entries\": %" PRId64
            ", \"slow_walks\": %" PRId64 "}\n", r->partial ? "true" : "false", r->lost_calls,
            r->lost_entries, r->slow_walks);
}

static void print_text(FILE *out, const struct cs_result *r)
{
    char buf[1024];
    fprintf(out, "# I/O by call site, by time (%zu sites)\n", r->nsites);
    fprintf(out, "# %10s %10s %14s  %-9s %-5s  %s\n", "time (s)", "calls", "bytes", "module", "op",
            "where (innermost frame, then callers)");
    for (size_t i = 0; i < r->nsites; i++) {
        const struct cs_site *s = &r->sites[i];
        const char *mod = iolens_module_name(s->module);
        fprintf(out, "  %10.6f %10" PRId64 " %14" PRId64 "  %-9s %-5s  %s\n", s->time, s->calls,
                s->bytes, mod ? mod : "?", iolens_callsites_op_name(s->op),
                cs_frame_text(&s->frames[0], buf, sizeof(buf)));
        for (int k = 1; k < s->nframes; k++)
            fprintf(out, "  %*s  from %s\n", 54, "", cs_frame_text(&s->frames[k], buf, sizeof(buf)));
    }
    if (r->nfunctions) {
        fprintf(out, "\n# functions, by own time (%zu)\n", r->nfunctions);
        fprintf(out, "# %10s %12s %10s  %s\n", "own (s)", "inclusive", "calls", "function");
        for (size_t i = 0; i < r->nfunctions; i++)
            fprintf(out, "  %10.6f %12.6f %10" PRId64 "  %s\n", r->functions[i].own,
                    r->functions[i].inclusive, r->functions[i].calls, r->functions[i].function);
    }
    if (r->partial || r->lost_calls || r->lost_entries)
        fprintf(out, "\n# partial: %" PRId64 " I/O calls at no site, %" PRId64
                " function entries not timed (raise CALLSITES_MAX)\n", r->lost_calls,
                r->lost_entries);
}

static int callsites_one(const char *path, void *json)
{
    iolens_log *log = cli_open_log(path);
    if (!log)
        return 1;
    struct cs_result r;
    iolens_status st = cs_load(log, &r);
    int rc = 0;
    if (st == IOLENS_END)
        rc = cli_error(path, "no call sites in this log (record with IOLENS_CALLSITES=1)");
    else if (st != IOLENS_OK)
        rc = cli_error(path, "%s", iolens_log_error(log)[0] ? iolens_log_error(log)
                                                            : iolens_strerror(st));
    else if (*(int *)json)
        print_json(stdout, &r);
    else
        print_text(stdout, &r);
    if (st == IOLENS_OK)
        cs_result_free(&r);
    iolens_log_close(log);
    return rc;
}

static const char callsites_usage[] =
    "usage: iolens callsites [--json] LOG...\n"
    "\n"
    "Print the I/O of a log recorded with IOLENS_CALLSITES=1 by call site, ranked by\n"
    "I/O time: each site's line (function, file and line, resolved with the program's\n"
    "debug information), module, operation, calls, bytes and time, and the callers\n"
    "above it; then the functions' own times (programs built with\n"
    "-finstrument-functions).\n"
    "  --json  {\"sites\": [{\"function\", \"file\", \"line\", \"module\", \"op\", \"calls\",\n"
    "          \"bytes\", \"time\", \"frames\"}], \"functions\": [{\"function\", \"time\", ...}]}\n"
    "\n"
    "Exit status: 0 when every log was printed, 1 when a log could not be read or\n"
    "has no call sites, 2 for wrong usage; with several logs, the highest.\n";

static int cli_callsites(int argc, char **argv)
{
    static const struct option opts[] = {
        {"json", no_argument, NULL, 'j'},
        {NULL, 0, NULL, 0},
    };
    int json = 0, c;

    optind = 1;
    while ((c = cli_getopt("callsites", argc, argv, ":", opts)) != -1) {
        if (c == '?')
            return 2;
        json = 1;
    }
    if (optind == argc)
        return cli_usage_error("callsites", "no log given");
    return cli_each_log(argc - optind, argv + optind, callsites_one, &json);
}

const struct cli_verb cli_callsites_verb = {
    .name = "callsites",
    .summary = "which lines of the program did its I/O (logs recorded with IOLENS_CALLSITES=1)",
    .usage = callsites_usage,
    .run = cli_callsites,
};
