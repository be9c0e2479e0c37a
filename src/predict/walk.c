/* The program walk of iolens predict (the paper's PDG builder and I/O
 * decorator): from main, through every call to a function of the input with
 * its arguments' values, each statement is visited with how many times it
 * runs per run of the program; each I/O call adds its Table I parameters to
 * the blocks (function, loops, branches) whose own lines hold it. Functions
 * main does not reach are walked once on their own, per call. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "internal.h"

#define MAX_NEST 64      /* blocks open in one function instance */
#define MAX_CALL_DEPTH 48
#define FRAME_BYTES 8 /* a call's return address, besides its arguments (P10) */
/* Expanding calls from main stops after this many statement visits (a big
 * program's call tree is walked in seconds, not minutes); the functions not
 * reached by then are walked once on their own. */
#define MAX_EXPANSION_VISITS 1000000

struct fn {
    char *usr;
    CXCursor def;
    long block;
    int on_stack, walked;
};

struct walker {
    struct pr_program *prog;
    const struct pr_options *opt;
    struct fn *fns;
    size_t nfns;
    long *slots; /* open-addressing table of block indices by key */
    size_t nslots;
    long visits;
    int failed;
};

/* One instance of a function being walked. */
struct frame {
    struct walker *w;
    struct fn *fn;
    struct pr_env env;
    long stack[MAX_NEST];
    unsigned char is_loop[MAX_NEST], loop_io[MAX_NEST];
    int depth;
    double mult;
    int mult_unknown, cond, call_depth, expand, count_stack;
};

static int cmp_fn(const void *a, const void *b)
{
    return strcmp(((const struct fn *)a)->usr, ((const struct fn *)b)->usr);
}

static struct fn *find_fn(struct walker *w, CXCursor call)
{
    CXCursor ref = clang_getCursorReferenced(call);
    if (clang_Cursor_isNull(ref) || clang_getCursorKind(ref) != CXCursor_FunctionDecl)
        return NULL;
    CXString usr = clang_getCursorUSR(ref);
    struct fn key = {.usr = (char *)clang_getCString(usr)};
    struct fn *f = w->nfns ? bsearch(&key, w->fns, w->nfns, sizeof *w->fns, cmp_fn) : NULL;
    clang_disposeString(usr);
    return f;
}

/* ---- blocks by source position ------------------------------------------- */

static void cursor_key(CXCursor c, enum pr_kind kind, uint64_t key[4], char **file,
                       unsigned *line)
{
    CXFile f;
    unsigned l, col, off;
    CXFileUniqueID id = {{0, 0, 0}};
    clang_getExpansionLocation(clang_getCursorLocation(c), &f, &l, &col, &off);
    if (f)
        clang_getFileUniqueID(f, &id);
    key[0] = id.data[0], key[1] = id.data[1], key[2] = id.data[2], key[3] = (uint64_t)off << 3 | kind;
    *line = l;
    if (file) {
        CXString s = clang_getFileName(f);
        *file = strdup(f ? clang_getCString(s) : "?");
        clang_disposeString(s);
    }
}

static size_t key_hash(const uint64_t k[4])
{
    uint64_t h = k[0] * 0x9E3779B97F4A7C15ull ^ k[1] * 0xC2B2AE3D27D4EB4Full ^ k[2] ^
                 k[3] * 0x165667B19E3779F9ull;
    return (size_t)(h ^ h >> 29);
}

static int grow_slots(struct walker *w)
{
    size_t n = w->nslots ? w->nslots * 2 : 1024;
    long *s = malloc(n * sizeof *s);
    if (!s)
        return -1;
    for (size_t i = 0; i < n; i++)
        s[i] = -1;
    for (size_t b = 0; b < w->prog->n; b++) {
        size_t h = key_hash(w->prog->blocks[b].key) & (n - 1);
        while (s[h] >= 0)
            h = (h + 1) & (n - 1);
        s[h] = (long)b;
    }
    free(w->slots);
    w->slots = s;
    w->nslots = n;
    return 0;
}

