/* The expression evaluator of iolens predict: what the source says a value
 * is (constants, macros, sizeof, enumerators, const globals, variables bound
 * during the walk, arithmetic on them), and nothing more: a value the source
 * does not determine is unknown. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

static const struct pr_val unknown_val = {0, 0};

struct children_ctx {
    CXCursor *out;
    unsigned n, max;
};

static enum CXChildVisitResult collect_child(CXCursor c, CXCursor parent, CXClientData data)
{
    struct children_ctx *ctx = data;
    if (ctx->n < ctx->max)
        ctx->out[ctx->n] = c;
    ctx->n++;
    return CXChildVisit_Continue;
}

unsigned pr_children(CXCursor c, CXCursor *out, unsigned max)
{
    struct children_ctx ctx = {out, 0, max};
    clang_visitChildren(c, collect_child, &ctx);
    return ctx.n < max ? ctx.n : max;
}

CXCursor pr_strip(CXCursor e)
{
    for (;;) {
        enum CXCursorKind k = clang_getCursorKind(e);
        CXCursor kids[2];
        if (k != CXCursor_UnexposedExpr && k != CXCursor_ParenExpr && k != CXCursor_CStyleCastExpr)
            return e;
        unsigned n = pr_children(e, kids, 2);
        if (n == 0)
            return e;
        e = kids[n - 1]; /* a cast's type reference comes first */
        if (clang_getCursorKind(e) == CXCursor_TypeRef)
            return e;
    }
}

/* The offset in its file where the source location is written, macros
 * taken as their invocations. */
static unsigned offset_of(CXSourceLocation loc)
{
    unsigned off;
    clang_getExpansionLocation(loc, NULL, NULL, NULL, &off);
    return off;
}

/* e's extent as written in the file: a cursor from a macro's body spans
 * the macro's invocation. */
static CXSourceRange file_extent(CXCursor e)
{
    CXSourceRange r = clang_getCursorExtent(e);
    CXTranslationUnit tu = clang_Cursor_getTranslationUnit(e);
    CXFile f1, f2;
    unsigned l1, c1, l2, c2;
    clang_getExpansionLocation(clang_getRangeStart(r), &f1, &l1, &c1, NULL);
    clang_getExpansionLocation(clang_getRangeEnd(r), &f2, &l2, &c2, NULL);
    if (!f1 || !clang_File_isEqual(f1, f2))
        return clang_getNullRange();
    return clang_getRange(clang_getLocation(tu, f1, l1, c1), clang_getLocation(tu, f2, l2, c2));
}

/* The text of the punctuation token at or after offset `from` in e (before:
 * the last one before it). */
static void token_after(CXCursor e, unsigned from, int before, char *buf, size_t len)
{
    CXTranslationUnit tu = clang_Cursor_getTranslationUnit(e);
    CXToken *toks = NULL;
    unsigned n = 0;
    buf[0] = '\0';
    clang_tokenize(tu, file_extent(e), &toks, &n);
    for (unsigned i = 0; i < n; i++) {
        unsigned off = offset_of(clang_getTokenLocation(tu, toks[i]));
        if (before ? off < from : off >= from) {
            if (clang_getTokenKind(toks[i]) != CXToken_Punctuation)
                continue;
            CXString s = clang_getTokenSpelling(tu, toks[i]);
            snprintf(buf, len, "%s", clang_getCString(s));
            clang_disposeString(s);
            if (!before)
                break;
        }
    }
    clang_disposeTokens(tu, toks, n);
}

void pr_operator(CXCursor e, char *buf, size_t len)
{
    CXCursor kids[2];
    unsigned n = pr_children(e, kids, 2);
    buf[0] = '\0';
    if (n == 0)
        return;
    /* an operator inside a macro's body is not in the file's tokens */
    CXSourceLocation at = clang_getCursorLocation(e);
    unsigned spelled;
    clang_getSpellingLocation(at, NULL, NULL, NULL, &spelled);
    if (spelled != offset_of(at))
        return;
    CXSourceRange r = clang_getCursorExtent(kids[0]);
    unsigned start = offset_of(clang_getRangeStart(r)), end = offset_of(clang_getRangeEnd(r));
    unsigned estart = offset_of(clang_getRangeStart(clang_getCursorExtent(e)));
    if (n == 1 && start > estart) /* prefix unary: the last punctuation before the operand */
        token_after(e, start, 1, buf, len);
    else
        token_after(e, end, 0, buf, len);
}

