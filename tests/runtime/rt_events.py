"""Checks of the live events (called by rt_events.sh: PRELOAD IOLENS PROG CASE).

known   the events of events_prog known: every line valid JSON with the
        connector's fields and types; per file the ops, offsets, lengths and
        counts of the workload, in order per thread; record ids (number and
        string) equal to the log's; the log's metadata iolens_events_dropped=0
escape  a name with '"', '\\', a tab and \\001 comes back exactly
noloss  100,000 writes, then return from main: all 100,000 write events stored
exit_, exec, signal
        the same with 20,000 writes, then _exit, exec, SIGSEGV: all stored
fork    20,000 writes in the parent, 20,000 in the child on another file: each
        process's file holds exactly its own
slow    the sink a FIFO nobody reads: 100,000 writes finish within the drain
        bound plus a margin; the dropped count is in the log's metadata
off     no IOLENS_EVENTS: no file in the events directory, no events metadata
"""
import glob
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

preload, iolens, prog, case = sys.argv[1:5]
tmp = tempfile.mkdtemp(prefix="iolens-events.")
data, evdir, logs = (os.path.join(tmp, d) for d in ("d", "ev", "logs"))
for d in (data, evdir, logs):
    os.mkdir(d)


def fail(msg):
    print(f"FAIL ({case}): {msg}")
    sys.exit(1)


def run(mode, n=None, events=True, extra=None, ok=(0,)):
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("IOLENS_", "DARSHAN_", "DXT_"))}
    env.update(IOLENS_LOGPATH=logs, IOLENS_MMAP_DIR=tmp, LD_PRELOAD=preload)
    if events:
        env["IOLENS_EVENTS"] = "file:" + evdir
    env.update(extra or {})
    args = [prog, mode, data] + ([str(n)] if n is not None else [])
    t0 = time.monotonic()
    p = subprocess.run(args, env=env, capture_output=True, text=True, timeout=60)
    took = time.monotonic() - t0
    if p.returncode not in ok:
        fail(f"{mode}: exit status {p.returncode}; stderr: {p.stderr}")
    return took


STR = ("schema", "exe", "ProducerName", "file", "module", "type", "op", "record_id_str")
INT = ("uid", "job_id", "rank", "record_id", "max_byte", "switches", "flushes", "cnt")
SEG_INT = ("pt_sel", "irreg_hslab", "reg_hslab", "ndims", "npoints", "off", "len",
           "cnt", "max_byte", "switches", "flushes", "thread")
SEG_FLOAT = ("start", "dur", "total", "timestamp")


def events(pattern="*.jsonl"):
    """Every event of the sink's files: (message, seg) pairs, in file order."""
    out = []
    files = sorted(glob.glob(os.path.join(evdir, pattern)))
    for f in files:
        with open(f, encoding="utf-8") as fh:
            for i, line in enumerate(fh):
                try:
                    m = json.loads(line)
                except ValueError as e:
                    fail(f"{f}:{i + 1}: not JSON ({e}): {line[:200]}")
                for k in STR:
                    if not isinstance(m.get(k), str):
                        fail(f"{f}:{i + 1}: {k} is not a string")
                for k in INT:
                    if type(m.get(k)) is not int:
                        fail(f"{f}:{i + 1}: {k} is not an integer")
                if str(m["record_id"]) != m["record_id_str"]:
                    fail(f"{f}:{i + 1}: record_id_str differs from record_id")
                if not isinstance(m.get("seg"), list) or not m["seg"]:
                    fail(f"{f}:{i + 1}: no seg list")
                for s in m["seg"]:
                    for k in SEG_INT:
                        if type(s.get(k)) is not int:
                            fail(f"{f}:{i + 1}: seg {k} is not an integer")
                    for k in SEG_FLOAT:
                        if type(s.get(k)) is not float:
                            fail(f"{f}:{i + 1}: seg {k} is not a float")
                    if s.get("data_set") != "N/A":
                        fail(f"{f}:{i + 1}: seg data_set")
                    out.append((m, s))
    return files, out


def log_records():
    """{(module, name): record id} and the metadata lines of the one log."""
    logs_ = glob.glob(os.path.join(logs, "*.darshan"))
    if len(logs_) != 1:
        fail(f"expected one log, found {len(logs_)}")
    p = subprocess.run([iolens, "parse", logs_[0]], capture_output=True, text=True)
    if p.returncode:
        fail("iolens parse rejects the log")
    ids, meta = {}, []
    for line in p.stdout.splitlines():
        if line.startswith("# metadata: "):
            meta.append(line[len("# metadata: "):])
        elif not line.startswith("#") and line.count("\t") >= 5:
            f = line.split("\t")
            ids[(f[0], f[5])] = int(f[2])
    return ids, meta


def of_file(evs, name, op=None):
    return [(m, s) for m, s in evs if m["file"] == name and (op is None or m["op"] == op)]


def check_writes(evs, name, n):
    w = of_file(evs, name, "write")
    if len(w) != n:
        fail(f"{name}: {len(w)} write events, expected {n}")
    offs = [s["off"] for _, s in w]
    if offs != list(range(n)) or any(s["len"] != 1 for _, s in w):
        fail(f"{name}: write offsets or lengths are not the workload's")
    if [s["cnt"] for _, s in w] != list(range(1, n + 1)):
        fail(f"{name}: write counts are not 1..{n}")