/* The block of cursor c (created at its first visit). @return its index or -1. */
static long block_of(struct walker *w, CXCursor c, enum pr_kind kind, const char *name, long fn)
{
    uint64_t key[4];
    unsigned line;
    cursor_key(c, kind, key, NULL, &line);
    if (w->prog->n * 2 >= w->nslots && grow_slots(w))
        return -1;
    size_t h = key_hash(key) & (w->nslots - 1);
    for (; w->slots[h] >= 0; h = (h + 1) & (w->nslots - 1))
        if (!memcmp(w->prog->blocks[w->slots[h]].key, key, sizeof key))
            return w->slots[h];
    char *file;
    cursor_key(c, kind, key, &file, &line);
    long b = file ? pr_block_add(w->prog, kind, name, file, line) : -1;
    free(file);
    if (b < 0)
        return -1;
    memcpy(w->prog->blocks[b].key, key, sizeof key);
    w->prog->blocks[b].function = fn < 0 ? (int)b : (int)fn;
    w->slots[h] = b;
    return b;
}

/* ---- adding to the open blocks --------------------------------------------- */

static void add(struct frame *fr, enum pr_param p, double v, int unknown)
{
    for (int i = 0; i < fr->depth; i++) {
        struct pr_block *b = &fr->w->prog->blocks[fr->stack[i]];
        b->p[p] += v;
        b->unknown[p] |= (unsigned char)unknown;
    }
}

static struct pr_val arg_value(struct frame *fr, CXCursor call, int i)
{
    if (i < 0 || i >= clang_Cursor_getNumArguments(call))
        return (struct pr_val){0, 0};
    return pr_eval(clang_Cursor_getArgument(call, (unsigned)i), &fr->env);
}

/* Bytes one call moves, or unknown. */
static struct pr_val call_size(struct frame *fr, CXCursor call, const struct pr_iofunc *io)
{
    struct pr_val s = {0, 0};
    if (io->flags & IO_ONEBYTE)
        return (struct pr_val){1, 1};
    if (io->size_arg < 0 || io->size_arg >= clang_Cursor_getNumArguments(call))
        return s;
    if (io->flags & IO_LITSIZE) {
        char lit[4096];
        long n = pr_string_literal(clang_Cursor_getArgument(call, (unsigned)io->size_arg), lit,
                                   sizeof lit);
        int printf_like = strstr(io->name, "printf") != NULL;
        if (n >= 0 && !(printf_like && strchr(lit, '%')))
            s = (struct pr_val){(double)n + !strcmp(io->name, "puts"), 1};
        return s;
    }
    s = arg_value(fr, call, io->size_arg);
    if (io->count_arg >= 0) {
        struct pr_val c = arg_value(fr, call, io->count_arg);
        s.v *= c.v;
        s.known &= c.known;
    }
    if (io->dtype_arg >= 0 && io->dtype_arg < clang_Cursor_getNumArguments(call)) {
        char t[64];
        pr_source_text(clang_Cursor_getArgument(call, (unsigned)io->dtype_arg), t, sizeof t);
        int ts = pr_mpi_type_size(t);
        s.v *= ts;
        s.known &= ts > 0;
    }
    return s;
}

/* Size of the existing file a literal path names, or unknown. */
static struct pr_val opened_file(struct frame *fr, CXCursor call, const struct pr_iofunc *io,
                                 int *literal)
{
    char path[4096];
    struct stat st;
    *literal = 0;
    if (io->path_arg < 0 || io->path_arg >= clang_Cursor_getNumArguments(call))
        return (struct pr_val){0, 0};
    if (pr_string_literal(clang_Cursor_getArgument(call, (unsigned)io->path_arg), path,
                          sizeof path) < 0)
        return (struct pr_val){0, 0};
    *literal = 1;
    if (stat(path, &st) || !S_ISREG(st.st_mode))
        return (struct pr_val){0, 0};
    return (struct pr_val){(double)st.st_size, 1};
}

