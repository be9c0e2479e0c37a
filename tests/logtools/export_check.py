#!/usr/bin/env python3
"""Check iolens export's output for one log against `iolens parse` and `iolens dxt`.

  export_check.py SCHEMA JSON CSV_DIR TRACE PARSE_TXT DXT_TXT

- JSON validates against SCHEMA (python3-jsonschema), and each record's counters
  are, value for value, the lines `iolens parse` prints for it (floats as %f);
  each trace module has as many segments as `iolens dxt` prints X_ lines for it.
- CSV_DIR holds one MODULE.csv per module of the JSON, with a header row; fixed
  modules one row per record whose cells are the JSON's values, trace modules
  one row per segment, the others one row per counter.
- TRACE is Chrome trace-event JSON: required keys on every event, X events per
  module as many as segments, slices of a track (pid, tid) and counter samples
  of a track (pid, name) in time order, every slice's track named.
Prints what differs and exits 1, or prints a summary and exits 0.
"""
import csv
import json
import os
import sys
from collections import Counter, defaultdict

try:
    import jsonschema
except ImportError:
    print("FAIL: python3-jsonschema is not installed (scripts/install-deps)")
    sys.exit(1)

errors = []


def fail(msg):
    errors.append(msg)


def value_text(name, v):
    """A JSON value as `iolens parse` prints it."""
    if v is None:
        return "nan"
    if "_F_" in name and isinstance(v, (int, float)):
        return "%f" % v
    return str(v)


def parse_lines(path):
    """Counter lines of `iolens parse`: (module, rank, id) -> {counter: text}."""
    recs = defaultdict(dict)
    with open(path, encoding="utf-8", errors="surrogateescape") as f:
        for line in f:
            if line.startswith("#") or not line.strip():
                continue
            p = line.rstrip("\n").split("\t")
            if len(p) < 5:
                continue
            recs[(p[0], int(p[1]), int(p[2]))][p[3]] = p[4]
    return recs


def dxt_counts(path):
    n = Counter()
    with open(path, encoding="utf-8", errors="surrogateescape") as f:
        for line in f:
            w = line.split()
            if w and w[0].startswith("X_"):
                n[w[0]] += 1
    return n


def check_json(doc, parsed, dxt):
    seen = set()
    for m in doc["modules"]:
        name = m["name"]
        if any("segments" in r for r in m["records"]):
            segs = sum(len(r["segments"]) for r in m["records"])
            want = dxt["X_" + name.replace("DXT_", "")]
            if segs != want:
                fail("%s: %d segments in the JSON, %d in iolens dxt" % (name, segs, want))
            for r in m["records"]:
                if len(r["segments"]) != r["write_count"] + r["read_count"]:
                    fail("%s record %d: segment count differs from its counts" % (name, r["id"]))
            continue
        for r in m["records"]:
            key = (name, r["rank"], r["id"])
            seen.add(key)
            want = parsed.get(key)
            if want is None:
                fail("%s: record %s not printed by iolens parse" % (name, key))
                continue
            for cname, v in r["counters"].items():
                if cname == "file_rec_id":
                    cname = next((k for k in want if k.endswith("_FILE_REC_ID")), cname)
                got = value_text(cname, v)
                if want.get(cname) != got:
                    fail("%s %s %s: JSON %s, parse %s" % (name, key[1:], cname, got, want.get(cname)))
                    break
            # A record printed more than once (records of the same id and rank) is
            # compared as a whole in the CSV check; here every printed counter
            # must at least appear in the JSON.
            missing = set(want) - set(r["counters"]) - {k for k in want if k.endswith("_FILE_REC_ID")}
            if missing:
                fail("%s %s: counters missing from the JSON: %s" % (name, key[1:], sorted(missing)[:5]))
    for key in parsed:
        if key not in seen and not key[0].startswith("DXT"):
            fail("record %s printed by iolens parse, not in the JSON" % (key,))


