/* The CALLSITES module's stack walk (callsites.h): the return addresses of
 * the calling thread, found with the same .eh_frame tables and the same
 * rules as libgcc's unwinder (which glibc's backtrace() uses), for the
 * frames whose rules are the plain ones compilers emit on x86-64: the CFA
 * (the caller's stack pointer) is RSP or RBP plus a constant, the return
 * address and the caller's RBP are saved at constant offsets from it (or
 * RBP is left alone). A frame with any other rule (a signal frame, a CFA
 * expression, stack realignment through another register), without
 * tables, or a stack that looks wrong, makes the walk give up: the note
 * then takes backtrace(). The walk reads only the stack slots the tables
 * name, so it never goes further than libgcc would.
 *
 * Each frame's rule is computed once per return address and kept in a
 * fixed table, claimed by compare-and-swap and written once; a hit costs a
 * hash probe and, outside libiolens.so, _dl_find_object (lock-free), whose
 * answer (the object's link map and load address) must match the one the
 * rule was computed with, so that a rule does not outlive its object
 * (dlclose). */
#include "callsites.h"

#include <dlfcn.h>
#include <link.h>
#include <string.h>
#include <sys/mman.h>

#include "core/real.h"

#if defined(__x86_64__)

#define RULE_SLOTS 4096 /* power of two */
#define RULE_PROBES 8
#define STACK_SPAN (64u << 20) /* a frame larger than this: give up */

/* DWARF register numbers on x86-64. */
enum { REG_RBP = 6, REG_RSP = 7, REG_RA = 16 };

/* How a frame's caller is found. */
enum rule_kind { RULE_NONE, RULE_STEP, RULE_LAST, RULE_UNSUPPORTED };

struct rule {
    enum rule_kind kind; /* RULE_LAST: the return address is undefined (the stack's end) */
    int cfa_on_rbp;      /* else on RSP */
    int64_t cfa_off;
    int64_t ra_off;      /* the return address is at CFA + ra_off */
    int bp_saved;        /* the caller's RBP at CFA + bp_off, else unchanged */
    int64_t bp_off;
};

/* One cached rule; pc is claimed once (0: free), the rest written by the
 * claimer before flags (0 until then) is stored with release. */
struct rule_slot {
    _Atomic uint64_t pc;
    uint64_t map, base;
    int32_t cfa_off;
    int16_t ra_off, bp_off;
    _Atomic uint32_t flags;
};
enum { F_READY = 1, F_LAST = 2, F_ON_RBP = 4, F_BP_SAVED = 8 };

static struct rule_slot *rules;

/* ---- reading .eh_frame ---- */

struct reader {
    const uint8_t *p, *end;
    int bad;
};

static uint64_t uleb(struct reader *r)
{
    uint64_t v = 0;
    for (unsigned shift = 0; r->p < r->end && shift < 64; shift += 7) {
        uint8_t b = *r->p++;
        v |= (uint64_t)(b & 0x7f) << shift;
        if (!(b & 0x80))
            return v;
    }
    r->bad = 1;
    return 0;
}

static int64_t sleb(struct reader *r)
{
    int64_t v = 0;
    unsigned shift = 0;
    while (r->p < r->end && shift < 64) {
        uint8_t b = *r->p++;
        v |= (int64_t)((uint64_t)(b & 0x7f) << shift);
        shift += 7;
        if (!(b & 0x80)) {
            if (shift < 64 && (b & 0x40))
                v |= -((int64_t)1 << shift);
            return v;
        }
    }
    r->bad = 1;
    return 0;
}

static uint64_t fixed(struct reader *r, unsigned size)
{
    uint64_t v = 0;
    if ((size_t)(r->end - r->p) < size) {
        r->bad = 1;
        return 0;
    }
    memcpy(&v, r->p, size); /* little-endian */
    r->p += size;
    return v;
}

/* A pointer of encoding enc (absolute or pc-relative, 4 or 8 bytes; others
 * are not what compilers emit in .eh_frame on x86-64). */
static uint64_t encoded(struct reader *r, uint8_t enc)
{
    const uint8_t *at = r->p;
    uint64_t v;
    switch (enc & 0x0f) {
    case 0x00: case 0x04: case 0x0c: v = fixed(r, 8); break;
    case 0x03: v = fixed(r, 4); break;
    case 0x0b: v = (uint64_t)(int64_t)(int32_t)fixed(r, 4); break;
    default: r->bad = 1; return 0;
    }
    if ((enc & 0x70) == 0x10)
        v += (uint64_t)(uintptr_t)at;
    else if ((enc & 0x70) != 0)
        r->bad = 1;
    return v;
}

