#!/usr/bin/env python3
"""Check a report page as the browser left it (chromium --dump-dom) against
`iolens parse` and `iolens insights --json` of the same log.

usage: check_dom.py DOM PARSE_OUTPUT INSIGHTS_JSON DXT_OUTPUT [--threads N]

PARSE_OUTPUT is `iolens parse --base --perf`'s, DXT_OUTPUT `iolens dxt`'s.
Checks: the scripts ran to the end without error (body data-status="ready");
the job's process count is the log's; one finding per insights finding, with
the same ids; the file table's first rows (bytes read and written, ranks)
match the sums of the log's records of that file and interface; each
module's I/O performance estimate is parse --perf's agg_perf_by_slowest;
the timeline (when the log has DXT) has the log's segments and lanes, each
drawn lane its segment count, and the samples the rule of docs/report.md
keeps (every stride-th segment, the stride the smallest power of two that
keeps at most the lane limit, plus at most max_slowest slowest ones), and
the zoom range the page address set (#zoom=0,1); each DXT module's heatmap
("DXT_POSIX (from traces)", ...) has the bytes, in all and per rank row, of
the sums of iolens dxt's segment lengths; with --threads N, N lanes of one
rank with distinct thread ids. Prints one line per failed check and
exits 1, or prints what it checked and exits 0."""
import html.parser
import json
import re
import sys
from collections import Counter

MODULE = {"POSIX": ("POSIX", "POSIX"), "MPI-IO": ("MPI-IO", "MPIIO"), "STDIO": ("STDIO", "STDIO")}
ROWS_CHECKED = 20


class Page(html.parser.HTMLParser):
    """The body's attributes, the job table, the findings' ids and the file
    table's body rows (cells as (text, data-v))."""

    def __init__(self):
        super().__init__()
        self.body, self.job, self.finding_ids, self.rows = {}, {}, [], []
        self.stack, self.cell, self.in_files, self.in_job, self.th = [], None, False, False, None
        # body rows of these tables
        self.tables = {"lane-table": [], "perf-table": [], "callsites-table": []}
        self.in_table, self.attrs = None, {}
        self.heatmaps = []  # the attributes of each heatmap's box

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "body":
            self.body = a
        self.stack.append((tag, a.get("id"), a.get("class", "")))
        if a.get("id") == "file-table":
            self.in_files = True
        if a.get("id") == "job-table":
            self.in_job = True
        if a.get("id") in self.tables:
            self.in_table = a["id"]
        if a.get("id") in ("timeline-status", "timeline-body"):
            self.attrs[a["id"]] = a
        if tag == "div" and a.get("class") == "heatmap":
            self.heatmaps.append(a)
        if self.in_table and tag == "tr":
            self.tables[self.in_table].append([])
        if self.in_files and tag == "tr" and any(t == "tbody" for t, _, _ in self.stack):
            self.rows.append([])
        if tag in ("td", "th"):
            self.cell = ["", a.get("data-v")]
        if tag == "span" and a.get("class") == "id":
            self.finding_ids.append("")

    def handle_endtag(self, tag):
        while self.stack:
            t, i, _ = self.stack.pop()
            if i == "file-table":
                self.in_files = False
            if i == "job-table":
                self.in_job = False
            if i in self.tables:
                self.in_table = None
            if t == tag:
                break
        if tag == "th" and self.in_job:
            self.th = self.cell[0]
        if tag == "td" and self.cell is not None:
            if self.in_files and self.rows:
                self.rows[-1].append(tuple(self.cell))
            if self.in_job and self.th:
                self.job[self.th] = self.cell[0]
            if self.in_table and self.tables[self.in_table]:
                self.tables[self.in_table][-1].append(tuple(self.cell))
            self.cell = None

    def handle_data(self, data):
        if self.cell is not None:
            self.cell[0] += data
        if self.stack and self.stack[-1][2] == "id" and self.finding_ids:
            self.finding_ids[-1] += data


