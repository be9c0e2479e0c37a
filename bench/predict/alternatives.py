#!/usr/bin/env python3
"""Other fits of the benchmark set's measurements, for comparison with what
`iolens predict --calibrate` does by default (forward stepwise on the
intensity; its line comes first and repeats evaluate.py's leave-one-out
figures, counted with equal values tied). Reads
the folder bench/predict/run.sh left (RUN.run.json, RUN.paper.json: the
variables X1..X16 of every function) and refits, leaving one program out,
with: backward or forward stepwise elimination (|t| < 2 out), on ln(measured
intensity) or on the intensity itself, and optionally one variable outside
the paper's formula, the block's bytes against bytes plus memory touched (a
static I/O-against-computation ratio). Prints Spearman over all functions and
the programs whose most I/O-intensive function is predicted first (a tie for
first counts 1/k), as evaluate.py counts them with equal values tied.

usage: alternatives.py WORKDIR PROGRAM..."""
import math
import sys

from evaluate import measured, spearman
import json


def load(work, programs):
    recs = []
    for p in programs:
        meas = measured(json.load(open(f"{work}/{p}.run.json")))
        for b in json.load(open(f"{work}/{p}.paper.json"))["blocks"]:
            if b["kind"] != "function" or b["name"] not in meas:
                continue
            par = b["parameters"]
            io_bytes, mem = par["bytes"] or 0, par["memory_bytes"] or 0
            recs.append({"prog": p, "y": meas[b["name"]], "io": b["cioc"] is not None,
                         "x": [1.0] + b["x"],
                         "ratio": io_bytes / (io_bytes + mem) if io_bytes + mem > 0 else 0.0})
    return recs


def solve(a, b):
    """Gaussian elimination with partial pivoting; None if singular."""
    n = len(a)
    m = [row[:] + [v] for row, v in zip(a, b)]
    for c in range(n):
        piv = max(range(c, n), key=lambda r: abs(m[r][c]))
        if abs(m[piv][c]) < 1e-12:
            return None
        m[c], m[piv] = m[piv], m[c]
        for r in range(n):
            if r != c:
                f = m[r][c] / m[c][c]
                for k in range(c, n + 1):
                    m[r][k] -= f * m[c][k]
    return [m[i][n] / m[i][i] for i in range(n)]


def ols(xs, ys, cols):
    """Coefficients and t-ratios of least squares on the columns cols."""
    k = len(cols)
    a = [[sum(x[cols[i]] * x[cols[j]] for x in xs) for j in range(k)] for i in range(k)]
    beta = solve(a, [sum(x[c] * y for x, y in zip(xs, ys)) for c in cols])
    if beta is None:
        return None, None
    res = [y - sum(b * x[c] for b, c in zip(beta, cols)) for x, y in zip(xs, ys)]
    s2 = sum(r * r for r in res) / max(1, len(ys) - k)
    t = []
    for i in range(k):
        inv = solve(a, [1.0 if r == i else 0.0 for r in range(k)])
        var = s2 * inv[i] if inv else 0
        t.append(beta[i] / math.sqrt(var) if var > 0 else math.inf)
    return beta, t


def candidates(xs, nvars):
    """The constant, then each variable that varies and is not the same
    column as one taken before it (X4 is X2 when no call is asynchronous):
    the columns `iolens predict --calibrate` starts from."""
    cols = [0]
    for c in range(1, nvars):
        column = [x[c] for x in xs]
        if min(column) < max(column) and not any(column == [x[k] for x in xs] for k in cols[1:]):
            cols.append(c)
    return cols


def backward(xs, ys, nvars):
    cols = candidates(xs, nvars)
    while True:
        beta, t = ols(xs, ys, cols)
        if beta is None:
            raise ValueError("singular system")
        weak = [i for i, c in enumerate(cols) if c and abs(t[i]) < 2]
        # too few records for the variables: drop the weakest too
        if not weak and len(cols) + 1 >= len(ys) and len(cols) > 1:
            weak = list(range(1, len(cols)))
        if not weak:
            return dict(zip(cols, beta))
        cols.pop(min(weak, key=lambda i: abs(t[i])))


def forward(xs, ys, nvars):
    allowed = candidates(xs, nvars)
    cols = [0]
    while True:
        best = None
        for c in allowed:
            if c in cols:
                continue
            beta, t = ols(xs, ys, cols + [c])
            if beta is not None and abs(t[-1]) >= 2 and (best is None or abs(t[-1]) > best[0]):
                best = (abs(t[-1]), c)
        if best is None:
            beta, _ = ols(xs, ys, cols)
            return dict(zip(cols, beta))
        cols.append(best[1])


def leave_one_out(recs, programs, fit, dependent, extra):
    def features(r):
        return r["x"] + [r["ratio"]] if extra else r["x"]
    nvars = len(features(recs[0]))
    score = {}
    for p in programs:
        train = [r for r in recs if r["prog"] != p and r["io"]]
        model = fit([features(r) for r in train], [dependent(r["y"]) for r in train], nvars)
        for i, r in enumerate(recs):
            if r["prog"] == p:
                score[i] = (sum(b * features(r)[c] for c, b in model.items())
                            if r["io"] else -math.inf)
    rho = spearman([score[i] for i in range(len(recs))], [r["y"] for r in recs])
    top = 0.0
    for p in programs:
        mine = [i for i, r in enumerate(recs) if r["prog"] == p]
        first = max(mine, key=lambda i: recs[i]["y"])
        best = max(score[i] for i in mine)
        tied = [i for i in mine if score[i] == best]
        top += (first in tied) / len(tied)
    return rho, top


def main():
    work, programs = sys.argv[1], sys.argv[2:]
    recs = load(work, programs)
    log_y = ("ln(intensity)", lambda y: math.log(max(y, 1e-6)))
    raw_y = ("intensity", lambda y: y)
    print(f"leave one program out, {len(recs)} functions of {len(programs)} programs")
    for extra in (False, True):
        for fit_name, fit in (("forward", forward), ("backward", backward)):
            for dep_name, dep in (raw_y, log_y):
                rho, top = leave_one_out(recs, programs, fit, dep, extra)
                print(f"{fit_name:8s} stepwise on {dep_name:13s}"
                      f"{' + bytes/(bytes+memory)' if extra else '':24s} Spearman {rho:.3f}, "
                      f"top function first in {top:.1f} of {len(programs)}")


if __name__ == "__main__":
    main()