/* The FDE covering pc in the object's .eh_frame_hdr search table, or NULL. */
static const uint8_t *find_fde(const uint8_t *hdr, uint64_t pc)
{
    /* version 1; the table sorted, datarel sdata4 pairs: what ld emits */
    if (hdr[0] != 1 || hdr[3] != 0x3b)
        return NULL;
    struct reader r = {hdr + 4, hdr + 32, 0};
    encoded(&r, hdr[1]);
    uint64_t count = hdr[2] == 0x03 ? fixed(&r, 4) : (r.bad = 1, 0);
    if (r.bad || count == 0)
        return NULL;
    const int32_t *table = (const int32_t *)(const void *)r.p;
    uint64_t lo = 0, hi = count;
    while (hi - lo > 1) {
        uint64_t mid = lo + (hi - lo) / 2;
        if ((uint64_t)(uintptr_t)(hdr + table[2 * mid]) <= pc)
            lo = mid;
        else
            hi = mid;
    }
    if ((uint64_t)(uintptr_t)(hdr + table[2 * lo]) > pc)
        return NULL;
    return hdr + table[2 * lo + 1];
}

/* ---- the CFA program ---- */

enum { SAME, SAVED, UNDEFINED, OTHER };
struct regs {
    int cfa_reg;
    int64_t cfa_off;
    int ra, bp; /* SAME, SAVED (at CFA + *_off), UNDEFINED, OTHER */
    int64_t ra_off, bp_off;
};

struct cie {
    uint64_t code_align;
    int64_t data_align;
    uint8_t fde_enc;
    int has_aug_data;
    struct reader insns;
};

static int parse_cie(const uint8_t *c, struct cie *out)
{
    uint32_t len;
    memcpy(&len, c, 4);
    if (len == 0 || len == 0xffffffffu)
        return -1;
    struct reader r = {c + 4, c + 4 + len, 0};
    if (fixed(&r, 4) != 0)
        return -1;
    uint8_t version = (uint8_t)fixed(&r, 1);
    if (version != 1 && version != 3)
        return -1;
    const char *aug = (const char *)r.p;
    while (r.p < r.end && *r.p)
        r.p++;
    r.p++;
    out->code_align = uleb(&r);
    out->data_align = sleb(&r);
    uint64_t ra = version == 1 ? fixed(&r, 1) : uleb(&r);
    out->fde_enc = 0;
    out->has_aug_data = aug[0] == 'z';
    if (r.bad || ra != REG_RA || (aug[0] && aug[0] != 'z'))
        return -1;
    if (out->has_aug_data) {
        uint64_t n = uleb(&r);
        const uint8_t *after = r.p + n;
        for (const char *a = aug + 1; *a && !r.bad; a++) {
            if (*a == 'R') {
                out->fde_enc = (uint8_t)fixed(&r, 1);
            } else if (*a == 'L') {
                fixed(&r, 1);
            } else if (*a == 'P') {
                uint8_t enc = (uint8_t)fixed(&r, 1);
                encoded(&r, enc & 0x7f); /* the personality's address; indirect or not */
            } else {
                return -1; /* 'S' (a signal frame) and anything unknown */
            }
        }
        if (r.bad || after > r.end)
            return -1;
        r.p = after;
    }
    out->insns = r;
    return 0;
}

/* Runs a CFA program on s up to the row of pc (rows at locations below pc,
 * as libgcc does for a return address). @return 0, or -1: unsupported. */