def parse_records(path):
    """Sums per (name, module) of bytes read and written, and the ranks."""
    nprocs, files = None, {}
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            if line.startswith("# nprocs:"):
                nprocs = int(line.split(":")[1])
            if line.startswith("#"):
                continue
            p = line.rstrip("\n").split("\t")
            prefix = {m: c for m, c in MODULE.values()}.get(p[0])
            if len(p) < 6 or not prefix:
                continue
            key = (p[5], p[0])
            e = files.setdefault(key, {"read": 0, "written": 0, "ranks": set()})
            e["ranks"].add(int(p[1]))
            if p[3] == prefix + "_BYTES_READ":
                e["read"] += int(p[4])
            elif p[3] == prefix + "_BYTES_WRITTEN":
                e["written"] += int(p[4])
    return nprocs, files


def parse_perf(path):
    """agg_perf_by_slowest per module name ("POSIX", "MPI-IO", ...)."""
    perf, module = {}, None
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            m = re.match(r"# (\S+) module data", line)
            if m:
                module = m.group(1)
            m = re.match(r"# agg_perf_by_slowest: (\S+)", line)
            if m and module:
                perf[module] = float(m.group(1))
    return perf


def parse_dxt(path):
    """Segments per lane (module, rank, thread) and the sum of the segments'
    lengths per module and rank, of `iolens dxt`'s output."""
    lanes, nbytes = Counter(), {}
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            p = line.split()
            if len(p) >= 9 and p[0].startswith("X_") and p[2] in ("read", "write"):
                lanes[("DXT_" + p[0][2:], int(p[1]), p[-1])] += 1
                per_rank = nbytes.setdefault("DXT_" + p[0][2:], Counter())
                per_rank[int(p[1])] += int(p[5])
    return lanes, nbytes


