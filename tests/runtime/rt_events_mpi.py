"""Live events of a 4-rank MPI job (called by rt_events_mpi.sh: PRELOAD IOLENS H5_INDEP).

h5_indep writes and reads an HDF5 file through the MPI-IO driver, so every
rank makes POSIX, MPI-IO, H5F and H5D events. Checked: one events file per
rank, every event of a file carrying that file's rank, the ranks 0 to 3; each
rank's MPI-IO, H5F and H5D events agree with its records in the job's log
(shared-record reduction off, so each rank keeps its own): record ids, the
number of opens, reads, writes, flushes and closes, the bytes, and the last
event's switches, selection counts and dataspace; H5D events name their
dataset.
"""
import glob
import json
import os
import shutil
import subprocess
import sys
import tempfile

preload, iolens, prog = sys.argv[1:4]
tmp = tempfile.mkdtemp(prefix="iolens-events-mpi.")
data, evdir, logs = (os.path.join(tmp, d) for d in ("d", "ev", "logs"))
for d in (data, evdir, logs):
    os.mkdir(d)


def fail(msg):
    print(f"FAIL: {msg}")
    sys.exit(1)


env = {k: v for k, v in os.environ.items() if not k.startswith(("IOLENS_", "DARSHAN_", "DXT_"))}
p = subprocess.run(["timeout", "300", "mpirun", "--oversubscribe", "-np", "4", "env",
                    f"LD_PRELOAD={preload}", f"IOLENS_LOGPATH={logs}", f"IOLENS_MMAP_DIR={tmp}",
                    f"IOLENS_EVENTS=file:{evdir}", "IOLENS_DISABLE_SHARED_REDUCTION=1",
                    prog, data], env=env, cwd=data, capture_output=True, text=True)
if p.returncode:
    fail(f"mpirun exit status {p.returncode}; stderr: {p.stderr[-2000:]}")

# The log: {(module, rank, name): {counter: value}} and record ids.
found = glob.glob(os.path.join(logs, "*.darshan"))
if len(found) != 1:
    fail(f"expected one job log, found {found}")
p = subprocess.run([iolens, "parse", found[0]], capture_output=True, text=True)
if p.returncode:
    fail("iolens parse rejects the job's log")
counters, ids = {}, {}
jobid = None
for line in p.stdout.splitlines():
    if line.startswith("# jobid: "):
        jobid = int(line.split()[2])
    f = line.split("\t")
    if line.startswith("#") or len(f) < 6:
        continue
    key = (f[0], int(f[1]), f[5])
    counters.setdefault(key, {})[f[3]] = float(f[4]) if "." in f[4] else int(f[4])
    ids[key] = int(f[2])

files = sorted(glob.glob(os.path.join(evdir, "*.jsonl")))
if len(files) != 4:
    fail(f"expected 4 events files (one per rank), found {len(files)}")
