/* Loops, branches and offsets: how many times a loop runs per entry (from
 * constant or symbolic bounds), how often a branch is taken, and whether an
 * offset is data-dependent (random). */
#include <math.h>
#include <string.h>

#include "internal.h"

static int is_comparison(const char *op)
{
    return !strcmp(op, "<") || !strcmp(op, "<=") || !strcmp(op, ">") || !strcmp(op, ">=") ||
           !strcmp(op, "!=");
}

/* The parts of a for statement; missing ones are null cursors. */
struct for_parts {
    CXCursor init, cond, inc, body;
};

static struct for_parts for_parts(CXCursor loop)
{
    CXCursor kids[4];
    unsigned n = pr_children(loop, kids, 4);
    struct for_parts p = {clang_getNullCursor(), clang_getNullCursor(), clang_getNullCursor(),
                          clang_getNullCursor()};
    if (n == 0)
        return p;
    p.body = kids[n - 1];
    if (n == 4) {
        p.init = kids[0], p.cond = kids[1], p.inc = kids[2];
        return p;
    }
    int seen_cond = 0;
    for (unsigned i = 0; i + 1 < n; i++) {
        CXCursor c = kids[i];
        enum CXCursorKind k = clang_getCursorKind(c);
        char op[8] = "";
        if (k == CXCursor_BinaryOperator || k == CXCursor_UnaryOperator)
            pr_operator(c, op, sizeof op);
        if (k == CXCursor_BinaryOperator && is_comparison(op)) {
            p.cond = c;
            seen_cond = 1;
        } else if (k == CXCursor_DeclStmt || (!seen_cond && !strcmp(op, "="))) {
            p.init = c;
        } else {
            p.inc = c;
        }
    }
    return p;
}

/* The variable e names, or a null cursor. */
static CXCursor var_of(CXCursor e)
{
    e = pr_strip(e);
    if (clang_getCursorKind(e) != CXCursor_DeclRefExpr)
        return clang_getNullCursor();
    return clang_getCursorReferenced(e);
}

/* The step of inc for variable v: +S, -S, or *S (*mult set). @return 0 if unknown. */
static int step_of(CXCursor inc, CXCursor v, const struct pr_env *env, double *step, int *mult)
{
    char op[8];
    CXCursor kids[2];
    enum CXCursorKind k = clang_getCursorKind(inc);
    *mult = 0;
    if (k == CXCursor_UnaryOperator && pr_children(inc, kids, 1) == 1 &&
        clang_equalCursors(var_of(kids[0]), v)) {
        pr_operator(inc, op, sizeof op);
        *step = !strcmp(op, "++") ? 1 : !strcmp(op, "--") ? -1 : 0;
        return *step != 0;
    }
    if ((k == CXCursor_CompoundAssignOperator || k == CXCursor_BinaryOperator) &&
        pr_children(inc, kids, 2) == 2 && clang_equalCursors(var_of(kids[0]), v)) {
        pr_operator(inc, op, sizeof op);
        struct pr_val s;
        if (!strcmp(op, "=")) { /* v = v + S */
            CXCursor rhs = pr_strip(kids[1]), parts[2];
            char rop[4];
            if (clang_getCursorKind(rhs) != CXCursor_BinaryOperator ||
                pr_children(rhs, parts, 2) != 2 || !clang_equalCursors(var_of(parts[0]), v))
                return 0;
            pr_operator(rhs, rop, sizeof rop);
            s = pr_eval(parts[1], env);
            snprintf(op, sizeof op, "%s=", rop);
        } else {
            s = pr_eval(kids[1], env);
        }
        if (!s.known || s.v == 0)
            return 0;
        if (!strcmp(op, "+="))
            *step = s.v;
        else if (!strcmp(op, "-="))
            *step = -s.v;
        else if (!strcmp(op, "*=") && s.v > 1)
            *step = s.v, *mult = 1;
        else
            return 0;
        return 1;
    }
    return 0;
}

/* The start value of v from the for's init (or its value before the loop). */
static struct pr_val start_of(CXCursor init, CXCursor v, const struct pr_env *env)
{
    CXCursor kids[2];
    if (clang_Cursor_isNull(init))
        return pr_var_value(v, env);
    if (clang_getCursorKind(init) == CXCursor_DeclStmt) {
        CXCursor decl;
        if (pr_children(init, &decl, 1) == 1 && clang_equalCursors(decl, v)) {
            unsigned n = pr_children(decl, kids, 2);
            if (n > 0)
                return pr_eval(kids[n - 1], env);
        }
        return (struct pr_val){0, 0};
    }
    if (pr_children(init, kids, 2) == 2 && clang_equalCursors(var_of(kids[0]), v))
        return pr_eval(kids[1], env);
    return (struct pr_val){0, 0};
}

