/* What iolens insights and iolens report share: which recommendations a
 * finding shows, and findings as JSON. */
#include <string.h>

#include "cli.h"

size_t cli_recommendations(const struct iolens_finding *f, const struct iolens_summary *s,
                           struct cli_rec_line out[4])
{
    const struct iolens_rule_info *r = f->rule;
    const struct cli_rec_line all[4] = {
        {"POSIX", r->rec_posix}, {"STDIO", r->rec_stdio}, {"MPI-IO", r->rec_mpiio},
        {"HDF5", r->rec_hdf5}};
    const int used[4] = {
        s->modules[IOLENS_MOD_POSIX].present, s->modules[IOLENS_MOD_STDIO].present,
        s->modules[IOLENS_MOD_MPIIO].present, s->uses_hdf5};
    size_t n = 0;
    for (int i = 0; i < 4; i++)
        if (all[i].text && (used[i] || (f->iface && !strcmp(f->iface, all[i].iface))))
            out[n++] = all[i];
    return n;
}

void cli_json_finding(FILE *out, const struct iolens_summary *s, const struct iolens_finding *f)
{
    fputs("{\"id\": ", out);
    cli_json_string(out, f->rule->id);
    fprintf(out, ", \"severity\": \"%s\", \"summary\": ", iolens_severity_name(f->severity));
    cli_json_string(out, f->summary);
    fputs(", \"interface\": ", out);
    if (f->iface)
        cli_json_string(out, f->iface);
    else
        fputs("null", out);
    fputs(", \"evidence\": {", out);
    for (size_t e = 0; e < f->nevidence; e++) {
        cli_json_string(out, f->evidence[e].key);
        fputs(": ", out);
        if (f->evidence[e].kind == IOLENS_EV_TEXT)
            cli_json_string(out, f->evidence[e].text);
        else
            cli_json_number(out, f->evidence[e].value);
        fputs(", ", out);
    }
    fputs("\"files\": [", out);
    for (size_t k = 0; k < f->nfiles; k++) {
        fputs(k ? ", {\"name\": " : "{\"name\": ", out);
        cli_json_string(out, f->files[k].name);
        fputs(", ", out);
        cli_json_string(out, f->files[k].figure);
        fputs(": ", out);
        cli_json_number(out, f->files[k].value);
        fputc('}', out);
    }
    fprintf(out, "], \"more_files\": %lld, \"ranks\": [", (long long)f->more_files);
    for (size_t k = 0; k < f->nranks; k++)
        fprintf(out, "%s%lld", k ? ", " : "", (long long)f->ranks[k]);
    fputs("]}, \"recommendation\": {", out);
    struct cli_rec_line rec[4];
    size_t nrec = cli_recommendations(f, s, rec);
    for (size_t k = 0; k < nrec; k++) {
        fputs(k ? ", " : "", out);
        cli_json_string(out, rec[k].iface);
        fputs(": ", out);
        cli_json_string(out, rec[k].text);
    }
    fputs("}, \"call_sites\": []}", out);
}