static void record_io(struct frame *fr, CXCursor call, const struct pr_iofunc *io)
{
    double m = fr->mult;
    int u = fr->mult_unknown, data = io->op == OP_READ || io->op == OP_WRITE;
    add(fr, PR_IO_OPS, m, u);
    if (!(io->flags & IO_ASYNC))
        add(fr, PR_SYNC_OPS, m, u);
    if (fr->cond)
        add(fr, PR_COND_OPS, m, u);
    if (io->op == OP_FLUSH)
        add(fr, PR_FLUSHES, m, u);
    if (data) {
        struct pr_val s = call_size(fr, call, io);
        add(fr, PR_BYTES, s.v * m, u || !s.known);
        if (!(io->flags & IO_TEXT))
            add(fr, PR_BINARY_OPS, m, u);
        if (s.known && s.v < PR_SMALL_BYTES)
            add(fr, PR_SMALL_OPS, m, u);
        else if (!s.known)
            add(fr, PR_SMALL_OPS, 0, 1);
    }
    if (io->op == OP_OPEN) {
        int literal;
        struct pr_val size = opened_file(fr, call, io, &literal);
        add(fr, PR_FILES, literal ? 1 : m, literal ? 0 : u);
        add(fr, PR_FILE_SIZE, size.v, !size.known);
    }
    if (io->offset_arg >= 0 && io->offset_arg < clang_Cursor_getNumArguments(call) &&
        pr_offset_is_random(clang_Cursor_getArgument(call, (unsigned)io->offset_arg),
                            fr->fn->def))
        add(fr, PR_RANDOM_OPS, m, u);
    for (int i = 0; i < fr->depth; i++) {
        struct pr_block *b = &fr->w->prog->blocks[fr->stack[i]];
        b->ifaces |= io->iface;
        b->reads += io->op == OP_READ ? m : 0;
        b->writes += io->op == OP_WRITE ? m : 0;
        if (data && io->iface == PR_MPIIO)
            *(io->flags & IO_COLLECTIVE ? &b->collective : &b->independent) += m;
    }
    for (int i = fr->depth; i-- > 0;) {
        if (fr->is_loop[i]) {
            fr->loop_io[i] = 1;
            break;
        }
    }
}

/* A call that is not an I/O call touches its frame (the return address and
 * the arguments); memcpy, memset, memmove and snprintf also the memory their
 * arguments size, qsort that of its comparisons. */
static void record_memory_call(struct frame *fr, CXCursor call, const char *name)
{
    struct pr_val n = {FRAME_BYTES, 1};
    for (int i = 0; i < clang_Cursor_getNumArguments(call); i++) {
        long long size = clang_Type_getSizeOf(
            clang_getCursorType(clang_Cursor_getArgument(call, (unsigned)i)));
        n.v += size > 0 ? (double)size : 0;
    }
    add(fr, PR_MEMORY, n.v * fr->mult, fr->mult_unknown);
    if (!strcmp(name, "memcpy") || !strcmp(name, "memset") || !strcmp(name, "memmove")) {
        n = arg_value(fr, call, 2);
    } else if (!strcmp(name, "snprintf") || !strcmp(name, "vsnprintf")) {
        n = arg_value(fr, call, 1);
    } else if (!strcmp(name, "qsort")) {
        /* n log2 n comparisons, each a call with two pointers reading two elements */
        struct pr_val count = arg_value(fr, call, 1), size = arg_value(fr, call, 2);
        n.known = count.known && size.known;
        n.v = count.v > 1 ? count.v * log2(count.v) * (FRAME_BYTES + 2 * (8 + size.v)) : 0;
    } else {
        return;
    }
    add(fr, PR_MEMORY, n.v * fr->mult, fr->mult_unknown || !n.known);
}

static void walk_children(struct frame *fr, CXCursor c);
static enum CXChildVisitResult walk_visit(CXCursor c, CXCursor parent, CXClientData data);
static void walk_function(struct walker *w, struct fn *f, struct pr_env *args, double mult,
                          int mult_unknown, int call_depth, int expand);

static int push(struct frame *fr, long b, int is_loop)
{
    if (b < 0) {
        fr->w->failed = 1;
        return 0;
    }
    if (fr->depth == MAX_NEST)
        return 0;
    fr->stack[fr->depth] = b;
    fr->is_loop[fr->depth] = (unsigned char)is_loop;
    fr->loop_io[fr->depth] = 0;
    fr->depth++;
    return 1;
}