static int run_cfa(struct reader r, const struct cie *c, uint64_t loc, uint64_t pc,
                   struct regs *s)
{
    struct regs saved[8];
    unsigned depth = 0;
    while (r.p < r.end && loc < pc) {
        uint8_t op = *r.p++;
        uint64_t reg = op & 0x3f;
        int64_t off;
        switch (op & 0xc0) {
        case 0x40:
            loc += reg * c->code_align;
            continue;
        case 0x80:
            off = (int64_t)uleb(&r) * c->data_align;
            goto saved_at;
        case 0xc0:
            goto restore;
        }
        switch (op) {
        case 0x00: break;
        case 0x02: loc += fixed(&r, 1) * c->code_align; break;
        case 0x03: loc += fixed(&r, 2) * c->code_align; break;
        case 0x04: loc += fixed(&r, 4) * c->code_align; break;
        case 0x05: reg = uleb(&r); off = (int64_t)uleb(&r) * c->data_align; goto saved_at;
        case 0x11: reg = uleb(&r); off = sleb(&r) * c->data_align; goto saved_at;
        case 0x06: reg = uleb(&r); goto restore;
        case 0x07: /* undefined */
        case 0x08: /* same value */
            reg = uleb(&r);
            if (reg == REG_RA)
                s->ra = op == 0x07 ? UNDEFINED : OTHER;
            else if (reg == REG_RBP)
                s->bp = op == 0x07 ? OTHER : SAME;
            break;
        case 0x09: /* in another register */
            reg = uleb(&r);
            uleb(&r);
            if (reg == REG_RA || reg == REG_RBP)
                return -1;
            break;
        case 0x0a:
            if (depth == sizeof(saved) / sizeof(*saved))
                return -1;
            saved[depth++] = *s;
            break;
        case 0x0b: /* the CFA rule comes back too: epilogues rely on it */
            if (depth == 0)
                return -1;
            *s = saved[--depth];
            break;
        case 0x0c: s->cfa_reg = (int)uleb(&r); s->cfa_off = (int64_t)uleb(&r); break;
        case 0x0d: s->cfa_reg = (int)uleb(&r); break;
        case 0x0e: s->cfa_off = (int64_t)uleb(&r); break;
        case 0x12: s->cfa_reg = (int)uleb(&r); s->cfa_off = sleb(&r) * c->data_align; break;
        case 0x13: s->cfa_off = sleb(&r) * c->data_align; break;
        case 0x10: /* expression */
        case 0x16: /* val_expression */
            reg = uleb(&r);
            r.p += uleb(&r);
            if (reg == REG_RA || reg == REG_RBP)
                return -1;
            break;
        case 0x14: /* val_offset */
        case 0x15:
            reg = uleb(&r);
            if (op == 0x14)
                uleb(&r);
            else
                sleb(&r);
            if (reg == REG_RA || reg == REG_RBP)
                return -1;
            break;
        case 0x2e: uleb(&r); break; /* GNU_args_size: for landing pads only */
        default: return -1;         /* set_loc, CFA expressions, the rest */
        }
        if (r.bad || r.p > r.end)
            return -1;
        continue;
    saved_at:
        if (reg == REG_RA) {
            s->ra = SAVED;
            s->ra_off = off;
        } else if (reg == REG_RBP) {
            s->bp = SAVED;
            s->bp_off = off;
        }
        if (r.bad)
            return -1;
        continue;
    restore: /* as libgcc: no rule (for RBP, unchanged; for the return address, none) */
        if (reg == REG_RA)
            s->ra = OTHER;
        else if (reg == REG_RBP)
            s->bp = SAME;
        if (r.bad)
            return -1;
    }
    return r.bad ? -1 : 0;
}

/* The rule of the frame whose return address (or, for the stack's end,
 * address) is pc, in the object whose .eh_frame_hdr is hdr. */
static struct rule compute_rule(const uint8_t *hdr, uint64_t pc)
{
    struct rule out = {RULE_UNSUPPORTED, 0, 0, 0, 0, 0};
    const uint8_t *f = hdr ? find_fde(hdr, pc - 1) : NULL;
    uint32_t len;
    if (!f)
        return out;
    memcpy(&len, f, 4);
    if (len == 0 || len == 0xffffffffu)
        return out;
    struct reader r = {f + 8, f + 4 + len, 0};
    int32_t cie_off;
    memcpy(&cie_off, f + 4, 4);
    struct cie c;
    if (cie_off == 0 || parse_cie(f + 4 - cie_off, &c) != 0)
        return out;
    uint64_t begin = encoded(&r, c.fde_enc);
    uint64_t range = encoded(&r, c.fde_enc & 0x0f);
    if (c.has_aug_data)
        r.p += uleb(&r);
    if (r.bad || r.p > r.end || pc - 1 < begin || pc - 1 >= begin + range)
        return out;
    struct regs s = {REG_RSP, 8, OTHER, SAME, 0, 0};
    if (run_cfa(c.insns, &c, begin, (uint64_t)-1, &s) != 0 || run_cfa(r, &c, begin, pc, &s) != 0)
        return out;
    if ((s.cfa_reg != REG_RSP && s.cfa_reg != REG_RBP) || s.bp == OTHER ||
        (s.ra != SAVED && s.ra != UNDEFINED) || s.cfa_off != (int32_t)s.cfa_off ||
        s.ra_off != (int16_t)s.ra_off || s.bp_off != (int16_t)s.bp_off)
        return out;
    out.kind = s.ra == UNDEFINED ? RULE_LAST : RULE_STEP;
    out.cfa_on_rbp = s.cfa_reg == REG_RBP;
    out.cfa_off = s.cfa_off;
    out.ra_off = s.ra_off;
    out.bp_saved = s.bp == SAVED;
    out.bp_off = s.bp_off;
    return out;
}

/* ---- the rule table ---- */

/* The rule of pc; own: pc is in libiolens.so, which cannot be unloaded while
 * it runs, so its rules need no check of their object. */