void pr_source_text(CXCursor e, char *buf, size_t len)
{
    CXTranslationUnit tu = clang_Cursor_getTranslationUnit(e);
    CXToken *toks = NULL;
    unsigned n = 0;
    size_t at = 0;
    buf[0] = '\0';
    clang_tokenize(tu, file_extent(e), &toks, &n);
    for (unsigned i = 0; i < n && at + 1 < len; i++) {
        CXString s = clang_getTokenSpelling(tu, toks[i]);
        int w = snprintf(buf + at, len - at, "%s%s", i ? " " : "", clang_getCString(s));
        clang_disposeString(s);
        if (w < 0 || (size_t)w >= len - at) {
            buf[at] = '\0';
            break;
        }
        at += (size_t)w;
    }
    clang_disposeTokens(tu, toks, n);
}

int pr_env_set(struct pr_env *env, CXCursor decl, struct pr_val v)
{
    for (size_t i = 0; i < env->n; i++) {
        if (clang_equalCursors(env->b[i].decl, decl)) {
            env->b[i].val = v;
            return 0;
        }
    }
    if (env->n == env->cap) {
        size_t cap = env->cap ? env->cap * 2 : 16;
        struct pr_binding *b = realloc(env->b, cap * sizeof(*b));
        if (!b)
            return -1;
        env->b = b;
        env->cap = cap;
    }
    env->b[env->n++] = (struct pr_binding){decl, v};
    return 0;
}

static const struct pr_val *env_get(const struct pr_env *env, CXCursor decl)
{
    for (size_t i = env ? env->n : 0; i-- > 0;)
        if (clang_equalCursors(env->b[i].decl, decl))
            return &env->b[i].val;
    return NULL;
}

/* The variable e names (through casts), or a null cursor. */
static CXCursor named_variable(CXCursor e)
{
    e = pr_strip(e);
    if (clang_getCursorKind(e) != CXCursor_DeclRefExpr)
        return clang_getNullCursor();
    CXCursor d = clang_getCursorReferenced(e);
    enum CXCursorKind k = clang_getCursorKind(d);
    return k == CXCursor_VarDecl || k == CXCursor_ParmDecl ? d : clang_getNullCursor();
}

static enum CXChildVisitResult forget_visit(CXCursor c, CXCursor parent, CXClientData data)
{
    struct pr_env *env = data;
    enum CXCursorKind k = clang_getCursorKind(c);
    if (k == CXCursor_BinaryOperator || k == CXCursor_CompoundAssignOperator ||
        k == CXCursor_UnaryOperator) {
        char op[8];
        pr_operator(c, op, sizeof op);
        int assigns = k == CXCursor_CompoundAssignOperator || !strcmp(op, "=") ||
                      !strcmp(op, "++") || !strcmp(op, "--") || !strcmp(op, "&");
        CXCursor kid;
        if (assigns && pr_children(c, &kid, 1) == 1) {
            CXCursor v = named_variable(kid);
            if (!clang_Cursor_isNull(v) && env_get(env, v))
                pr_env_set(env, v, unknown_val);
        }
    }
    return CXChildVisit_Recurse;
}

void pr_env_forget_assigned(struct pr_env *env, CXCursor stmt)
{
    if (env->n)
        clang_visitChildren(stmt, forget_visit, env);
}

/* clang's own constant evaluation of e (literals, macros, sizeof, enum). */
static struct pr_val clang_constant(CXCursor e)
{
    struct pr_val r = unknown_val;
    CXEvalResult ev = clang_Cursor_Evaluate(e);
    if (!ev)
        return r;
    switch (clang_EvalResult_getKind(ev)) {
    case CXEval_Int:
        r.known = 1;
        r.v = clang_EvalResult_isUnsignedInt(ev) ? (double)clang_EvalResult_getAsUnsigned(ev)
                                                 : (double)clang_EvalResult_getAsLongLong(ev);
        break;
    case CXEval_Float:
        r.known = 1;
        r.v = clang_EvalResult_getAsDouble(ev);
        break;
    default:
        break;
    }
    clang_EvalResult_dispose(ev);
    return r;
}