static void walk_loop(struct frame *fr, CXCursor c, const char *name)
{
    char text[96];
    struct pr_val trips = pr_trip_count(c, &fr->env, text, sizeof text);
    pr_env_forget_assigned(&fr->env, c);
    long b = block_of(fr->w, c, PR_LOOP, name, fr->stack[0]);
    double saved = fr->mult;
    int saved_unknown = fr->mult_unknown;
    if (b >= 0) {
        struct pr_block *blk = &fr->w->prog->blocks[b];
        if (!trips.known)
            snprintf(blk->trips, sizeof blk->trips, "%s", text);
        blk->trip_count = trips.known ? trips.v : -1;
    }
    fr->mult *= trips.known ? trips.v : fr->w->opt->assume_trips;
    fr->mult_unknown |= !trips.known;
    int pushed = push(fr, b, 1);
    walk_children(fr, c);
    if (pushed) {
        fr->depth--;
        if (fr->loop_io[fr->depth]) { /* its body makes I/O calls: P1 */
            add(fr, PR_LOOP_ITERS, fr->mult, fr->mult_unknown);
            fr->w->prog->blocks[b].p[PR_LOOP_ITERS] += fr->mult;
            fr->w->prog->blocks[b].unknown[PR_LOOP_ITERS] |= (unsigned char)fr->mult_unknown;
        }
    }
    fr->mult = saved;
    fr->mult_unknown = saved_unknown;
    pr_env_forget_assigned(&fr->env, c);
}

/* The parts of an if statement, the then and else parts counted as often as
 * the condition says (pr_branch_share). */
static void walk_if_parts(struct frame *fr, CXCursor c)
{
    CXCursor kids[4];
    unsigned n = pr_children(c, kids, 4);
    if (n < 2 || n > 3 || !clang_isExpression(clang_getCursorKind(kids[0]))) {
        walk_children(fr, c);
        return;
    }
    double share = pr_branch_share(kids[0], &fr->env), saved = fr->mult;
    walk_visit(kids[0], c, fr);
    fr->mult = saved * (share < 0 ? 1 : share);
    walk_visit(kids[1], c, fr);
    if (n == 3) {
        fr->mult = saved * (share < 0 ? 1 : 1 - share);
        walk_visit(kids[2], c, fr);
    }
    fr->mult = saved;
}

static void walk_branch(struct frame *fr, CXCursor c, const char *name)
{
    pr_env_forget_assigned(&fr->env, c);
    long b = name ? block_of(fr->w, c, PR_BRANCH, name, fr->stack[0]) : -2;
    int pushed = b != -2 && push(fr, b, 0);
    fr->cond++;
    if (clang_getCursorKind(c) == CXCursor_IfStmt)
        walk_if_parts(fr, c);
    else
        walk_children(fr, c);
    fr->cond--;
    if (pushed)
        fr->depth--;
    pr_env_forget_assigned(&fr->env, c);
}

static void walk_call(struct frame *fr, CXCursor c)
{
    char name[128];
    pr_callee_name(c, name, sizeof name);
    walk_children(fr, c); /* calls in the arguments run first */
    const struct pr_iofunc *io = pr_iofunc_find(name);
    if (io) {
        record_io(fr, c, io);
        return;
    }
    if (!strncmp(name, "MPI_Init", 8))
        fr->w->prog->has_mpi_init = 1;
    record_memory_call(fr, c, name);
    struct fn *f = find_fn(fr->w, c);
    if (!f || !fr->expand || f->on_stack || fr->call_depth >= MAX_CALL_DEPTH ||
        fr->w->visits >= MAX_EXPANSION_VISITS)
        return;
    /* the callee's parameters take the arguments' values */
    struct pr_env args = {0};
    int nparams = clang_Cursor_getNumArguments(f->def);
    for (int i = 0; i < nparams && i < clang_Cursor_getNumArguments(c); i++) {
        struct pr_val v = arg_value(fr, c, i);
        if (v.known && pr_env_set(&args, clang_Cursor_getArgument(f->def, (unsigned)i), v))
            fr->w->failed = 1;
    }
    walk_function(fr->w, f, &args, fr->mult, fr->mult_unknown, fr->call_depth + 1, 1);
    free(args.b);
}

