#!/usr/bin/env python3
"""Prediction against measurement for bench/predict/run.sh: per program, its
functions' measured I/O intensity (run file) beside their predicted place
(leave-one-program-out model); Spearman between prediction and measured
intensity over all functions, and the share of programs whose most
I/O-intensive function is predicted first, with Table II's and the
leave-one-out coefficients, each counted two ways: equal CIOC values as
ties, and predict's own order (its secondary order among equal values); and
how often the function predicted first is as intensive as the measured top
within the spread of the runs."""
import json
import sys


def ranks(values):
    """Average ranks (1 = smallest) with ties shared."""
    order = sorted(range(len(values)), key=lambda i: values[i])
    r = [0.0] * len(values)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
            j += 1
        for k in range(i, j + 1):
            r[order[k]] = (i + j) / 2 + 1
        i = j + 1
    return r


def spearman(x, y):
    rx, ry = ranks(x), ranks(y)
    n = len(x)
    mx, my = sum(rx) / n, sum(ry) / n
    cov = sum((a - mx) * (b - my) for a, b in zip(rx, ry))
    vx = sum((a - mx) ** 2 for a in rx) ** 0.5
    vy = sum((b - my) ** 2 for b in ry) ** 0.5
    return cov / (vx * vy) if vx and vy else float("nan")


def measured(run):
    io = {}
    for s in run["sites"]:
        io[s["function"]] = io.get(s["function"], 0) + s["time"]
    return {f["function"]: min(1.0, io.get(f["function"], 0) / f["time"])
            for f in run["functions"] if f["time"] > 0}


def predicted(pred, by):
    """Per function, how intensive it is predicted (higher = more): by "cioc",
    its CIOC value, equal values being ties, not an order; by "rank", its CIOC
    value with equal values ordered as predict orders them (its documented
    secondary order, here through the place it printed). A function without
    I/O is below all (Procedure 2) and they tie."""
    none = (float("-inf"), 0)
    return {b["name"]: (b["cioc"], -b["rank"] if by == "rank" else 0)
            if b["cioc"] is not None else none
            for b in pred["blocks"] if b["kind"] == "function"}


def top_within_spread(work, p, names, meas):
    """The functions as I/O-intensive as the measured top within the runs'
    spread: the top's lowest intensity over the runs is not above their
    highest. None without the single runs (RUN.run1.json ...)."""
    runs = []
    for k in range(1, 10):
        try:
            runs.append(measured(json.load(open(f"{work}/{p}.run{k}.json"))))
        except FileNotFoundError:
            break
    if len(runs) < 2:
        return None
    top = max(names, key=lambda f: meas[f])
    low = min(r.get(top, 0) for r in runs)
    return {f for f in names if max(r.get(f, 0) for r in runs) >= low}


def main():
    work, programs = sys.argv[1], sys.argv[2:]
    result = {}
    spread_right = None
    for model, by in (("paper", "cioc"), ("lopo", "cioc"), ("paper", "rank"), ("lopo", "rank")):
        xs, ys, top_right = [], [], 0
        for p in programs:
            run = json.load(open(f"{work}/{p}.run.json"))
            pred = predicted(json.load(open(f"{work}/{p}.{model}.json")), by)
            meas = measured(run)
            names = [f for f in meas if f in pred]
            xs += [pred[f] for f in names]
            ys += [meas[f] for f in names]
            top_meas = max(names, key=lambda f: meas[f])
            best = max(pred[f] for f in names)
            tied = [f for f in names if pred[f] == best]
            top_pred = "/".join(tied)
            # a tie for first place counts as 1/k of a hit
            top_right += (top_meas in tied) / len(tied)
            if model == "lopo" and by == "rank":
                within = top_within_spread(work, p, names, meas)
                if within is not None:
                    first = max(names, key=lambda f: pred[f])
                    spread_right = (spread_right or 0) + (first in within)
                place = {f: 1 + sum(pred[g] > pred[f] for g in names) for f in names}
                print(f"{p}: measured top {top_meas}, predicted top {top_pred}; measured "
                      "intensity (predicted place): " + ", ".join(
                          f"{f} {meas[f]:.3f} ({place[f]})"
                          for f in sorted(names, key=lambda f: -meas[f])))
        result[model, by] = (spearman(xs, ys), top_right, len(xs))
    for by, how in (("cioc", "equal CIOC values tied"), ("rank", "predict's order")):
        for model, label in (("paper", "Table II coefficients"),
                             ("lopo", "recalibrated, leave one program out")):
            rho, top, n = result[model, by]
            print(f"{label}, {how}: Spearman {rho:.3f} over {n} functions; most I/O-intensive "
                  f"function predicted first in {top:.1f} of {len(programs)} programs"
                  + (" (a tie for first counts 1/k)" if by == "cioc" else ""))
    if spread_right is not None:
        print(f"recalibrated, predict's order: the function predicted first is as I/O-intensive "
              f"as the measured top within the runs' spread in {spread_right} of "
              f"{len(programs)} programs")


if __name__ == "__main__":
    main()