def check_csv(doc, csv_dir):
    for m in doc["modules"]:
        path = os.path.join(csv_dir, m["name"].replace("/", "_") + ".csv")
        if not os.path.exists(path):
            fail("no %s" % path)
            continue
        with open(path, newline="", encoding="utf-8", errors="surrogateescape") as f:
            rows = list(csv.reader(f))
        head, body = rows[0], rows[1:]
        if head[:3] != ["id", "rank", "name"]:
            fail("%s: header starts %s" % (path, head[:3]))
        if any(len(r) != len(head) for r in body):
            fail("%s: a row has not the header's %d cells" % (path, len(head)))
            continue
        recs = m["records"]
        if recs and "segments" in recs[0]:
            want = sum(len(r["segments"]) for r in recs)
        elif "value" in head:
            want = sum(len(r["counters"]) for r in recs)
        else:
            want = len(recs)
            for row, r in zip(body, recs):
                if int(row[0]) != r["id"] or int(row[1]) != r["rank"]:
                    fail("%s: row of record %d out of order" % (path, r["id"]))
                    break
                vals = list(r["counters"].values())
                for cell, v, col in zip(row[3:], vals, head[3:]):
                    if isinstance(v, float) and float(cell) != v or \
                       isinstance(v, int) and int(cell) != v:
                        fail("%s record %d %s: CSV %s, JSON %s" % (path, r["id"], col, cell, v))
                        break
        if len(body) != want:
            fail("%s: %d rows, expected %d" % (path, len(body), want))


def check_trace(trace, doc):
    ev = trace.get("traceEvents")
    if not isinstance(ev, list):
        fail("trace: no traceEvents list")
        return
    last = {}
    named = set()
    slices = Counter()
    for e in ev:
        ph = e.get("ph")
        if ph not in ("X", "C", "M") or "pid" not in e or "name" not in e:
            fail("trace: event without ph, pid or name: %s" % e)
            return
        if ph == "M":
            if e["name"] == "thread_name":
                named.add((e["pid"], e["tid"]))
            continue
        if not isinstance(e.get("ts"), (int, float)):
            fail("trace: event without ts: %s" % e)
            return
        if ph == "X":
            if not isinstance(e.get("dur"), (int, float)) or e["dur"] < 0 or "tid" not in e:
                fail("trace: slice without tid or dur >= 0: %s" % e)
                return
            if (e["pid"], e["tid"]) not in named:
                fail("trace: slice on an unnamed track: %s" % e)
                return
            track = ("X", e["pid"], e["tid"])
            slices[e["cat"]] += 1
        else:
            track = ("C", e["pid"], e["name"])
        if track in last and e["ts"] < last[track]:
            fail("trace: track %s goes back in time at %s" % (track, e["ts"]))
            return
        last[track] = e["ts"]
    for m in doc["modules"]:
        if m["records"] and "segments" in m["records"][0]:
            want = sum(len(r["segments"]) for r in m["records"])
            if slices[m["name"]] != want:
                fail("trace: %d %s slices, %d segments" % (slices[m["name"]], m["name"], want))


def main():
    if len(sys.argv) != 7:
        print(__doc__)
        return 2
    schema_p, json_p, csv_dir, trace_p, parse_p, dxt_p = sys.argv[1:]
    with open(schema_p) as f:
        schema = json.load(f)
    with open(json_p, encoding="utf-8") as f:
        doc = json.load(f)
    try:
        jsonschema.validate(doc, schema)
    except jsonschema.ValidationError as e:
        fail("schema: %s at %s" % (e.message[:200], list(e.absolute_path)))
    check_json(doc, parse_lines(parse_p), dxt_counts(dxt_p))
    check_csv(doc, csv_dir)
    with open(trace_p, encoding="utf-8") as f:
        check_trace(json.load(f), doc)
    for e in errors[:20]:
        print("FAIL %s: %s" % (os.path.basename(json_p), e))
    if not errors:
        n = sum(len(m["records"]) for m in doc["modules"])
        print("ok %s: %d modules, %d records" % (os.path.basename(json_p), len(doc["modules"]), n))
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
