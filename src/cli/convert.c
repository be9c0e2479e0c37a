/* iolens convert: rewrite any log the library reads as a 3.41 log, through
 * the library's one writer, optionally keeping only some modules or records
 * and replacing every identifying name by a keyed pseudonym. */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "convert.h"
#include "pseudonym.h"

static const char convert_usage[] =
    "usage: iolens convert [--compress zlib|bzip2|zstd|none] [--modules LIST]\n"
    "                      [--records REGEX] [--obfuscate KEY [--keep-mounts]] IN OUT\n"
    "\n"
    "Rewrite the log IN (any format version from 3.00 to 3.41, either byte order,\n"
    "iolens's own modules and record files included) as a version 3.41 log OUT.\n"
    "Records are written as the library decodes them (old record versions brought\n"
    "to the newest, as darshan-parser shows them); modules iolens cannot decode\n"
    "(APMPI, APXC) are left out with a warning. The trace modules keep the record\n"
    "version Darshan 3.5's darshan-dxt-parser reads unless the input has thread ids.\n"
    "  --compress METHOD  zlib (the default), bzip2, zstd (read only by iolens) or none\n"
    "  --modules LIST     keep only these modules (comma-separated names as\n"
    "                     `iolens parse` prints them, e.g. POSIX,MPI-IO,DXT_POSIX)\n"
    "  --records REGEX    keep only records whose name matches the POSIX extended\n"
    "                     regular expression (records without a name are dropped);\n"
    "                     the name region keeps the names of the records kept\n"
    "  --obfuscate KEY    replace every record name, mount point, DXT host name, the\n"
    "                     command line (word by word), the uid and the job id by\n"
    "                     pseudonyms keyed by KEY (HMAC-SHA256): the same value gives\n"
    "                     the same pseudonym in every log converted with the same key.\n"
    "                     Record ids are recomputed from the new names, so records\n"
    "                     still join across modules and logs. KEY @FILE reads the key\n"
    "                     from FILE's first line (keeps it out of the process list)\n"
    "  --keep-mounts      with --obfuscate: keep mount points as they are (a name\n"
    "                     then becomes MOUNT/<pseudonym>)\n"
    "\n"
    "Exit status: 0 when OUT was written, 1 when IN could not be read or OUT\n"
    "written (OUT is then left as it was), 2 for wrong usage.\n";

/* Everything one conversion holds. */
struct convert_run {
    const struct convert_opts *o;
    iolens_log *log;
    const struct iolens_log_info *in;
    iolens_log_writer *w;
    uint64_t convertible;   /* bit per module read and written */
    int filtering;          /* some records or modules are left out */
    struct id_table keep;   /* filtering: ids the kept records refer to */
    struct id_table map;    /* --obfuscate: old id -> new id */
    struct convert_job cj;
    unsigned char *buf;     /* a record's writable copy */
    size_t cap;
    iolens_status wst;      /* the writer's first failure */
};

/* Does the record's own name pass --records? */
static int record_wanted(const struct convert_run *r, const void *rec)
{
    if (!r->o->records)
        return 1;
    uint64_t id;
    memcpy(&id, rec, sizeof(id));
    const char *name = iolens_log_name(r->log, id);
    return name && regexec(r->o->records, name, 0, NULL, 0) == 0;
}

/* The modules with data that this conversion reads; warn about the others. */
static uint64_t convertible_modules(const struct iolens_log_info *in, uint64_t wanted)
{
    uint64_t out = 0;
    for (int id = 0; id < IOLENS_MAX_MODS; id++) {
        if (((wanted >> id) & 1) && cli_module_kept(in, id))
            out |= 1ULL << id;
    }
    return out;
}

static int keep_id(uint64_t id, void *arg)
{
    return id_table_add(arg, 0, id, 0);
}

/* First pass when filtering: the ids that the kept records refer to.
 * @return 0, or 1 after printing the reason. */