/* A local variable: its bytes (P11, once per block) and its initial value. */
static void walk_vardecl(struct frame *fr, CXCursor c)
{
    walk_children(fr, c);
    enum CX_StorageClass sc = clang_Cursor_getStorageClass(c);
    if (sc == CX_SC_Static || sc == CX_SC_Extern)
        return;
    CXType t = clang_getCursorType(c);
    if (fr->count_stack) {
        long long size = clang_Type_getSizeOf(t);
        add(fr, PR_STACK, size > 0 ? (double)size : 0, size < 0);
    }
    CXCursor kids[2];
    unsigned n = pr_children(c, kids, 2);
    struct pr_val v = {0, 0};
    if (n > 0 && clang_isExpression(clang_getCursorKind(kids[n - 1])))
        v = pr_eval(kids[n - 1], &fr->env);
    if (pr_env_set(&fr->env, c, v))
        fr->w->failed = 1;
}

static void walk_assign(struct frame *fr, CXCursor c, enum CXCursorKind k)
{
    CXCursor kids[2];
    char op[8];
    walk_children(fr, c);
    if (pr_children(c, kids, 2) < 1)
        return;
    CXCursor lhs = pr_strip(kids[0]);
    if (k == CXCursor_ArraySubscriptExpr || clang_getCursorKind(lhs) != CXCursor_DeclRefExpr)
        return;
    CXCursor var = clang_getCursorReferenced(lhs);
    if (clang_getCursorKind(var) != CXCursor_VarDecl)
        return;
    pr_operator(c, op, sizeof op);
    if (k == CXCursor_BinaryOperator && !strcmp(op, "=")) {
        if (pr_env_set(&fr->env, var, pr_eval(kids[1], &fr->env)))
            fr->w->failed = 1;
    } else if (k == CXCursor_CompoundAssignOperator || !strcmp(op, "++") || !strcmp(op, "--")) {
        if (pr_env_set(&fr->env, var, (struct pr_val){0, 0}))
            fr->w->failed = 1;
    }
}

static void touch_memory(struct frame *fr, CXCursor c)
{
    long long size = clang_Type_getSizeOf(clang_getCursorType(c));
    if (size > 0)
        add(fr, PR_MEMORY, (double)size * fr->mult, fr->mult_unknown);
}

/* A variable read or written by name: its bytes, when it is a scalar (an
 * array's or structure's elements and members are counted where accessed). */
static void touch_variable(struct frame *fr, CXCursor ref)
{
    CXCursor d = clang_getCursorReferenced(ref);
    enum CXCursorKind k = clang_getCursorKind(d);
    if (k != CXCursor_VarDecl && k != CXCursor_ParmDecl)
        return;
    switch (clang_getCanonicalType(clang_getCursorType(ref)).kind) {
    case CXType_ConstantArray:
    case CXType_IncompleteArray:
    case CXType_VariableArray:
    case CXType_Record:
        return;
    default:
        touch_memory(fr, ref);
    }
}

static enum CXChildVisitResult walk_visit(CXCursor c, CXCursor parent, CXClientData data)
{
    struct frame *fr = data;
    enum CXCursorKind k = clang_getCursorKind(c);
    fr->w->visits++;
    switch (k) {
    case CXCursor_ForStmt:
        walk_loop(fr, c, "for");
        break;
    case CXCursor_WhileStmt:
        walk_loop(fr, c, "while");
        break;
    case CXCursor_DoStmt:
        walk_loop(fr, c, "do");
        break;
    case CXCursor_IfStmt:
        walk_branch(fr, c, "if");
        break;
    case CXCursor_SwitchStmt:
        walk_branch(fr, c, "switch");
        break;
    case CXCursor_ConditionalOperator:
        walk_branch(fr, c, NULL);
        break;
    case CXCursor_CallExpr:
        walk_call(fr, c);
        break;
    case CXCursor_VarDecl:
        walk_vardecl(fr, c);
        break;
    case CXCursor_BinaryOperator:
    case CXCursor_CompoundAssignOperator:
    case CXCursor_UnaryOperator:
        walk_assign(fr, c, k);
        if (k == CXCursor_UnaryOperator) {
            char op[8];
            pr_operator(c, op, sizeof op);
            if (!strcmp(op, "*"))
                touch_memory(fr, c);
        }
        break;
    case CXCursor_ArraySubscriptExpr:
    case CXCursor_MemberRefExpr:
        touch_memory(fr, c);
        walk_children(fr, c);
        break;
    case CXCursor_DeclRefExpr:
        touch_variable(fr, c);
        break;
    case CXCursor_UnaryExpr: /* sizeof, alignof: the operand is not evaluated */
        break;
    default:
        walk_children(fr, c);
        break;
    }
    return CXChildVisit_Continue;
}