static double trips_of(const char *op, double a, double b, double s, int mult)
{
    double t;
    if (mult) {
        if (a <= 0 || b <= a)
            return 0;
        t = ceil(log(b / a) / log(s) - 1e-9);
        return !strcmp(op, "<=") && fabs(a * pow(s, t) - b) < 1e-9 ? t + 1 : t;
    }
    double span = s > 0 ? b - a : a - b, st = fabs(s);
    if (!strcmp(op, "<=") || !strcmp(op, ">="))
        t = floor(span / st) + 1;
    else
        t = ceil(span / st);
    return t > 0 ? t : 0;
}

static struct pr_val for_trips(CXCursor loop, const struct pr_env *env, char *text, size_t len)
{
    struct for_parts p = for_parts(loop);
    struct pr_val none = {0, 0};
    CXCursor kids[2];
    char op[8];
    if (clang_Cursor_isNull(p.cond)) {
        snprintf(text, len, "%s", clang_Cursor_isNull(p.body) ? "" : "no condition");
        return none;
    }
    pr_source_text(p.cond, text, len);
    if (clang_getCursorKind(p.cond) != CXCursor_BinaryOperator || pr_children(p.cond, kids, 2) != 2)
        return none;
    pr_operator(p.cond, op, sizeof op);
    if (!is_comparison(op) || clang_Cursor_isNull(p.inc))
        return none;
    /* the counter is the side the increment changes */
    double step;
    int mult, side = -1;
    for (int i = 0; i < 2 && side < 0; i++) {
        CXCursor v = var_of(kids[i]);
        if (!clang_Cursor_isNull(v) && step_of(p.inc, v, env, &step, &mult))
            side = i;
    }
    if (side < 0)
        return none;
    if (side == 1) { /* n > i is i < n */
        const char *flip = !strcmp(op, "<") ? ">" : !strcmp(op, ">") ? "<" : !strcmp(op, "<=") ? ">="
                           : !strcmp(op, ">=") ? "<=" : "!=";
        snprintf(op, sizeof op, "%s", flip);
    }
    CXCursor v = var_of(kids[side]);
    struct pr_val a = start_of(p.init, v, env), b = pr_eval(kids[1 - side], env);
    if ((step > 0) != (op[0] == '<' || op[0] == '!'))
        return none;
    if (a.known && b.known)
        return (struct pr_val){trips_of(op, a.v, b.v, step, mult), 1};
    /* symbolic: the bound as written */
    char bound[64];
    pr_source_text(kids[1 - side], bound, sizeof bound);
    if (a.known && a.v == 0 && step == 1 && !mult)
        snprintf(text, len, "%s%s", bound, !strcmp(op, "<=") ? " + 1" : "");
    else if (mult)
        snprintf(text, len, "log(%s) steps", bound);
    else
        snprintf(text, len, "(%s) / %g from %s", bound, fabs(step), op);
    return none;
}

/* while (n-- > 0), while (n--): n trips. */
static struct pr_val countdown_trips(CXCursor cond, const struct pr_env *env)
{
    struct pr_val none = {0, 0};
    CXCursor kids[2], dec = pr_strip(cond);
    char op[8];
    if (clang_getCursorKind(dec) == CXCursor_BinaryOperator && pr_children(dec, kids, 2) == 2) {
        pr_operator(dec, op, sizeof op);
        struct pr_val zero = pr_eval(kids[1], env);
        if (strcmp(op, ">") || !zero.known || zero.v != 0)
            return none;
        dec = pr_strip(kids[0]);
    }
    if (clang_getCursorKind(dec) != CXCursor_UnaryOperator || pr_children(dec, kids, 1) != 1)
        return none;
    pr_operator(dec, op, sizeof op);
    if (strcmp(op, "--"))
        return none;
    struct pr_val n = pr_eval(kids[0], env);
    if (n.known && n.v < 0)
        n.v = 0;
    return n;
}

struct pr_val pr_trip_count(CXCursor loop, const struct pr_env *env, char *text, size_t len)
{
    CXCursor kids[2];
    text[0] = '\0';
    switch (clang_getCursorKind(loop)) {
    case CXCursor_ForStmt:
        return for_trips(loop, env, text, len);
    case CXCursor_WhileStmt:
        if (pr_children(loop, kids, 2) == 2) {
            pr_source_text(kids[0], text, len);
            return countdown_trips(kids[0], env);
        }
        break;
    case CXCursor_DoStmt:
        if (pr_children(loop, kids, 2) == 2)
            pr_source_text(kids[1], text, len);
        break;
    default:
        break;
    }
    return (struct pr_val){0, 0};
}