static int collect_kept_ids(struct convert_run *r)
{
    for (int id = 0; id < IOLENS_MAX_MODS; id++) {
        const struct iolens_module_desc *mod = iolens_module(id);
        const void *rec;
        iolens_status st;
        if (!((r->convertible >> id) & 1))
            continue;
        while ((st = iolens_log_next_record(r->log, id, &rec)) == IOLENS_OK)
            if (record_wanted(r, rec) && convert_record_ids(mod, rec, keep_id, &r->keep))
                return cli_error(r->o->in, "out of memory");
        if (st != IOLENS_END)
            return cli_error(r->o->in, "%s", iolens_log_error(r->log));
    }
    return id_table_sort(&r->keep) ? cli_error(r->o->in, "out of memory") : 0;
}

/* Darshan 3.5's tools read the log whole when every module is one they know
 * at a record version they read: then the trace modules are written at that
 * version (no thread ids: the input had none), else at the newest. */
static iolens_log_compat output_compat(const struct convert_run *r)
{
    for (int id = 0; id < IOLENS_MAX_MODS; id++) {
        const struct iolens_module_desc *mod = iolens_module(id);
        if (!((r->convertible >> id) & 1))
            continue;
        if (id >= IOLENS_MOD_DARSHAN_3_5_COUNT ||
            (mod->darshan_3_5_version && r->in->mod_ver[id] > mod->darshan_3_5_version))
            return IOLENS_COMPAT_NEWEST;
    }
    return IOLENS_COMPAT_DARSHAN_3_5;
}

static int put_name(uint64_t id, const char *name, void *arg)
{
    struct convert_run *r = arg;
    char renamed[4096 + PSEUDONYM_HEX + 2];

    if (r->filtering && id_table_find(&r->keep, id) < 0)
        return 0;
    if (r->o->key) {
        if (pseudonym_name(r->o->key, name, r->in->mounts, r->cj.obf_mounts, r->in->nmounts,
                           renamed, sizeof(renamed)) < 0) {
            r->wst = IOLENS_ERR_ARGUMENT; /* a mount point longer than 4 KiB */
            return 1;
        }
        uint64_t new_id = iolens_record_id(renamed);
        if (id_table_add(&r->map, 1, id, new_id)) {
            r->wst = IOLENS_ERR_NOMEM;
            return 1;
        }
        id = new_id;
        name = renamed;
    }
    r->wst = iolens_writer_put_name(r->w, id, name);
    return r->wst != IOLENS_OK;
}

/* Write one record, renamed in a copy when obfuscating. */
static iolens_status put_record(struct convert_run *r, const struct iolens_module_desc *mod,
                                const void *rec)
{
    if (!r->o->key)
        return iolens_writer_put_record(r->w, mod->id, rec);
    size_t size = iolens_record_size(mod, rec);
    if (size > r->cap) {
        unsigned char *p = realloc(r->buf, size);
        if (!p)
            return IOLENS_ERR_NOMEM;
        r->buf = p;
        r->cap = size;
    }
    memcpy(r->buf, rec, size);
    convert_rename_record(mod, r->buf, &r->map, r->o->key);
    return iolens_writer_put_record(r->w, mod->id, r->buf);
}

/* Every kept record of every module, in module order. @return 0 or 1. */
static int put_modules(struct convert_run *r)
{
    for (int id = 0; id < IOLENS_MAX_MODS; id++) {
        const struct iolens_module_desc *mod = iolens_module(id);
        const void *rec;
        iolens_status st;
        if (((r->in->partial_flags >> id) & 1) && ((r->o->modules >> id) & 1))
            iolens_writer_set_partial(r->w, id);
        if (!((r->convertible >> id) & 1))
            continue;
        while ((st = iolens_log_next_record(r->log, id, &rec)) == IOLENS_OK) {
            if (!record_wanted(r, rec))
                continue;
            if ((r->wst = put_record(r, mod, rec)) != IOLENS_OK)
                return cli_error(r->o->out, "%s", iolens_strerror(r->wst));
        }
        if (st != IOLENS_END)
            return cli_error(r->o->in, "%s", iolens_log_error(r->log));
    }
    return 0;
}

