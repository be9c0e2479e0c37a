#!/usr/bin/env python3
"""Check iolens serve's answers against the database it serves.

usage:
  check_serve.py live BASE PROGRAM          wait for PROGRAM's job to be live, then
                                            see its events grow between two answers;
                                            prints the job key
  check_serve.py api BASE DBURL JOB [NP ROUNDS]
                                            every endpoint of JOB against the database;
                                            with NP, JOB is paced_mpi.c's job of NP ranks
                                            and ROUNDS rounds: one job, a series per rank
                                            with its MPI-IO bytes, MPI-IO in the latency
  check_serve.py http BASE                  methods, unknown paths, bad arguments, Host
  check_serve.py dom DOM BASE JOB BY [NP]   the page as Chromium left it, series by BY,
                                            against the API; with NP, one series per rank
  check_serve.py livedom DOM JOB            the page while JOB runs: shown live, with series

BASE is http://ADDRESS. The database is read with tests/db/db_check.py's query
(sqlite3, or psql for PostgreSQL). Prints one line per failed check and exits
1, or prints what it checked and exits 0."""
import html.parser
import json
import math
import os
import sys
import time
import urllib.error
import urllib.parse
import urllib.request

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "db"))
from db_check import query  # noqa: E402

failures = []


def fail(msg):
    failures.append(msg)


def get(base, path, method="GET", headers=None):
    """(status, headers, body) of a request."""
    req = urllib.request.Request(base + path, method=method, headers=headers or {})
    try:
        with urllib.request.urlopen(req, timeout=20) as r:
            return r.status, r.headers, r.read()
    except urllib.error.HTTPError as e:
        return e.code, e.headers, e.read()


def get_json(base, path):
    status, headers, body = get(base, path)
    if status != 200:
        raise SystemExit(f"FAIL: {path}: status {status}: {body[:200]!r}")
    if not headers.get("Content-Type", "").startswith("application/json"):
        fail(f"{path}: Content-Type {headers.get('Content-Type')}")
    return json.loads(body)


def job_path(job):
    return "/api/jobs/" + urllib.parse.quote(job, safe="")


def close(a, b):
    if a is None or b is None:
        return a is None and b is None
    return math.isclose(float(a), float(b), rel_tol=1e-9, abs_tol=1e-12)


def live(base, program):
    deadline = time.time() + 30
    while time.time() < deadline:
        jobs = [j for j in get_json(base, "/api/jobs")["jobs"]
                if program in (j["exe"] or "") and j["live"] and (j["events"] or 0) > 0]
        if jobs:
            break
        time.sleep(0.1)
    else:
        raise SystemExit(f"FAIL: no live job of {program} after 30 s")
    job = jobs[0]["job_key"]
    first = jobs[0]["events"]
    seen = [first]
    while time.time() < deadline:
        time.sleep(0.3)
        j = get_json(base, job_path(job))["job"]
        seen.append(j["events"])
        if j["events"] > first and j["live"]:
            print(job)
            print(f"live: {job} live, its events grew while it ran: {seen}", file=sys.stderr)
            return
    raise SystemExit(f"FAIL: {job}'s events did not grow while it ran: {seen}")