static struct pr_val arith(const char *op, struct pr_val a, struct pr_val b)
{
    struct pr_val r = {0, a.known && b.known};
    if (!r.known)
        return r;
    if (!strcmp(op, "+"))
        r.v = a.v + b.v;
    else if (!strcmp(op, "-"))
        r.v = a.v - b.v;
    else if (!strcmp(op, "*"))
        r.v = a.v * b.v;
    else if (!strcmp(op, "/") && b.v != 0)
        r.v = trunc(a.v / b.v);
    else if (!strcmp(op, "%") && b.v != 0)
        r.v = fmod(a.v, b.v);
    else if (!strcmp(op, "<<") && b.v >= 0 && b.v < 63)
        r.v = a.v * ldexp(1, (int)b.v);
    else if (!strcmp(op, ">>") && b.v >= 0 && b.v < 63)
        r.v = floor(a.v / ldexp(1, (int)b.v));
    else if (!strcmp(op, "==") || !strcmp(op, "!="))
        r.v = (a.v == b.v) == !strcmp(op, "==");
    else if (!strcmp(op, "<"))
        r.v = a.v < b.v;
    else if (!strcmp(op, "<="))
        r.v = a.v <= b.v;
    else if (!strcmp(op, ">"))
        r.v = a.v > b.v;
    else if (!strcmp(op, ">="))
        r.v = a.v >= b.v;
    else
        r.known = 0;
    return r;
}

struct pr_val pr_var_value(CXCursor decl, const struct pr_env *env)
{
    const struct pr_val *bound = env_get(env, decl);
    if (bound)
        return *bound;
    if (clang_getCursorKind(decl) == CXCursor_VarDecl &&
        clang_isConstQualifiedType(clang_getCursorType(decl)))
        return clang_constant(decl);
    return unknown_val;
}

struct pr_val pr_eval(CXCursor e, const struct pr_env *env)
{
    e = pr_strip(e);
    enum CXCursorKind k = clang_getCursorKind(e);
    CXCursor kids[2];
    char op[8];
    /* clang folds what is constant, whatever macros it came through */
    if (k == CXCursor_BinaryOperator || k == CXCursor_UnaryOperator) {
        struct pr_val c = clang_constant(e);
        if (c.known)
            return c;
    }
    switch (k) {
    case CXCursor_IntegerLiteral:
    case CXCursor_FloatingLiteral:
    case CXCursor_CharacterLiteral:
    case CXCursor_UnaryExpr: /* sizeof */
        return clang_constant(e);
    case CXCursor_DeclRefExpr: {
        CXCursor d = clang_getCursorReferenced(e);
        if (clang_getCursorKind(d) == CXCursor_EnumConstantDecl)
            return (struct pr_val){(double)clang_getEnumConstantDeclValue(d), 1};
        return pr_var_value(d, env);
    }
    case CXCursor_BinaryOperator:
        if (pr_children(e, kids, 2) != 2)
            return unknown_val;
        pr_operator(e, op, sizeof op);
        return arith(op, pr_eval(kids[0], env), pr_eval(kids[1], env));
    case CXCursor_UnaryOperator:
        if (pr_children(e, kids, 1) != 1)
            return unknown_val;
        pr_operator(e, op, sizeof op);
        if (!strcmp(op, "-")) {
            struct pr_val v = pr_eval(kids[0], env);
            v.v = -v.v;
            return v;
        }
        if (!strcmp(op, "+"))
            return pr_eval(kids[0], env);
        if (!strcmp(op, "!")) {
            struct pr_val v = pr_eval(kids[0], env);
            v.v = v.v == 0;
            return v;
        }
        return unknown_val;
    case CXCursor_CallExpr: {
        char name[64];
        char lit[4096];
        pr_callee_name(e, name, sizeof name);
        CXCursor arg = clang_Cursor_getArgument(e, 0);
        long n;
        if (!strcmp(name, "strlen") && (n = pr_string_literal(arg, lit, sizeof lit)) >= 0)
            return (struct pr_val){(double)n, 1};
        return unknown_val;
    }
    default:
        return unknown_val;
    }
}

void pr_callee_name(CXCursor call, char *buf, size_t len)
{
    CXString s = clang_getCursorSpelling(call);
    snprintf(buf, len, "%s", clang_getCString(s));
    clang_disposeString(s);
}

long pr_string_literal(CXCursor e, char *buf, size_t len)
{
    e = pr_strip(e);
    if (clang_getCursorKind(e) != CXCursor_StringLiteral || len == 0)
        return -1;
    /* the literal as written, quotes and escapes included ("a" "b" too) */
    CXString s = clang_getCursorSpelling(e);
    const char *p = clang_getCString(s);
    long n = 0;
    int in = 0;
    for (; *p; p++) {
        if (*p == '"') {
            in = !in;
            continue;
        }
        if (!in)
            continue;
        char c = *p;
        if (c == '\\' && p[1]) {
            c = *++p;
            c = c == 'n' ? '\n' : c == 't' ? '\t' : c == '0' ? '\0' : c == 'r' ? '\r' : c;
        }
        if ((size_t)n + 1 < len)
            buf[n] = c;
        n++;
    }
    buf[(size_t)n < len ? (size_t)n : len - 1] = '\0';
    clang_disposeString(s);
    return n;
}