/* Job, names and modules into the open writer. @return 0 or 1. */
static int write_log(struct convert_run *r)
{
    if (convert_job_make(&r->cj, r->in, r->o))
        return cli_error(r->o->in, "out of memory");
    r->wst = iolens_writer_put_job(r->w, &r->cj.job, r->cj.exe, r->cj.mounts, r->cj.nmounts);
    if (r->wst != IOLENS_OK)
        return cli_error(r->o->out, "%s", iolens_strerror(r->wst));
    if (iolens_log_each_name(r->log, put_name, r) != 0)
        return cli_error(r->wst == IOLENS_ERR_ARGUMENT ? r->o->in : r->o->out, "%s",
                         r->wst == IOLENS_ERR_ARGUMENT ? "a mount point is too long to obfuscate"
                                                       : iolens_strerror(r->wst));
    if (id_table_sort(&r->map))
        return cli_error(r->o->in, "out of memory");
    return put_modules(r);
}

static int convert(const struct convert_opts *o)
{
    struct convert_run r = {.o = o};
    char detail[512];
    int rc = 1;

    if (!(r.log = cli_open_log(o->in)))
        return 1;
    r.in = iolens_log_get_info(r.log);
    if (iolens_log_load_names(r.log) != IOLENS_OK) {
        cli_error(o->in, "%s", iolens_log_error(r.log));
        goto done;
    }
    r.convertible = convertible_modules(r.in, o->modules);
    r.filtering = o->records || o->modules != ~0ULL;
    if (r.filtering && collect_kept_ids(&r))
        goto done;
    iolens_status st = iolens_writer_create(o->out, o->comp, &r.w, detail, sizeof(detail));
    if (st != IOLENS_OK) {
        cli_error(o->out, "%s", detail[0] ? detail : iolens_strerror(st));
        goto done;
    }
    iolens_writer_set_compat(r.w, output_compat(&r));
    if (write_log(&r))
        goto done;
    st = iolens_writer_close(r.w);
    r.w = NULL;
    if (st != IOLENS_OK) {
        cli_error(o->out, "%s", iolens_strerror(st));
        goto done;
    }
    rc = 0;
done:
    iolens_writer_abort(r.w);
    convert_job_free(&r.cj);
    id_table_free(&r.keep);
    id_table_free(&r.map);
    free(r.buf);
    iolens_log_close(r.log);
    return rc;
}

/* A module name as given to --modules: the log's name, case and punctuation
 * aside ("mpiio" is MPI-IO). @return its id, or -1. */
static int module_by_name(const char *s, size_t len)
{
    for (int id = 0; id < IOLENS_MAX_MODS; id++) {
        const char *name = iolens_module_name(id);
        if (!name || id == IOLENS_MOD_NULL)
            continue;
        size_t i = 0, j = 0;
        while (i < len || name[j]) {
            if (i < len && !isalnum((unsigned char)s[i]) && s[i] != '_') {
                i++;
            } else if (name[j] && !isalnum((unsigned char)name[j]) && name[j] != '_') {
                j++;
            } else if (i < len && name[j] &&
                       tolower((unsigned char)s[i]) == tolower((unsigned char)name[j])) {
                i++;
                j++;
            } else {
                break;
            }
        }
        if (i == len && !name[j])
            return id;
    }
    return -1;
}

/* --modules LIST as a bit mask. @return 0, or 2 after a usage error. */
static int parse_modules(const char *list, uint64_t *mask)
{
    *mask = 0;
    for (const char *p = list; *p;) {
        size_t len = strcspn(p, ",");
        int id = module_by_name(p, len);
        if (id < 0)
            return cli_usage_error("convert", "--modules: unknown module '%.*s'", (int)len, p);
        *mask |= 1ULL << id;
        p += len + (p[len] == ',');
    }
    return *mask ? 0 : cli_usage_error("convert", "--modules: no module given");
}

