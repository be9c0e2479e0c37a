#!/usr/bin/env python3
"""Checks of what iolens ingest and iolens collect stored (db_test.sh).

  db_check.py ingest URL IOLENS     every log in 'jobs' against `iolens parse`:
                                    one row per (module, rank, record) of the
                                    log's file modules, bytes and names equal
  db_check.py events URL FILE...    the events of the JSON lines in FILEs (what
                                    the runtime sent, or what was published),
                                    each stored once with its columns right,
                                    and the rollups equal to the events' sums
  db_check.py query URL SQL         print a query's rows (tab-separated)

URL is sqlite:PATH or postgresql://... (queried with psql). Exits 1 with a
FAIL line at the first difference."""
import collections
import json
import math
import sqlite3
import subprocess
import sys

# Modules whose records are not file records with counters (ingest skips them).
NOT_FILE_MODULES = {"HEATMAP"}


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def query(url, sql):
    if url.startswith("sqlite:"):
        con = sqlite3.connect(url[len("sqlite:"):])
        try:
            return [tuple(r) for r in con.execute(sql)]
        finally:
            con.close()
    out = subprocess.run(["psql", "-X", "-q", "-A", "-t", "-F", "\t", "-v", "ON_ERROR_STOP=1",
                          "-c", sql, url], capture_output=True, text=True)
    if out.returncode != 0:
        fail(f"psql: {out.stderr.strip()}")
    rows = []
    for line in out.stdout.splitlines():
        rows.append(tuple(None if v == "" else v for v in line.split("\t")))
    return rows


def num(v):
    return None if v is None else float(v)


def parse_records(iolens, log):
    """(module, rank, id) -> {counter: value, '_name': name} from iolens parse."""
    out = subprocess.run([iolens, "parse", "--show-incomplete", log], capture_output=True,
                         text=True, errors="replace")
    if out.returncode != 0:
        fail(f"iolens parse {log}: exit {out.returncode}: {out.stderr.strip()}")
    recs = collections.defaultdict(dict)
    for line in out.stdout.splitlines():
        if not line or line.startswith("#"):
            continue
        f = line.split("\t")
        if len(f) < 6 or f[0] in NOT_FILE_MODULES:
            continue
        r = recs[(f[0], int(f[1]), f[2])]
        r[f[3]] = f[4]
        r["_name"] = f[5]
    return recs


def check_ingest(url, iolens):
    jobs = query(url, "SELECT job_key, log_path FROM jobs WHERE source = 'log'")
    if not jobs:
        fail("no job stored")
    nrec = 0
    for key, path in jobs:
        want = parse_records(iolens, path)
        got = {(m, int(r), i): (br, bw, f) for m, r, i, br, bw, f in query(
            url, "SELECT module, rank, record_id, bytes_read, bytes_written, file FROM records"
                 f" WHERE job_key = '{key}'")}
        if set(want) != set(got):
            fail(f"{path}: records differ from iolens parse: only in parse "
                 f"{sorted(set(want) - set(got))[:5]}, only stored {sorted(set(got) - set(want))[:5]}")
        for k, c in want.items():
            prefix = k[0].replace("-", "")
            br, bw, name = got[k]
            for counter, stored in ((prefix + "_BYTES_READ", br), (prefix + "_BYTES_WRITTEN", bw)):
                if counter in c:
                    v = int(c[counter])
                    expect = None if v < 0 else v
                    if (None if stored is None else int(stored)) != expect:
                        fail(f"{path}: {k}: {counter} {v} but stored {stored}")
            if c["_name"] not in ("(null)", name) and not (name is None):
                fail(f"{path}: {k}: name {c['_name']!r} but stored {name!r}")
        nrec += len(want)
    print(f"ingest: {len(jobs)} logs, {nrec} records as iolens parse prints them")


def sent_events(files):
    """The events of the valid messages of files, as the runtime sent them."""
    events = []
    for path in files:
        with open(path, encoding="utf-8", errors="replace") as f:
            for line in f:
                try:
                    m = json.loads(line)
                except ValueError:
                    continue
                if not isinstance(m, dict) or "seg" not in m:
                    continue
                # the collector refuses a message with a time before 1970 or after 5000
                if any(not 0 <= s.get("timestamp", -1) < 1e11 for s in m["seg"]):
                    continue
                for s in m["seg"]:
                    events.append((m, s))
    return events