def check_mpi_job(base, url, job, nranks, rounds, lat):
    """paced_mpi.c's job of NRANKS ranks: one job (not one per rank), its
    processes the ranks, a series by rank per rank with that rank's bytes, and
    each rank's MPI-IO events (open, ROUNDS writes of (R + 1) * 4 KiB and
    reads of 512 bytes, close) among the latency's calls."""
    live_jobs = query(url, "SELECT job_key FROM jobs WHERE source = 'events'")
    if [r[0] for r in live_jobs] != [job]:
        fail(f"MPI job: live jobs {sorted(r[0] for r in live_jobs)}, expected one, {job}")
    procs = get_json(base, job_path(job))["processes"]
    hosts = {p["host"] for p in procs}
    if sorted(int(p["rank"]) for p in procs) != list(range(nranks)) or len(hosts) != 1:
        fail(f"MPI job: processes {[(p['host'], p['rank']) for p in procs]}, expected ranks 0..{nranks - 1} of one host")
        return
    host, = hosts
    s = get_json(base, job_path(job) + "/series?by=rank")
    got = {x["key"]: x for x in s["series"]}
    want_keys = {f"{host}:{r}" for r in range(nranks)}
    if set(got) != want_keys:
        fail(f"MPI job: series by rank {sorted(got)}, expected {sorted(want_keys)}")
        return
    for r in range(nranks):
        x = got[f"{host}:{r}"]
        if x["label"] != f"rank {r} ({host})" or x["totals"]["bytes_written"] <= 0 or \
                x["totals"]["bytes_read"] <= 0 or not x["points"]:
            fail(f"MPI job: series of rank {r}: {x['label']!r}, totals {x['totals']}")
    mpiio = {(int(r), op): (int(n), int(b or 0)) for r, op, n, b in query(
        url, "SELECT rank, op, COUNT(*), SUM(CASE WHEN length > 0 THEN length ELSE 0 END)"
        f" FROM events WHERE job_key = '{job}' AND module = 'MPIIO' GROUP BY rank, op")}
    for r in range(nranks):
        want = {"open": (1, 0), "write": (rounds, rounds * (r + 1) * 4096),
                "read": (rounds, rounds * 512), "close": (1, 0)}
        have = {op: v for (rr, op), v in mpiio.items() if rr == r}
        if have != want:
            fail(f"MPI job: rank {r}'s MPI-IO events (count, bytes) {have}, expected {want}")
    for op in ("open", "write", "read", "close"):
        n = sum(v[0] for (_, o), v in mpiio.items() if o == op)
        if op not in lat or lat[op]["count"] < n:
            fail(f"latency: {op}: {lat.get(op)}, fewer calls than its {n} MPI-IO events")
    print(f"mpi: one job of ranks {list(range(nranks))} on {host}; series by rank: "
          + ", ".join(f"rank {r} wrote {int(got[f'{host}:{r}']['totals']['bytes_written']):,} B"
                      for r in range(nranks))
          + f"; {sum(v[0] for v in mpiio.values())} MPI-IO events in the latency of "
          + ", ".join(sorted({o for _, o in mpiio})))


