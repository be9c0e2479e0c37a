#!/usr/bin/env python3
"""Check a report page as the browser left it (chromium --dump-dom) against
`iolens parse` and `iolens insights --json` of the same log.

usage: check_dom.py DOM PARSE_OUTPUT INSIGHTS_JSON

Checks: the scripts ran to the end without error (body data-status="ready");
the job's process count is the log's; one finding per insights finding, with
the same ids; the file table's first rows (bytes read and written, ranks)
match the sums of the log's records of that file and interface. Prints one
line per failed check and exits 1, or prints what it checked and exits 0."""
import html.parser
import json
import sys

MODULE = {"POSIX": ("POSIX", "POSIX"), "MPI-IO": ("MPI-IO", "MPIIO"), "STDIO": ("STDIO", "STDIO")}
ROWS_CHECKED = 20


class Page(html.parser.HTMLParser):
    """The body's attributes, the job table, the findings' ids and the file
    table's body rows (cells as (text, data-v))."""

    def __init__(self):
        super().__init__()
        self.body, self.job, self.finding_ids, self.rows = {}, {}, [], []
        self.stack, self.cell, self.in_files, self.in_job, self.th = [], None, False, False, None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "body":
            self.body = a
        self.stack.append((tag, a.get("id"), a.get("class", "")))
        if a.get("id") == "file-table":
            self.in_files = True
        if a.get("id") == "job-table":
            self.in_job = True
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
            if t == tag:
                break
        if tag == "th" and self.in_job:
            self.th = self.cell[0]
        if tag == "td" and self.cell is not None:
            if self.in_files and self.rows:
                self.rows[-1].append(tuple(self.cell))
            if self.in_job and self.th:
                self.job[self.th] = self.cell[0]
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


def main():
    dom, parse_out, insights = sys.argv[1:4]
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
    for b in bad:
        print("FAIL: " + b)
    if not bad:
        print("ok: status ready, %s processes, %d findings, %d file rows checked against parse, "
              "render %s ms" % (nprocs, len(want_ids), len(rows), page.body.get("data-render-ms")))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
