/* The cost of a settings regular expression to regcomp (regex_cost.h). */
#include "regex_cost.h"

/* Past the bracket expression at *p ("[...]", "[]...]", "[^]...]", with
 * "[:class:]" and the like inside). */
static const char *skip_bracket(const char *p)
{
    p++;
    if (*p == '^')
        p++;
    if (*p == ']')
        p++;
    while (*p && *p != ']') {
        if (*p == '[' && (p[1] == ':' || p[1] == '.' || p[1] == '=')) {
            char kind = p[1];
            p += 2;
            while (*p && !(*p == kind && p[1] == ']'))
                p++;
            if (*p)
                p += 2;
        } else {
            p++;
        }
    }
    return *p ? p + 1 : p;
}

/* A bound "{m}", "{m,}" or "{m,n}" at *p: its largest count (m + 1 for
 * "{m,}", where the copies stop), moving *p past it; 0 when *p is not a
 * bound (then the brace is an ordinary character). */
static long bound_at(const char **p)
{
    const char *s = *p + 1;
    long m = 0, n = -1;
    if (*s < '0' || *s > '9')
        return 0;
    while (*s >= '0' && *s <= '9' && m <= 100000)
        m = m * 10 + (*s++ - '0');
    if (*s == ',') {
        s++;
        if (*s >= '0' && *s <= '9') {
            n = 0;
            while (*s >= '0' && *s <= '9' && n <= 100000)
                n = n * 10 + (*s++ - '0');
        } else {
            n = m + 1;
        }
    }
    if (*s != '}')
        return 0;
    *p = s + 1;
    return n > m ? n : m > 0 ? m : 1;
}

/* The worst cost within the group whose text starts at *p, which is left at
 * its ')' (or the end). -1: stacked quantifiers. */
static long group_cost(const char **p, int depth)
{
    long worst = 1, atom = 1;
    int after_quantifier = 0;
    while (**p && **p != ')') {
        const char *s = *p;
        long times = 0;
        if (*s == '*' || *s == '?') {
            times = 1;
            (*p)++;
        } else if (*s == '+') {
            times = 2; /* a+ is compiled as a a* */
            (*p)++;
        } else if (*s == '{' && (times = bound_at(p)) > 0) {
            /* *p moved past the bound */
        } else {
            after_quantifier = 0;
            if (*s == '\\') {
                *p += s[1] ? 2 : 1;
                atom = 1;
            } else if (*s == '[') {
                *p = skip_bracket(s);
                atom = 1;
            } else if (*s == '(') {
                (*p)++;
                if (depth > 64)
                    return -1;
                atom = group_cost(p, depth + 1);
                if (atom < 0)
                    return -1;
                if (**p == ')')
                    (*p)++;
            } else {
                (*p)++;
                atom = 1;
            }
            if (atom > worst)
                worst = atom;
            continue;
        }
        if (after_quantifier)
            return -1;
        after_quantifier = 1;
        long cost = atom * times;
        if (cost > 1000000)
            cost = 1000000;
        if (cost > worst)
            worst = cost;
    }
    return worst;
}

long iol_regex_cost(const char *re)
{
    const char *p = re;
    long worst = 1;
    while (*p) {
        long c = group_cost(&p, 0);
        if (c < 0)
            return -1;
        if (c > worst)
            worst = c;
        if (*p == ')') /* an unmatched ')': an ordinary character in ERE */
            p++;
    }
    return worst;
}