ranks = set()
for path in files:
    evs = []
    with open(path, encoding="utf-8") as fh:
        for line in fh:
            m = json.loads(line)
            evs += [(m, s) for s in m["seg"]]
    rank_set = {m["rank"] for m, _ in evs}
    if len(rank_set) != 1:
        fail(f"{path}: events of several ranks {rank_set}")
    rank = rank_set.pop()
    ranks.add(rank)
    # From MPI_Init on, every rank's events name the job log's job (rank 0's id).
    late = {m["job_id"] for m, _ in evs if m["module"] in ("MPIIO", "H5F", "H5D")}
    if late != {jobid}:
        fail(f"rank {rank}: MPI-IO and HDF5 events carry job ids {late}, the log {jobid}")

    def of(module, name, op):
        return [(m, s) for m, s in evs if m["module"] == module and m["file"] == name and m["op"] == op]

    def expect(what, got, want):
        if got != want:
            fail(f"rank {rank}: {what}: events say {got}, the log {want}")

    if not any(m["module"] == "POSIX" for m, _ in evs):
        fail(f"rank {rank}: no POSIX events")
    h5 = os.path.join(data, "indep.h5")
    c = counters.get(("MPI-IO", rank, h5))
    if not c:
        fail(f"rank {rank}: no MPI-IO record of {h5} in the log")
    for m, _ in [e for e in evs if e[0]["module"] == "MPIIO"]:
        expect("MPI-IO record id", m["record_id"], ids[("MPI-IO", rank, h5)])
    expect("MPI-IO opens", len(of("MPIIO", h5, "open")), c["MPIIO_INDEP_OPENS"] + c["MPIIO_COLL_OPENS"])
    for op, kind, nbytes in (("write", "WRITES", "MPIIO_BYTES_WRITTEN"), ("read", "READS", "MPIIO_BYTES_READ")):
        ev = of("MPIIO", h5, op)
        expect(f"MPI-IO {op}s", len(ev), sum(c[f"MPIIO_{k}_{kind}"] for k in ("INDEP", "COLL", "SPLIT", "NB")))
        expect(f"MPI-IO bytes of {op}s", sum(s["len"] for _, s in ev), c[nbytes])
        if any(s["off"] < 0 for _, s in ev):
            fail(f"rank {rank}: an MPI-IO {op} without its offset")
    expect("MPI-IO flushes", len(of("MPIIO", h5, "flush")), c["MPIIO_SYNCS"])
    expect("MPI-IO closes", len(of("MPIIO", h5, "close")), 2)
    rw = [s for m, s in evs if m["module"] == "MPIIO" and m["op"] in ("read", "write")]
    expect("MPI-IO switches", rw[-1]["switches"], c["MPIIO_RW_SWITCHES"])

    c = counters[("H5F", rank, h5)]
    expect("H5F opens", len(of("H5F", h5, "open")), c["H5F_OPENS"])
    expect("H5F flushes", len(of("H5F", h5, "flush")), c["H5F_FLUSHES"])
    expect("H5F closes", len(of("H5F", h5, "close")), 2)
    for dset, ndims, npoints in (("/data", 2, 2048), ("/ranks", 1, 4)):
        name = h5 + ":" + dset
        c = counters.get(("H5D", rank, name))
        if not c:
            fail(f"rank {rank}: no H5D record of {name} in the log")
        all_ev = [(m, s) for m, s in evs if m["module"] == "H5D" and m["file"] == name]
        if not all_ev:
            fail(f"rank {rank}: no H5D events of {name}")
        for m, s in all_ev:
            expect("H5D record id", m["record_id"], ids[("H5D", rank, name)])
            expect("H5D data_set", s["data_set"], dset)
            expect("H5D dataspace", (s["ndims"], s["npoints"]), (ndims, npoints))
        expect("H5D opens", len(of("H5D", name, "open")), c["H5D_OPENS"])
        for op, cnt, nbytes in (("write", "H5D_WRITES", "H5D_BYTES_WRITTEN"), ("read", "H5D_READS", "H5D_BYTES_READ")):
            ev = of("H5D", name, op)
            expect(f"H5D {op}s of {dset}", len(ev), c[cnt])
            expect(f"H5D bytes of {op}s of {dset}", sum(s["len"] for _, s in ev), c[nbytes])
        last = all_ev[-1][1]
        expect(f"H5D selections of {dset}", (last["pt_sel"], last["irreg_hslab"], last["reg_hslab"]),
               (c["H5D_POINT_SELECTS"], c["H5D_IRREGULAR_HYPERSLAB_SELECTS"],
                c["H5D_REGULAR_HYPERSLAB_SELECTS"]))
if ranks != {0, 1, 2, 3}:
    fail(f"the events files carry ranks {sorted(ranks)}, not 0 to 3")
shutil.rmtree(tmp, ignore_errors=True)
print("ok: 4 ranks, each file its own rank, one job id; MPI-IO, H5F and H5D events agree with the log")
