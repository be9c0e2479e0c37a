#!/usr/bin/env python3
"""Prediction against measurement for bench/predict/run.sh: per program, its
functions' measured I/O intensity (run file) beside their predicted rank
(paper model and leave-one-program-out model); Spearman over all functions
and the share of programs whose most I/O-intensive function ranks first."""
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


def predicted(pred):
    """Per function, a key that sorts as the ranking: higher = more intensive."""
    n = len(pred["blocks"])
    return {b["name"]: n - b["rank"] for b in pred["blocks"] if b["kind"] == "function"}


def main():
    work, programs = sys.argv[1], sys.argv[2:]
    result = {}
    for model in ("paper", "lopo"):
        xs, ys, top_right = [], [], 0
        for p in programs:
            run = json.load(open(f"{work}/{p}.run.json"))
            pred = predicted(json.load(open(f"{work}/{p}.{model}.json")))
            meas = measured(run)
            names = [f for f in meas if f in pred]
            xs += [pred[f] for f in names]
            ys += [meas[f] for f in names]
            top_meas = max(names, key=lambda f: meas[f])
            top_pred = max(names, key=lambda f: pred[f])
            top_right += top_meas == top_pred
            if model == "lopo":
                place = {f: i + 1 for i, f in enumerate(sorted(names, key=lambda f: -pred[f]))}
                print(f"{p}: measured top {top_meas}, predicted top {top_pred}; measured "
                      "intensity (predicted place): " + ", ".join(
                          f"{f} {meas[f]:.3f} ({place[f]})"
                          for f in sorted(names, key=lambda f: -meas[f])))
        result[model] = (spearman(xs, ys), top_right, len(xs))
    for model, label in (("paper", "Table II coefficients"),
                         ("lopo", "recalibrated, leave one program out")):
        rho, top, n = result[model]
        print(f"{label}: Spearman {rho:.3f} over {n} functions; most I/O-intensive "
              f"function predicted first in {top} of {len(programs)} programs")


main()