def check_events(url, files):
    sent = sent_events(files)
    rows = query(url, 'SELECT job_id, host, rank, thread, module, op, record_id, file, "offset",'
                      " length, start_time, duration, timestamp, process_time, total_time, cnt,"
                      " job_key FROM events")
    if len(rows) != len(sent):
        fail(f"{len(rows)} events stored, {len(sent)} sent")
    stored = {}
    for r in rows:
        key = (r[6], r[5], int(r[15]), round(float(r[12]), 6))
        if key in stored:
            fail(f"event stored twice: {key}")
        stored[key] = r
    sums = collections.Counter()
    for m, s in sent:
        key = (m["record_id_str"], m["op"], s["cnt"], round(s["timestamp"], 6))
        r = stored.get(key)
        if r is None:
            fail(f"event not stored: {key}")
        want = (m["job_id"], m["ProducerName"], m["rank"], s["thread"], m["module"], m["op"],
                m["record_id_str"], m["file"], s["off"] if s["off"] >= 0 else None,
                s["len"] if s["len"] >= 0 else None)
        got = (int(r[0]), r[1], int(r[2]), int(r[3]), r[4], r[5], r[6], r[7],
               None if r[8] is None else int(r[8]), None if r[9] is None else int(r[9]))
        if want != got:
            fail(f"event {key}: stored {got}, sent {want}")
        for col, v in ((10, s["timestamp"] - s["dur"]), (11, s["dur"]), (12, s["timestamp"]),
                       (13, s["start"]), (14, s["total"])):
            if not math.isclose(float(r[col]), v, abs_tol=1e-6):
                fail(f"event {key}: column {col} stored {r[col]}, sent {v}")
        if r[16] != f"events:{m['job_id']}":
            fail(f"event {key}: job_key {r[16]}")
        sec = (r[16], math.floor(s["timestamp"]))
        sums[sec + ("bytes_read",)] += s["len"] if m["op"] == "read" else 0
        sums[sec + ("bytes_written",)] += s["len"] if m["op"] == "write" else 0
        sums[sec + ("reads",)] += m["op"] == "read"
        sums[sec + ("writes",)] += m["op"] == "write"
        sums[sec + ("other_ops",)] += m["op"] not in ("read", "write")
    for job, sec, br, bw, rd, wr, oth in query(
            url, "SELECT job_key, second, bytes_read, bytes_written, reads, writes, other_ops"
                 " FROM rollup_job"):
        for name, v in (("bytes_read", br), ("bytes_written", bw), ("reads", rd),
                        ("writes", wr), ("other_ops", oth)):
            if int(v) != sums.pop((job, int(sec), name), 0):
                fail(f"rollup_job {job} {sec}: {name} {v}, the events say otherwise")
    if any(sums.values()):
        fail(f"events without their rollup_job row: {[k for k, v in sums.items() if v][:5]}")
    for table in ("rollup_rank", "rollup_file"):
        total = query(url, f"SELECT SUM(bytes_written), SUM(writes), SUM(reads) FROM {table}")[0]
        want = query(url, "SELECT SUM(bytes_written), SUM(writes), SUM(reads) FROM rollup_job")[0]
        if [num(v) for v in total] != [num(v) for v in want]:
            fail(f"{table} sums {total}, rollup_job's {want}")
    n = query(url, "SELECT SUM(events) FROM processes")[0][0]
    if int(n) != len(sent):
        fail(f"processes count {n} events, {len(sent)} sent")
    print(f"events: {len(sent)} sent, each stored once with its columns; rollups agree")


def main():
    if len(sys.argv) < 3:
        fail(__doc__)
    what, url = sys.argv[1], sys.argv[2]
    if what == "ingest":
        check_ingest(url, sys.argv[3])
    elif what == "events":
        check_events(url, sys.argv[3:])
    elif what == "query":
        for r in query(url, sys.argv[3]):
            print("\t".join("" if v is None else str(v) for v in r))
    else:
        fail(f"unknown check {what}")


if __name__ == "__main__":
    main()
