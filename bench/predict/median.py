#!/usr/bin/env python3
"""One run file from several runs of the same program: each function's own
time and each call site's calls, bytes and time are the median over the runs
(the machine is shared; one run's noise should not decide a ranking)."""
import json
import statistics
import sys

runs = [json.load(open(p)) for p in sys.argv[1:]]
out = {k: runs[0][k] for k in ("program", "sources")}
names = [f["function"] for f in runs[0]["functions"]]
out["functions"] = [
    {"function": n, "time": statistics.median(
        next((f["time"] for f in r["functions"] if f["function"] == n), 0) for r in runs)}
    for n in names]

def key(s):
    return (s["function"], s.get("file", ""), s.get("line", 0), s.get("module", ""), s["op"])


# A line reached from several callers is several sites of iolens callsites:
# one per line here.
for r in runs:
    merged = {}
    for s in r["sites"]:
        m = merged.setdefault(key(s), dict(s, calls=0, bytes=0, time=0))
        for k in ("calls", "bytes", "time"):
            m[k] += s[k]
    r["sites"] = list(merged.values())
out["sites"] = []
for site in runs[0]["sites"]:
    same = [next((s for s in r["sites"] if key(s) == key(site)), None) for r in runs]
    merged = dict(site)
    for k in ("calls", "bytes", "time"):
        merged[k] = statistics.median(s[k] if s else 0 for s in same)
    out["sites"].append(merged)
print(json.dumps(out, indent=1))