def check_api(base, url, job, nranks=None, rounds=None):
    jobs = {j["job_key"]: j for j in get_json(base, "/api/jobs")["jobs"]}
    db_jobs = query(url, "SELECT job_key, source, job_id, exe, start_time, end_time FROM jobs")
    if set(jobs) != {r[0] for r in db_jobs}:
        fail(f"/api/jobs: {sorted(jobs)} but the database has {sorted(r[0] for r in db_jobs)}")
    for key, source, job_id, exe, start, end in db_jobs:
        j = jobs.get(key)
        if j and (j["source"] != source or int(j["job_id"]) != int(job_id) or j["exe"] != exe
                  or not close(j["start_time"], start) or not close(j["end_time"], end)):
            fail(f"/api/jobs: {key}: {j} differs from the row {key, source, job_id, exe, start, end}")
    info = get_json(base, job_path(job))
    (nev, ndrop), = query(url, f"SELECT SUM(events), SUM(dropped) FROM processes WHERE job_key = '{job}'")
    (nrows,), = query(url, f"SELECT COUNT(*) FROM events WHERE job_key = '{job}'")
    if int(info["job"]["events"]) != int(nev) or int(nev) != int(nrows):
        fail(f"{job}: {info['job']['events']} events, processes say {nev}, events has {nrows} rows")
    if len(info["processes"]) != len(query(url, f"SELECT 1 FROM processes WHERE job_key = '{job}'")):
        fail(f"{job}: processes differ")

    # series: each point a rollup row; totals against the events themselves
    ev = query(url, 'SELECT host, rank, record_id, op, length, duration, timestamp FROM events'
               f" WHERE job_key = '{job}'")
    names = dict(query(url, f"SELECT record_id, name FROM files WHERE job_key = '{job}'"))
    want = {"job": {}, "rank": {}, "file": {}}
    for host, rank, rid, op, length, dur, ts in ev:
        for by, key in (("job", "job"), ("rank", f"{host}:{int(rank)}"), ("file", rid)):
            t = want[by].setdefault(key, {"bytes_read": 0, "bytes_written": 0, "reads": 0,
                                          "writes": 0, "other_ops": 0, "io_time": 0.0})
            if op == "read":
                t["bytes_read"] += int(length)
                t["reads"] += 1
            elif op == "write":
                t["bytes_written"] += int(length)
                t["writes"] += 1
            else:
                t["other_ops"] += 1
            t["io_time"] += float(dur or 0)
    table = {"job": "rollup_job", "rank": "rollup_rank", "file": "rollup_file"}
    for by in ("job", "rank", "file"):
        s = get_json(base, job_path(job) + f"/series?by={by}&limit=10000")
        got = {x["key"]: x for x in s["series"]}
        if s["by"] != by or set(got) != set(want[by]) or s["total_series"] != len(want[by]):
            fail(f"series by {by}: keys {sorted(got)}, the events give {sorted(want[by])}")
            continue
        for key, x in got.items():
            for i, name in enumerate(s["columns"][1:], 1):
                if not close(sum(p[i] for p in x["points"]), x["totals"][name]):
                    fail(f"series by {by} {key}: points' {name} do not add up to its total")
                if not close(x["totals"][name], want[by][key][name]) and name != "io_time":
                    fail(f"series by {by} {key}: {name} {x['totals'][name]}, events {want[by][key][name]}")
            if not math.isclose(x["totals"]["io_time"], want[by][key]["io_time"], abs_tol=1e-9):
                fail(f"series by {by} {key}: io_time {x['totals']['io_time']}, events {want[by][key]['io_time']}")
            if by == "file" and x["label"] != (names.get(key) or key):
                fail(f"series by file {key}: label {x['label']!r}, files has {names.get(key)!r}")
        nrows_r = len(query(url, f"SELECT 1 FROM {table[by]} WHERE job_key = '{job}'"))
        if sum(len(x["points"]) for x in got.values()) != nrows_r:
            fail(f"series by {by}: not one point per row of {table[by]} ({nrows_r})")
        tops = [x["totals"]["bytes_read"] + x["totals"]["bytes_written"] for x in s["series"]]
        if tops != sorted(tops, reverse=True):
            fail(f"series by {by}: not the busiest first: {tops}")
    # fewer points than seconds: each sums a step of seconds, totals kept
    full = get_json(base, job_path(job) + "/series?by=job")
    secs = [p[0] for p in full["series"][0]["points"]]
    span = secs[-1] - secs[0] + 1
    if full["step"] != 1 or span < 3:
        fail(f"series by job: step {full['step']} over {span} s (the run lasts 3 s or more)")
    else:
        half = get_json(base, job_path(job) + f"/series?by=job&points={span - 1}")
        step = -(-span // (span - 1))
        pts = half["series"][0]["points"]
        if half["step"] != step or any((p[0] - secs[0]) % step for p in pts) or \
                [sum(p[i] for p in pts) for i in range(1, 6)] != \
                [sum(p[i] for p in full["series"][0]["points"]) for i in range(1, 6)]:
            fail(f"series of {span - 1} points over {span} s: step {half['step']}, {pts}")
    s1 = get_json(base, job_path(job) + "/series?by=file&limit=1")
    if len(s1["series"]) != 1 or s1["total_series"] != len(want["file"]):
        fail("series?limit=1: not the one busiest series")

    # latency: nearest-rank percentiles of each operation's durations
    durs = {}
    for _, _, _, op, _, dur, _ in ev:
        if dur is not None:
            durs.setdefault(op, []).append(float(dur))
    lat = {o["op"]: o for o in get_json(base, job_path(job) + "/latency")["ops"]}
    if set(lat) != set(durs):
        fail(f"latency: ops {sorted(lat)}, events {sorted(durs)}")
    for op, d in durs.items():
        d.sort()
        exp = {"count": len(d), "min": d[0], "max": d[-1], "mean": sum(d) / len(d)}
        for p in (50, 90, 99):
            exp[f"p{p}"] = d[max(1, math.ceil(p / 100 * len(d))) - 1]
        for k, v in exp.items():
            if op in lat and not close(lat[op][k], v):
                fail(f"latency {op} {k}: {lat[op][k]}, events give {v}")

    # slowest: the files by their summed time, their names as stored
    slow = get_json(base, job_path(job) + "/slowest?limit=100")["files"]
    # Files whose times differ only in the last bits of their sums (the
    # database adds in its order, this check in its own) may come either way.
    times = {k: v["io_time"] for k, v in want["file"].items()}
    got = [f["record_id"] for f in slow]
    if sorted(got) != sorted(times) or any(
            times[a] < times[b] and not close(times[a], times[b]) for a, b in zip(got, got[1:])):
        fail(f"slowest: order {got}, times {times}")
    for f in slow:
        if f["name"] != names.get(f["record_id"]):
            fail(f"slowest: {f['record_id']} named {f['name']!r}, files has {names.get(f['record_id'])!r}")
    esc = [n for n in names.values() if n and n.endswith("esc <b>\"q'&.dat")]
    if not esc:
        fail(f"the file whose name needs escaping is not in files: {sorted(map(str, names.values()))}")
    if nranks is not None:
        check_mpi_job(base, url, job, nranks, rounds, lat)
    print(f"api: {len(jobs)} jobs, {job}: {nrows} events, series by job/rank/file "
          f"({len(want['rank'])} rank, {len(want['file'])} files), latency of {sorted(durs)}, "
          f"{len(slow)} slowest files, escaped names")


def check_http(base):
    def expect(status, path, method="GET", headers=None, what=""):
        got, hdrs, body = get(base, path, method, headers)
        if got != status:
            fail(f"{method} {path} {what}: status {got}, expected {status}: {body[:200]!r}")
        return hdrs, body
    for m in ("POST", "PUT", "DELETE", "PATCH"):
        hdrs, _ = expect(405, "/api/jobs", m)
        if hdrs.get("Allow") != "GET, HEAD":
            fail(f"{m}: Allow {hdrs.get('Allow')}")
    expect(200, "/", "HEAD")
    hdrs, body = expect(200, "/")
    csp = hdrs.get("Content-Security-Policy", "")
    if "script-src 'self'" not in csp or b"<script src=\"/static/chart.min.js\"" not in body:
        fail(f"/: no page with its own Chart.js and a policy: {csp}")
    for p in ("/static/chart.min.js", "/static/serve.js", "/static/serve.css"):
        expect(200, p)
    expect(404, "/nope")
    expect(404, "/api/jobs/events%3A0")
    expect(404, "/api/jobs/events%3A0/series")
    expect(400, "/api/jobs?limit=0")
    expect(400, "/api/jobs/x/series?by=nope")
    expect(400, "/api/jobs/x/slowest?limit=abc")
    expect(403, "/api/jobs", headers={"Host": "attacker.example"}, what="(another Host)")
    print("http: other methods 405, HEAD, assets, 404, 400 on bad arguments, 403 on a foreign Host")


class Dom(html.parser.HTMLParser):
    """The body's attributes and each table's body rows (cells' text)."""

    def __init__(self):
        super().__init__()
        self.body, self.tables, self.table, self.cell, self.in_body = {}, {}, None, None, False

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "body":
            self.body = a
        elif tag == "table":
            self.table = a.get("id")
            self.tables[self.table] = []
        elif tag == "tbody":
            self.in_body = True
        elif tag == "tr" and self.in_body:
            self.tables[self.table].append([])
        elif tag == "td" and self.in_body:
            self.cell = ""

    def handle_endtag(self, tag):
        if tag == "td" and self.cell is not None:
            self.tables[self.table][-1].append(self.cell)
            self.cell = None
        elif tag == "tbody":
            self.in_body = False

    def handle_data(self, data):
        if self.cell is not None:
            self.cell += data


def check_dom(dom_path, base, job, by, nranks=None):
    d = Dom()
    d.feed(open(dom_path, encoding="utf-8").read())
    if d.body.get("data-status") != "ready" or int(d.body.get("data-polls", 0)) < 2:
        fail(f"page: status {d.body.get('data-status')}, polls {d.body.get('data-polls')} (want ready, 2 or more)")
    jobs = get_json(base, "/api/jobs")["jobs"]
    shown = [r[0] for r in d.tables.get("jobs-table", [])]
    if shown != [j["job_key"] for j in jobs]:
        fail(f"jobs table: {shown}, the API: {[j['job_key'] for j in jobs]}")
    s = get_json(base, job_path(job) + f"/series?by={by}")
    rows = d.tables.get("series-table", [])
    want = [[x["label"], str(len(x["points"])), f"{int(x['totals']['bytes_read']):,}",
             f"{int(x['totals']['bytes_written']):,}"] for x in s["series"]]
    if [r[:4] for r in rows] != want:
        fail(f"series table: {[r[:4] for r in rows]}, the API: {want}")
    lat = get_json(base, job_path(job) + "/latency")["ops"]
    if [(r[0], r[1]) for r in d.tables.get("latency-table", [])] != [(o["op"], f"{o['count']:,}") for o in lat]:
        fail(f"latency table: {d.tables.get('latency-table')}, the API: {lat}")
    slow = get_json(base, job_path(job) + "/slowest")["files"]
    if [r[0] for r in d.tables.get("slowest-table", [])] != [f["name"] or f["record_id"] for f in slow]:
        fail(f"slowest table: {[r[0] for r in d.tables.get('slowest-table', [])]}, the API: {slow}")
    names = [r[0] for r in (rows if by == "file" else d.tables.get("slowest-table", []))]
    if not any("esc <b>\"q'&.dat" in n for n in names):
        fail("the file whose name needs escaping is not shown as its text")
    if nranks is not None:
        ranks = sorted(int(r[0].split()[1]) for r in rows if r[0].startswith("rank "))
        if by != "rank" or ranks != list(range(nranks)) or len(rows) != nranks or \
                any(r[3] in ("", "0") for r in rows):
            fail(f"page: series by {by} {[r[:4] for r in rows]}, expected ranks 0..{nranks - 1} with bytes written")
        if not {"open", "read", "write", "close"} <= {r[0] for r in d.tables.get("latency-table", [])}:
            fail(f"page: latency table {d.tables.get('latency-table')} lacks MPI-IO's operations")
    print(f"page: ready after {d.body.get('data-polls')} polls; {len(shown)} jobs, {len(rows)} "
          f"series by {by} ({', '.join(r[0] for r in rows) if by == 'rank' else 'files'}), {len(lat)} operations' latency, {len(slow)} slowest files as the API says")


def check_livedom(dom_path, job):
    d = Dom()
    d.feed(open(dom_path, encoding="utf-8").read())
    rows = {r[0]: r for r in d.tables.get("jobs-table", [])}
    if d.body.get("data-status") != "ready":
        fail(f"page while {job} runs: status {d.body.get('data-status')}")
    elif job not in rows or rows[job][2] != "live":
        fail(f"page while {job} runs: not shown live: {rows.get(job)}")
    elif not d.tables.get("series-table"):
        fail(f"page while {job} runs: no series")
    else:
        print(f"page while the job runs: {job} live, {rows[job][5]} events, "
              f"{len(d.tables['series-table'])} series")


def main():
    what = sys.argv[1] if len(sys.argv) > 1 else ""
    if what == "live" and len(sys.argv) == 4:
        live(sys.argv[2], sys.argv[3])
    elif what == "api" and len(sys.argv) in (5, 7):
        check_api(sys.argv[2], sys.argv[3], sys.argv[4],
                  *(int(a) for a in sys.argv[5:]))
    elif what == "http" and len(sys.argv) == 3:
        check_http(sys.argv[2])
    elif what == "livedom" and len(sys.argv) == 4:
        check_livedom(sys.argv[2], sys.argv[3])
    elif what == "dom" and len(sys.argv) in (6, 7):
        check_dom(sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5],
                  *(int(a) for a in sys.argv[6:]))
    else:
        raise SystemExit(__doc__)
    for f in failures:
        print("FAIL: " + f)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