/* ---- branches --------------------------------------------------------------- */

/* K of `e % K` (K known and at least 2), or 0. */
static double modulus_of(CXCursor e, const struct pr_env *env)
{
    CXCursor kids[2];
    char op[8];
    e = pr_strip(e);
    if (clang_getCursorKind(e) != CXCursor_BinaryOperator || pr_children(e, kids, 2) != 2)
        return 0;
    pr_operator(e, op, sizeof op);
    struct pr_val k = pr_eval(kids[1], env);
    return !strcmp(op, "%") && k.known && k.v >= 2 ? k.v : 0;
}

double pr_branch_share(CXCursor cond, const struct pr_env *env)
{
    CXCursor kids[2];
    char op[8];
    struct pr_val v = pr_eval(cond, env);
    if (v.known)
        return v.v != 0;
    cond = pr_strip(cond);
    if (clang_getCursorKind(cond) != CXCursor_BinaryOperator || pr_children(cond, kids, 2) != 2)
        return -1;
    pr_operator(cond, op, sizeof op);
    if (strcmp(op, "==") && strcmp(op, "!="))
        return -1;
    for (int side = 0; side < 2; side++) {
        double k = modulus_of(kids[side], env);
        struct pr_val r = pr_eval(kids[!side], env);
        if (k > 0 && r.known && r.v >= 0 && r.v < k)
            return !strcmp(op, "==") ? 1 / k : 1 - 1 / k;
    }
    return -1;
}

/* ---- offsets ---------------------------------------------------------------- */

struct random_ctx {
    CXCursor body;   /* the function, for the variables' assignments */
    CXCursor target; /* a variable whose assignments are searched */
    int depth, random;
};

static int expr_random(CXCursor e, CXCursor body, int depth);

static enum CXChildVisitResult assign_visit(CXCursor c, CXCursor parent, CXClientData data)
{
    struct random_ctx *ctx = data;
    enum CXCursorKind k = clang_getCursorKind(c);
    CXCursor kids[2];
    unsigned n;
    if (k == CXCursor_VarDecl && clang_equalCursors(c, ctx->target)) {
        n = pr_children(c, kids, 2);
        if (n > 0 && expr_random(kids[n - 1], ctx->body, ctx->depth + 1))
            ctx->random = 1;
    } else if ((k == CXCursor_BinaryOperator || k == CXCursor_CompoundAssignOperator) &&
               pr_children(c, kids, 2) == 2 &&
               clang_equalCursors(clang_getCursorReferenced(pr_strip(kids[0])), ctx->target)) {
        char op[8];
        pr_operator(c, op, sizeof op);
        if ((k == CXCursor_CompoundAssignOperator || !strcmp(op, "=")) &&
            expr_random(kids[1], ctx->body, ctx->depth + 1))
            ctx->random = 1;
    }
    return ctx->random ? CXChildVisit_Break : CXChildVisit_Recurse;
}

static enum CXChildVisitResult random_visit(CXCursor c, CXCursor parent, CXClientData data)
{
    struct random_ctx *ctx = data;
    enum CXCursorKind k = clang_getCursorKind(c);
    if (k == CXCursor_CallExpr) {
        char name[64];
        pr_callee_name(c, name, sizeof name);
        if (pr_is_random_source(name))
            ctx->random = 1;
    } else if (k == CXCursor_ArraySubscriptExpr) {
        ctx->random = 1; /* an offset looked up in data */
    } else if (k == CXCursor_DeclRefExpr && ctx->depth < 4) {
        CXCursor d = clang_getCursorReferenced(c);
        if (clang_getCursorKind(d) == CXCursor_VarDecl) {
            struct random_ctx sub = {ctx->body, d, ctx->depth, 0};
            clang_visitChildren(ctx->body, assign_visit, &sub);
            ctx->random |= sub.random;
        }
    }
    return ctx->random ? CXChildVisit_Break : CXChildVisit_Recurse;
}

static int expr_random(CXCursor e, CXCursor body, int depth)
{
    struct random_ctx ctx = {body, clang_getNullCursor(), depth, 0};
    if (depth > 4)
        return 0;
    random_visit(e, clang_getNullCursor(), &ctx);
    if (!ctx.random)
        clang_visitChildren(e, random_visit, &ctx);
    return ctx.random;
}

int pr_offset_is_random(CXCursor e, CXCursor body)
{
    return expr_random(e, body, 0);
}