def check_dxt_heatmaps(page, nbytes, bad):
    """Each DXT module's heatmap: total and per-rank bytes as the sums of
    iolens dxt's segment lengths. @return a note of what was checked."""
    got = {h.get("data-label"): h for h in page.heatmaps if h.get("data-source") == "DXT"}
    notes = []
    for mod, per_rank in sorted(nbytes.items()):
        label = mod + " (from traces)"
        h = got.pop(label, None)
        if h is None:
            bad.append("heatmap: no %r on the page; iolens dxt has %d bytes" % (label, sum(per_rank.values())))
            continue
        group = int(h.get("data-ranks-per-row", 1))
        rows = [int(v) for v in h.get("data-rows", "").split(",") if v]
        want_rows = [0] * len(rows)
        for rank, n in per_rank.items():
            row = min(max(rank, 0) // group, len(rows) - 1)
            want_rows[row] += n
        total = sum(per_rank.values())
        if int(h.get("data-total", -1)) != total or rows != want_rows:
            bad.append("heatmap %s: %s bytes, rows %s; iolens dxt: %d, rows %s"
                       % (label, h.get("data-total"), rows[:8], total, want_rows[:8]))
        notes.append("%s %d bytes in %d rows" % (mod, total, len(rows)))
    for label, h in got.items():
        if int(h.get("data-total", 0)):
            bad.append("heatmap %s: %s bytes, iolens dxt has none" % (label, h.get("data-total")))
    return ", ".join(notes) or "no DXT heatmap"


def strided(n, stride):
    return -(-n // stride) if stride else 0


def check_dxt(page, lanes, want_threads, bad):
    """The timeline against iolens dxt. @return a note of what was checked."""
    status = page.attrs.get("timeline-status", {})
    if not lanes:
        if status.get("data-segments"):
            bad.append("timeline: %s segments on a page of a log without DXT" % status["data-segments"])
        return "no DXT"
    total, shown = sum(lanes.values()), int(status.get("data-shown", -1))
    if int(status.get("data-segments", -1)) != total or int(status.get("data-lanes", -1)) != len(lanes):
        bad.append("timeline: %s segments in %s lanes; iolens dxt: %d in %d"
                   % (status.get("data-segments"), status.get("data-lanes"), total, len(lanes)))
    limit, slowest = int(status.get("data-lane-limit", 0)), int(status.get("data-max-slowest", 0))
    budget = int(status.get("data-max-segments", 0))
    rows = [r for r in page.tables["lane-table"] if r]
    drawn = [r for r in rows if r[0][0] != "others"]
    if len(drawn) != int(status.get("data-lanes-drawn", -1)):
        bad.append("timeline: %d lane rows, page says %s drawn" % (len(drawn), status.get("data-lanes-drawn")))
    kept_strided = 0
    for r in drawn:
        key, n = (r[0][0], int(r[1][0]), r[2][0]), int(r[3][1])
        stride, got = int(r[9][0]), int(r[10][1])
        want_stride = 1
        while strided(n, want_stride) > limit:
            want_stride *= 2
        if lanes.get(key) != n:
            bad.append("timeline: lane %s has %d segments; iolens dxt: %s" % (key, n, lanes.get(key)))
        if stride != want_stride or not strided(n, stride) <= got <= strided(n, stride) + slowest:
            bad.append("timeline: lane %s shows %d of %d with stride %d; the rule gives stride %d, "
                       "%d strided" % (key, got, n, stride, want_stride, strided(n, want_stride)))
        kept_strided += strided(n, stride)
    others = [r for r in rows if r[0][0] == "others"]
    in_rows = sum(int(r[3][1]) for r in rows)
    if in_rows != total:
        bad.append("timeline: lane rows add up to %d segments, the log has %d" % (in_rows, total))
    if len(drawn) < len(lanes) and not others:
        bad.append("timeline: %d lanes drawn of %d and no others row" % (len(drawn), len(lanes)))
    if shown != sum(int(r[10][1]) for r in rows) or shown > budget + slowest or \
            (total <= budget and shown != total):
        bad.append("timeline: %d shown of %d (budget %d + %d slowest)" % (shown, total, budget, slowest))
    if want_threads:
        threads = {k[2] for k in lanes if k[0] == "DXT_POSIX"}
        page_threads = {r[2][0] for r in drawn if r[0][0] == "DXT_POSIX"}
        if len(threads) != want_threads or "N/A" in threads or page_threads != threads:
            bad.append("timeline: thread lanes %s; iolens dxt's threads %s, expected %d"
                       % (sorted(page_threads), sorted(threads), want_threads))
    end = float(status.get("data-end", 0))
    want_zoom = (0.0, min(1.0, end))
    zoom = page.attrs.get("timeline-body", {}).get("data-zoom", "")
    if end > 0 and tuple(float(v) for v in zoom.split(",") if v) != want_zoom:
        bad.append("timeline: zoom %r after #zoom=0,1, expected %s" % (zoom, want_zoom))
    return "%d of %d segments in %d lanes (%d drawn) as iolens dxt, zoom %s" % (
        shown, total, len(lanes), len(drawn), zoom)


def check_perf(page, perf, bad):
    rows = {r[0][0]: float(r[3][1]) for r in page.tables["perf-table"] if r}
    for mod, v in perf.items():
        if abs(rows.get(mod, -1) - v) > 5e-7 * max(1, v):
            bad.append("I/O performance estimate of %s: %s MiB/s; iolens parse --perf: %s"
                       % (mod, rows.get(mod), v))
    if set(rows) != set(perf):
        bad.append("I/O performance estimate for %s; iolens parse --perf has %s" % (sorted(rows), sorted(perf)))
    return len(perf)


def check_lines(page, cs_json, bad):
    """The "I/O by line" table: the sites of `iolens callsites --json`, in
    its order (line, module, op, calls, bytes, time), at most 20; none
    without call sites."""
    rows = [r for r in page.tables["callsites-table"] if r]  # the head row has no td
    if cs_json is None:
        if rows:
            bad.append("lines table present without call sites: %s" % rows[:2])
        return "none"
    with open(cs_json, encoding="utf-8") as f:
        sites = json.load(f)["sites"][:20]
    if len(rows) != len(sites) or not sites:
        bad.append("lines table: %d rows, iolens callsites gives %d sites" % (len(rows), len(sites)))
        return "wrong"
    for r, s in zip(rows, sites):
        where = "%s %s:%d" % (s["function"], s["file"], s["line"]) if s["file"] else s["function"]
        got = (r[0][0], r[1][0], r[2][0], int(r[3][1]), int(r[4][1]), float(r[5][1]))
        want = (where, s["module"], s["op"], s["calls"], s["bytes"], s["time"])
        if got[:5] != want[:5] or abs(got[5] - want[5]) > 1e-6 * max(1, want[5]):
            bad.append("lines table row %s, iolens callsites: %s" % (got, want))
        callers = r[6][0].split(" \u2190 ") if r[6][0] else []
        if len(callers) != len(s["frames"]) - 1:
            bad.append("lines table: %d callers for %s, the site has %d frames"
                       % (len(callers), where, len(s["frames"])))
    return "%d sites as iolens callsites" % len(rows)


def main():
    dom, parse_out, insights, dxt_out = sys.argv[1:5]
    opts = dict(zip(sys.argv[5::2], sys.argv[6::2]))
    want_threads = int(opts.get("--threads", 0))
    page = Page()
    with open(dom, encoding="utf-8") as f:
        page.feed(f.read())
    nprocs, files = parse_records(parse_out)
    with open(insights, encoding="utf-8") as f:
        findings = json.load(f)["findings"]
    bad = []
    if page.body.get("data-status") != "ready":
        bad.append("page status %r, not 'ready' (a section failed: see the page's error list)"
                   % page.body.get("data-status"))
    if page.job.get("Processes", "").replace(",", "") != str(nprocs):
        bad.append("job table: Processes %r, log says %s" % (page.job.get("Processes"), nprocs))
    want_ids = [f["id"] for f in findings]
    if page.finding_ids != want_ids:
        bad.append("findings %s, insights gives %s" % (page.finding_ids, want_ids))
    rows = page.rows[:ROWS_CHECKED]
    want_rows = min(len(files), 1)
    if len(rows) < want_rows:
        bad.append("file table: no rows, the log has %d files" % len(files))
    for r in rows:
        name, iface = r[0][0], r[1][0]
        e = files.get((name, MODULE.get(iface, ("?",))[0]))
        if e is None:
            bad.append("file table: %s (%s) is not in iolens parse's output" % (name, iface))
            continue
        ranks = nprocs if -1 in e["ranks"] else len(e["ranks"])
        got = (int(r[2][1]), int(r[3][1]), int(r[8][1]))
        if got != (e["read"], e["written"], ranks):
            bad.append("file table: %s (%s): read, written, ranks %s; iolens parse: %s"
                       % (name, iface, got, (e["read"], e["written"], ranks)))
    nperf = check_perf(page, parse_perf(parse_out), bad)
    lanes, dxt_bytes = parse_dxt(dxt_out)
    dxt_note = check_dxt(page, lanes, want_threads, bad)
    heat_note = check_dxt_heatmaps(page, dxt_bytes, bad)
    lines_note = check_lines(page, opts.get("--callsites"), bad)
    for b in bad:
        print("FAIL: " + b)
    if not bad:
        print("ok: status ready, %s processes, %d findings, %d file rows checked against parse, "
              "%d perf estimates, timeline: %s; DXT heatmaps: %s; lines: %s; render %s ms" % (
                  nprocs, len(want_ids), len(rows), nperf, dxt_note, heat_note, lines_note,
                  page.body.get("data-render-ms")))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
