/* The order in which an MPI_Reduce combines the ranks' operands, for the
 * REDUCE mode outside an MPI job (iolens merge): the fields a reduction takes
 * from one operand (POSIX_MODE, the four most common values, ties of the
 * fastest and slowest rank) and the last bits of the variances depend on it.
 *
 * The order is Open MPI 4.1's (coll/tuned, its fixed decision for a
 * commutative operation and root 0), the MPI Darshan 3.5's reduction is
 * usually run with: the algorithm follows from the number of processes and
 * the message's bytes, and every algorithm it picks for such an operation
 * walks a tree in which a process with children c0, c1, ... folds its own
 * operand into c0's result, then c1's result into that, and so on. Facts
 * taken from Open MPI 4.1.4 and checked against it (tests/merge). */
#include <stdlib.h>

#include "combine.h"

enum tree_shape {
    TREE_CHAIN,    /* linear, chain and pipeline: r's child is r + 1 */
    TREE_BINARY,   /* fanout 2, level by level */
    TREE_BINOMIAL, /* r's children r + 1, r + 2, r + 4, ... below r's lowest bit */
};

/* The shape Open MPI 4.1's fixed decision gives np processes and a message
 * of bytes bytes. Its in-order binary tree (np >= 256, a few message sizes)
 * and Rabenseifner's algorithm (np < 4, under 8 bytes: smaller than any
 * record) are taken as binomial and chain: docs/merge.md. */
static enum tree_shape shape_of(size_t np, uint64_t bytes)
{
    if (np < 4)
        return bytes >= 8 && bytes < 16 ? TREE_BINARY : TREE_CHAIN;
    if (np < 8) {
        if (bytes < 4096)
            return TREE_BINARY;
        if (bytes < 65536)
            return TREE_CHAIN;
        if (bytes < 262144)
            return TREE_BINOMIAL;
        if (bytes < 524288)
            return TREE_CHAIN;
        return bytes < 1048576 ? TREE_BINOMIAL : TREE_CHAIN;
    }
    if (np < 16)
        return bytes < 8192 ? TREE_BINARY : TREE_BINOMIAL;
    if (np < 32)
        return bytes < 4096 ? TREE_BINARY : TREE_BINOMIAL;
    return TREE_BINOMIAL;
}

/* The level of r in a tree of the given fanout: the first level whose nodes
 * (fanout^0 + fanout^1 + ...) reach past r. @return fanout^level. */
static size_t level_width(size_t r, size_t fanout)
{
    size_t width = 1, upto = 1;
    while (r >= upto) {
        width *= fanout;
        upto += width;
    }
    return width;
}

/* r's children in the order they are folded in; @return their count. */
static size_t children(enum tree_shape s, size_t np, size_t r, size_t out[64])
{
    size_t n = 0;
    switch (s) {
    case TREE_CHAIN:
        if (r + 1 < np)
            out[n++] = r + 1;
        break;
    case TREE_BINARY: {
        size_t w = level_width(r, 2);
        for (size_t i = 1; i <= 2 && r + w * i < np; i++)
            out[n++] = r + w * i;
        break;
    }
    case TREE_BINOMIAL:
        for (size_t mask = 1; mask < np && !(r & mask) && n < 64; mask <<= 1)
            if (r + mask < np)
                out[n++] = r + mask;
        break;
    }
    return n;
}

struct walk {
    enum tree_shape shape;
    size_t np, n;
    struct iolens_reduce_step *steps;
};

/* Append the steps of r's subtree. @return the operand holding its result. */
static size_t walk(struct walk *w, size_t r)
{
    size_t kids[64];
    size_t nk = children(w->shape, w->np, r, kids);
    if (nk == 0)
        return r;
    /* As deep as the tree: a chain has at most 7 processes (shape_of). */
    size_t acc = walk(w, kids[0]);
    w->steps[w->n++] = (struct iolens_reduce_step){(uint32_t)r, (uint32_t)acc};
    for (size_t i = 1; i < nk; i++) {
        size_t sub = walk(w, kids[i]);
        w->steps[w->n++] = (struct iolens_reduce_step){(uint32_t)sub, (uint32_t)acc};
    }
    return acc;
}

size_t iolens_combine_reduce_order(size_t nprocs, uint64_t bytes,
                                   struct iolens_reduce_step *steps)
{
    struct walk w = {shape_of(nprocs, bytes), nprocs, 0, steps};
    if (nprocs == 0)
        return 0;
    return walk(&w, 0);
}