/* The key of --obfuscate: KEY, or the first line of FILE for @FILE.
 * @return 0, or 1 after printing the reason. */
static int read_key(const char *arg, char *key, size_t len)
{
    if (arg[0] != '@') {
        snprintf(key, len, "%s", arg);
        return 0;
    }
    FILE *f = fopen(arg + 1, "r");
    if (!f)
        return cli_error(arg + 1, "cannot read the key: %s", strerror(errno));
    if (!fgets(key, (int)len, f))
        key[0] = '\0';
    fclose(f);
    key[strcspn(key, "\r\n")] = '\0';
    return 0;
}

static int parse_compression(const char *s, iolens_compression *comp)
{
    static const struct { const char *name; iolens_compression comp; } methods[] = {
        {"bzip2", IOLENS_COMP_BZIP2},
        {"none", IOLENS_COMP_NONE},
        {"zlib", IOLENS_COMP_ZLIB},
        {"zstd", IOLENS_COMP_ZSTD},
    };
    for (size_t i = 0; i < sizeof(methods) / sizeof(methods[0]); i++) {
        if (!strcmp(s, methods[i].name)) {
            *comp = methods[i].comp;
            return 0;
        }
    }
    return cli_usage_error("convert", "--compress: unknown method '%s'", s);
}

int cli_convert(int argc, char **argv)
{
    /* Sorted by name. */
    static const struct option opts[] = {
        {"compress", required_argument, NULL, 'c'},
        {"keep-mounts", no_argument, NULL, 'k'},
        {"modules", required_argument, NULL, 'm'},
        {"obfuscate", required_argument, NULL, 'o'},
        {"records", required_argument, NULL, 'r'},
        {NULL, 0, NULL, 0},
    };
    struct convert_opts o = {.comp = IOLENS_COMP_ZLIB, .modules = ~0ULL};
    const char *key_arg = NULL, *regex_arg = NULL;
    static char key[4096];
    regex_t re;
    int c, rc;

    optind = 1;
    while ((c = cli_getopt("convert", argc, argv, ":", opts)) != -1) {
        switch (c) {
        case 'c': if ((rc = parse_compression(optarg, &o.comp))) return rc; break;
        case 'k': o.keep_mounts = 1; break;
        case 'm': if ((rc = parse_modules(optarg, &o.modules))) return rc; break;
        case 'o': key_arg = optarg; break;
        case 'r': regex_arg = optarg; break;
        default: return 2;
        }
    }
    if (argc - optind != 2)
        return cli_usage_error("convert", argc - optind < 2 ? "needs IN and OUT"
                                                             : "too many arguments");
    o.in = argv[optind];
    o.out = argv[optind + 1];
    if (o.keep_mounts && !key_arg)
        return cli_usage_error("convert", "--keep-mounts goes with --obfuscate");
    if (key_arg) {
        if (read_key(key_arg, key, sizeof(key)))
            return 1;
        if (!key[0])
            return cli_usage_error("convert", "--obfuscate: the key is empty");
        o.key = key;
    }
    if (regex_arg) {
        int err = regcomp(&re, regex_arg, REG_EXTENDED | REG_NOSUB);
        if (err) {
            char why[256];
            regerror(err, &re, why, sizeof(why));
            return cli_usage_error("convert", "--records: %s", why);
        }
        o.records = &re;
    }
    rc = convert(&o);
    if (regex_arg)
        regfree(&re);
    return rc;
}

const struct cli_verb cli_convert_verb = {
    .name = "convert",
    .summary = "rewrite a log as a 3.41 log (compression, filters, pseudonyms)",
    .usage = convert_usage,
    .run = cli_convert,
};