static void walk_children(struct frame *fr, CXCursor c)
{
    clang_visitChildren(c, walk_visit, fr);
}

static void walk_function(struct walker *w, struct fn *f, struct pr_env *args, double mult,
                          int mult_unknown, int call_depth, int expand)
{
    struct frame *fr = calloc(1, sizeof *fr);
    if (!fr) {
        w->failed = 1;
        return;
    }
    fr->w = w;
    fr->fn = f;
    fr->env = *args;
    *args = (struct pr_env){0};
    fr->mult = mult;
    fr->mult_unknown = mult_unknown;
    fr->call_depth = call_depth;
    fr->expand = expand;
    fr->count_stack = !f->walked;
    push(fr, f->block, 0);
    w->prog->blocks[f->block].reached |= expand;
    f->on_stack = 1;
    f->walked = 1;
    walk_children(fr, f->def);
    f->on_stack = 0;
    free(fr->env.b);
    free(fr);
}

struct collect_ctx {
    struct walker *w;
    struct fn *fns;
    size_t n, cap;
};

static enum CXChildVisitResult collect_fn(CXCursor c, CXCursor parent, CXClientData data)
{
    struct collect_ctx *ctx = data;
    if (clang_getCursorKind(c) != CXCursor_FunctionDecl || !clang_isCursorDefinition(c) ||
        !clang_Location_isFromMainFile(clang_getCursorLocation(c)))
        return CXChildVisit_Continue;
    if (ctx->n == ctx->cap) {
        size_t cap = ctx->cap ? ctx->cap * 2 : 64;
        struct fn *f = realloc(ctx->fns, cap * sizeof *f);
        if (!f) {
            ctx->w->failed = 1;
            return CXChildVisit_Break;
        }
        ctx->fns = f;
        ctx->cap = cap;
    }
    CXString usr = clang_getCursorUSR(c), name = clang_getCursorSpelling(c);
    struct fn *f = &ctx->fns[ctx->n];
    f->usr = strdup(clang_getCString(usr));
    f->def = c;
    f->on_stack = f->walked = 0;
    f->block = block_of(ctx->w, c, PR_FUNCTION, clang_getCString(name), -1);
    clang_disposeString(usr);
    clang_disposeString(name);
    if (!f->usr || f->block < 0) {
        free(f->usr);
        ctx->w->failed = 1;
        return CXChildVisit_Break;
    }
    ctx->n++;
    return CXChildVisit_Continue;
}

int pr_walk(struct pr_program *prog, CXTranslationUnit *tus, int n, const struct pr_options *opt)
{
    struct walker w = {.prog = prog, .opt = opt};
    struct collect_ctx ctx = {&w, NULL, 0, 0};
    int rc = -1;
    for (int i = 0; i < n; i++)
        clang_visitChildren(clang_getTranslationUnitCursor(tus[i]), collect_fn, &ctx);
    w.fns = ctx.fns;
    w.nfns = ctx.n;
    if (w.failed)
        goto out;
    if (w.nfns)
        qsort(w.fns, w.nfns, sizeof *w.fns, cmp_fn);
    /* a function given twice (same file twice) is walked once */
    struct fn *main_fn = NULL;
    for (size_t i = 0; i < w.nfns; i++) {
        if (i > 0 && !strcmp(w.fns[i].usr, w.fns[i - 1].usr))
            w.fns[i].walked = 1;
        if (!strcmp(prog->blocks[w.fns[i].block].name, "main"))
            main_fn = &w.fns[i];
    }
    struct pr_env none = {0};
    if (main_fn)
        walk_function(&w, main_fn, &none, 1, 0, 0, 1);
    for (size_t i = 0; i < w.nfns; i++)
        if (!w.fns[i].walked)
            walk_function(&w, &w.fns[i], &none, 1, 0, 0, 0);
    rc = w.failed ? -1 : 0;
out:
    for (size_t i = 0; i < w.nfns; i++)
        free(w.fns[i].usr);
    free(w.fns);
    free(w.slots);
    return rc;
}