static struct rule rule_for(uint64_t pc, int own)
{
    struct rule none = {RULE_UNSUPPORTED, 0, 0, 0, 0, 0};
    struct dl_find_object obj;
    uint64_t map = 0, base = 0;
    if (!own) {
        if (_dl_find_object((void *)(uintptr_t)(pc - 1), &obj) != 0)
            return none;
        map = (uint64_t)(uintptr_t)obj.dlfo_link_map;
        base = (uint64_t)(uintptr_t)obj.dlfo_map_start;
    }
    uint64_t h = (pc * 0x9e3779b97f4a7c15ull) >> 40;
    struct rule_slot *free_slot = NULL;
    for (unsigned i = 0; rules && i < RULE_PROBES; i++) {
        struct rule_slot *e = &rules[(h + i) & (RULE_SLOTS - 1)];
        uint64_t at = atomic_load_explicit(&e->pc, memory_order_acquire);
        if (at == 0) {
            uint64_t expect = 0;
            if (atomic_compare_exchange_strong_explicit(&e->pc, &expect, pc,
                                                        memory_order_acquire,
                                                        memory_order_relaxed))
                free_slot = e;
            at = expect ? expect : pc;
            if (free_slot)
                break;
        }
        if (at != pc)
            continue;
        uint32_t fl = atomic_load_explicit(&e->flags, memory_order_acquire);
        if (!(fl & F_READY) || e->map != map || e->base != base)
            break; /* being written, or of an object since unloaded */
        struct rule got = {fl & F_LAST ? RULE_LAST : RULE_STEP, !!(fl & F_ON_RBP), e->cfa_off,
                           e->ra_off, !!(fl & F_BP_SAVED), e->bp_off};
        return got;
    }
    if (own && _dl_find_object((void *)(uintptr_t)(pc - 1), &obj) != 0)
        return none;
    struct rule r = compute_rule(obj.dlfo_eh_frame, pc);
    if (free_slot && r.kind != RULE_UNSUPPORTED) {
        free_slot->map = map;
        free_slot->base = base;
        free_slot->cfa_off = (int32_t)r.cfa_off;
        free_slot->ra_off = (int16_t)r.ra_off;
        free_slot->bp_off = (int16_t)r.bp_off;
        atomic_store_explicit(&free_slot->flags,
                              F_READY | (r.kind == RULE_LAST ? F_LAST : 0) |
                                  (r.cfa_on_rbp ? F_ON_RBP : 0) | (r.bp_saved ? F_BP_SAVED : 0),
                              memory_order_release);
    }
    return r;
}

void iol_cs_unwind_start(void)
{
    if (rules)
        return;
    void *m = iol_sys_mmap(NULL, RULE_SLOTS * sizeof(struct rule_slot), PROT_READ | PROT_WRITE,
                           MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (m != MAP_FAILED)
        rules = m;
}

int iol_cs_unwind(const struct iol_cs_frame *from, uint64_t own_lo, uint64_t own_hi,
                  uint64_t *frames, unsigned max)
{
    uint64_t pc = from->pc, sp = from->sp, bp = from->bp;
    unsigned n = 0;
    int outside = 0;
    /* a frame's rule is needed only to reach its caller: none for the last */
    for (unsigned steps = 0; steps < max + 16; steps++) {
        if (pc == 0)
            return (int)n; /* libgcc's end of the stack */
        int own = pc >= own_lo && pc < own_hi;
        outside |= !own;
        if (outside) {
            frames[n++] = pc;
            if (n == max)
                return (int)n;
        }
        struct rule r = rule_for(pc, own);
        if (r.kind == RULE_UNSUPPORTED)
            return -1;
        if (r.kind == RULE_LAST)
            return (int)n;
        uint64_t cfa = (r.cfa_on_rbp ? bp : sp) + (uint64_t)r.cfa_off;
        /* the caller's frame lies above this one, on the same stack */
        if (cfa <= sp || cfa - sp > STACK_SPAN || (cfa & 7) != 0)
            return -1;
        if (r.bp_saved)
            memcpy(&bp, (const void *)(uintptr_t)(cfa + (uint64_t)r.bp_off), sizeof(bp));
        memcpy(&pc, (const void *)(uintptr_t)(cfa + (uint64_t)r.ra_off), sizeof(pc));
        sp = cfa;
    }
    return -1;
}

#else

void iol_cs_unwind_start(void) {}

int iol_cs_unwind(const struct iol_cs_frame *from, uint64_t own_lo, uint64_t own_hi,
                  uint64_t *frames, unsigned max)
{
    (void)from;
    (void)own_lo;
    (void)own_hi;
    (void)frames;
    (void)max;
    return -1;
}

#endif