if case == "known":
    run("known")
    files, evs = events()
    if len(files) != 1:
        fail(f"expected one events file, found {files}")
    ids, meta = log_records()
    if "iolens_events_dropped = 0" not in meta:
        fail(f"no iolens_events_dropped = 0 in the log's metadata: {meta}")
    a, s_ = os.path.join(data, "a"), os.path.join(data, "s")
    ops = [(m["op"], sg["off"], sg["len"], sg["cnt"]) for m, sg in of_file(evs, a)]
    want = ([("open", -1, -1, 1)] + [("write", 100 * i, 100, i + 1) for i in range(10)] +
            [("read", 200 * i, 50, i + 1) for i in range(5)] + [("flush", -1, -1, 1),
                                                                ("close", -1, -1, 1)])
    if ops != want:
        fail(f"POSIX events of {a}: {ops}\n  expected {want}")
    for m, sg in of_file(evs, a):
        if m["module"] != "POSIX" or m["record_id"] != ids[("POSIX", a)]:
            fail(f"{a}: module or record id differs from the log's")
        if m["type"] != ("MET" if m["op"] == "open" else "MOD"):
            fail(f"{a}: type {m['type']} for {m['op']}")
        if m["op"] == "write" and sg["max_byte"] != 100 * sg["cnt"] - 1:
            fail(f"{a}: max_byte {sg['max_byte']} after write {sg['cnt']}")
        if not (sg["timestamp"] > 1e9 and sg["dur"] >= 0 and sg["total"] >= sg["dur"] - 1e-6):
            fail(f"{a}: times {sg}")
    sops = [(m["op"], sg["off"], sg["len"]) for m, sg in of_file(evs, s_) if m["module"] == "STDIO"]
    want = ([("open", -1, -1)] + [x for i in range(3) for x in
                                   (("write", 10 * i, 10), ("flush", -1, -1))] + [("close", -1, -1)])
    if sops != want:
        fail(f"STDIO events of {s_}: {sops}\n  expected {want}")
    if any(m["record_id"] != ids[("STDIO", s_)] for m, _ in of_file(evs, s_) if m["module"] == "STDIO"):
        fail(f"{s_}: STDIO record id differs from the log's")
    for i in range(4):
        t = os.path.join(data, f"t{i}")
        w = of_file(evs, t, "write")
        if len({sg["thread"] for _, sg in w}) != 1:
            fail(f"{t}: writes of one thread carry several thread ids")
        if [sg["off"] for _, sg in w] != [8 * k for k in range(50)]:
            fail(f"{t}: writes not all present in order")
        if [sg["timestamp"] for _, sg in w] != sorted(sg["timestamp"] for _, sg in w):
            fail(f"{t}: timestamps out of order")
elif case == "escape":
    run("escape")
    name = os.path.join(data, "q\"b\\s\tt\001x")
    _, evs = events()
    if len(of_file(evs, name, "write")) != 1:
        fail(f"no write event of {name!r}: {sorted({m['file'] for m, _ in evs})}")
elif case in ("noloss", "exit_", "exec", "signal"):
    n = 100000 if case == "noloss" else 20000
    mode = {"noloss": "many", "exit_": "many_exit", "exec": "manyexec",
            "signal": "manysignal"}[case]
    run(mode, n, ok=(0,) if case != "signal" else (-11, 139))
    _, evs = events()
    check_writes(evs, os.path.join(data, "m"), n)
elif case == "fork":
    run("manyfork", 20000)
    files, _ = events()
    if len(files) != 2:
        fail(f"expected two events files (parent, child), found {files}")
    for f in files:
        _, evs = events(os.path.basename(f))
        names = {m["file"] for m, _ in evs if m["op"] == "write" and m["file"].startswith(data)}
        if len(names) != 1:
            fail(f"{f}: writes of several files {names} (the parent's duplicated?)")
        check_writes(evs, names.pop(), 20000)
elif case == "slow":
    fifo = os.path.join(tmp, "fifo")
    os.mkfifo(fifo)
    holder = subprocess.Popen(["sh", "-c", f"exec sleep 30 3<'{fifo}'"])
    time.sleep(0.2)
    try:
        took = run("many", 100000, extra={"IOLENS_EVENTS": "file:" + fifo,
                                         "IOLENS_EVENTS_DRAIN": "1"})
    finally:
        holder.kill()
    if took > 10:
        fail(f"took {took:.1f} s with a sink that does not keep up")
    _, meta = log_records()
    dropped = [int(x.split("=")[1]) for x in meta if x.startswith("iolens_events_dropped")]
    if not dropped or dropped[0] <= 0:
        fail(f"no dropped events counted in the metadata: {meta}")
elif case == "off":
    run("known", events=False)
    if os.listdir(evdir):
        fail(f"events files without IOLENS_EVENTS: {os.listdir(evdir)}")
    _, meta = log_records()
    if any(x.startswith("iolens_events") for x in meta):
        fail(f"events metadata without IOLENS_EVENTS: {meta}")
else:
    fail("unknown case")
shutil.rmtree(tmp, ignore_errors=True)
print(f"ok ({case})")
