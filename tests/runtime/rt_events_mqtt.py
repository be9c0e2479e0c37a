"""Checks of the mqtt:// sink (called by rt_events_mqtt.sh: PRELOAD IOLENS PROG CASE).

Each case starts its own mosquitto on 127.0.0.1 (a free port, a config file
in a temporary directory: no limit on the messages queued for a subscriber)
and a subscriber, mosquitto_sub at QoS 1, known ready once it received a
probe published with mosquitto_pub.

known    events_prog known into mqtt:// and into file: give the same events
         (module, op, file, offset, length, count, in order per file)
noloss   100,000 writes, then return from main: every write event arrived,
         exactly once, with its offset, length and count; the log's
         iolens_events_dropped = 0
restart  30,000 writes over about 3 s, the broker stopped (SIGTERM) after
         1 s and started again 0.5 s later on the same port (persistence on,
         the subscriber's session kept): every write event arrived at least
         once (QoS 1 may repeat), none dropped
nobroker no broker on the port: 100,000 writes finish within the drain bound
         plus a margin, and the log counts them dropped
fork     20,000 writes in the parent, 20,000 in its forked child on another
         file: each file's write events arrived exactly once. Under ASan the
         parent forks only once its events arrived and 0.3 s passed: GCC 12's
         ASan allocator is not fork-safe (no atfork handler; LLVM added one in
         18), so a child forked while the parent's events thread is inside
         malloc (libmosquitto's) hangs on the allocator's lock, which glibc's
         malloc takes care of at fork. Also without the leak check: the child
         inherits the parent's libmosquitto memory, some of it held only by
         the parent's events thread, which the child does not have.
nolib    a program without events, or with the file: sink, maps no
         libmosquitto; with mqtt:// it does
"""
import glob
import json
import os
import pwd
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time

preload, iolens, prog, case = sys.argv[1:5]
tmp = tempfile.mkdtemp(prefix="iolens-events-mqtt.")
data, evdir, logs = (os.path.join(tmp, d) for d in ("d", "ev", "logs"))
for d in (data, evdir, logs):
    os.mkdir(d)
TOPIC = "iolens/test"
mosquitto = shutil.which("mosquitto") or "/usr/sbin/mosquitto"
procs = []


def fail(msg):
    print(f"FAIL ({case}): {msg}")
    for p in procs:
        if p.poll() is None:
            p.kill()
    sys.exit(1)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Broker:
    def __init__(self, port, persistent=False):
        self.port = port
        self.conf = os.path.join(tmp, "mosquitto.conf")
        with open(self.conf, "w") as f:
            f.write(f"listener {port} 127.0.0.1\nallow_anonymous true\n"
                    "max_queued_messages 0\nmax_queued_bytes 0\n")
            if persistent:
                # As root, mosquitto would run as user mosquitto, unable to
                # save its database into the test's directory.
                f.write(f"persistence true\npersistence_location {tmp}/\n"
                        f"user {pwd.getpwuid(os.getuid()).pw_name}\n")
            else:
                f.write("persistence false\n")
        self.start()

    def start(self):
        self.log = open(os.path.join(tmp, "broker.log"), "a")
        self.p = subprocess.Popen([mosquitto, "-c", self.conf], stdout=self.log,
                                  stderr=subprocess.STDOUT)
        procs.append(self.p)
        for _ in range(100):
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                return
            except OSError:
                if self.p.poll() is not None:
                    break
                time.sleep(0.05)
        fail(f"mosquitto did not start on port {self.port}: {open(self.log.name).read()}")

    def stop(self):
        self.p.send_signal(signal.SIGTERM)
        self.p.wait(timeout=10)


class Subscriber:
    """mosquitto_sub at QoS 1; lines (receive time, payload) kept as they come."""

    def __init__(self, port, persistent=False):
        self.port, self.lock = port, threading.Lock()
        self.evs, self.nwrites, self.probed, self.bad = [], 0, False, None
        args = ["mosquitto_sub", "-h", "127.0.0.1", "-p", str(port), "-t", TOPIC, "-q", "1",
                "-F", "%U %p"]
        if persistent:
            args += ["-c", "-i", f"iolens-test-{os.getpid()}"]
        self.p = subprocess.Popen(args, stdout=subprocess.PIPE, text=True)
        procs.append(self.p)
        threading.Thread(target=self.read, daemon=True).start()
        for _ in range(50):
            subprocess.run(["mosquitto_pub", "-h", "127.0.0.1", "-p", str(port), "-t", TOPIC,
                            "-q", "1", "-m", "probe"], check=True)
            time.sleep(0.1)
            with self.lock:
                if self.probed:
                    return
        fail("the subscriber received no probe")

    def read(self):
        """Each message parsed as it comes; probes are left out."""
        prefix = data + "/"
        for line in self.p.stdout:
            t, _, payload = line.rstrip("\n").partition(" ")
            if payload == "probe":
                with self.lock:
                    self.probed = True
                continue
            try:
                m = json.loads(payload)
            except ValueError as e:
                self.bad = f"a message is not JSON ({e}): {payload[:200]}"
                continue
            with self.lock:
                self.evs += [(m, s, float(t)) for s in m["seg"]]
                if m["file"].startswith(prefix) and m["op"] == "write":
                    self.nwrites += len(m["seg"])

    def snapshot(self):
        """Every event received so far (message, seg, receive time)."""
        with self.lock:
            return list(self.evs)

    def events(self, want=None, timeout=30, idle=1.0):
        """Every event received (message, seg, receive time), waiting until
        want write events of files in DIR arrived (at most timeout seconds),
        or without want until idle seconds passed without a message."""
        end, last_n, last_t = time.monotonic() + timeout, -1, time.monotonic()
        while time.monotonic() < end:
            with self.lock:
                n, w = len(self.evs), self.nwrites
            if want is not None and w >= want:
                break
            if n != last_n:
                last_n, last_t = n, time.monotonic()
            elif want is None and time.monotonic() - last_t > idle:
                break
            time.sleep(0.05)
        self.p.kill()
        if self.bad:
            fail(self.bad)
        with self.lock:
            return list(self.evs)


def run(mode, n=None, sink=None, extra=None, wait=True, stdin=False):
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("IOLENS_", "DARSHAN_", "DXT_"))}
    env.update(IOLENS_LOGPATH=logs, IOLENS_MMAP_DIR=tmp, LD_PRELOAD=preload)
    if sink:
        env["IOLENS_EVENTS"] = sink
    env.update(extra or {})
    args = [prog, mode, data] + ([str(n)] if n is not None else [])
    p = subprocess.Popen(args, env=env, stdin=subprocess.PIPE if stdin else None,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    procs.append(p)
    if not wait:
        return p
    out, err = p.communicate(timeout=120)
    if p.returncode:
        fail(f"{mode}: exit status {p.returncode}; stderr: {err}")
    return out


def writes(evs, name=os.path.join(data, "m")):
    return [(m, s) for m, s, *_ in evs if m["file"] == name and m["op"] == "write"]


def dropped_in_log():
    found = glob.glob(os.path.join(logs, "*.darshan"))
    if len(found) != 1:
        fail(f"expected one log, found {found}")
    p = subprocess.run([iolens, "parse", found[0]], capture_output=True, text=True)
    for line in p.stdout.splitlines():
        if line.startswith("# metadata: iolens_events_dropped = "):
            return int(line.split("=")[1])
    fail("no iolens_events_dropped in the log's metadata")


def check_all_writes(evs, n, exactly_once, name=os.path.join(data, "m")):
    w = writes(evs, name)
    cnts = [s["cnt"] for _, s in w]
    if set(cnts) != set(range(1, n + 1)):
        missing = sorted(set(range(1, n + 1)) - set(cnts))
        fail(f"{len(set(cnts))} of {n} write events of {name} arrived; "
             f"missing e.g. {missing[:10]}")
    if exactly_once and len(cnts) != n:
        fail(f"{len(cnts) - n} write events arrived twice")
    if any(s["off"] != s["cnt"] - 1 or s["len"] != 1 for _, s in w):
        fail("a write event's offset or length is not the workload's")
    return len(cnts) - n


if case == "known":
    port = free_port()
    Broker(port)
    sub = Subscriber(port)
    run("known", sink=f"mqtt://127.0.0.1:{port}/{TOPIC}")
    got = sub.events()
    run("known", sink=f"file:{evdir}")
    want = []
    for f in glob.glob(os.path.join(evdir, "*")):
        with open(f) as fh:
            for line in fh:
                m = json.loads(line)
                want += [(m, s) for s in m["seg"]]

    def key(evs):
        per_file = {}
        for m, s, *_ in evs:
            if m["file"].startswith(data):
                per_file.setdefault(m["file"], []).append(
                    (m["module"], m["op"], s["off"], s["len"], s["cnt"], m["record_id"]))
        return {f: sorted(v) if f.startswith(os.path.join(data, "t")) else v
                for f, v in per_file.items()}
    if key(got) != key(want):
        fail(f"the mqtt:// events differ from the file: sink's:\n  {key(got)}\n  {key(want)}")
    if not got or any(m["rank"] != 0 or m["ProducerName"] != socket.gethostname()
                      for m, _, _ in got):
        fail("rank or host of the mqtt:// events")
elif case == "noloss":
    port = free_port()
    Broker(port)
    sub = Subscriber(port)
    run("many", 100000, sink=f"mqtt://127.0.0.1:{port}/{TOPIC}")
    check_all_writes(sub.events(want=100000), 100000, True)
    if dropped_in_log() != 0:
        fail(f"iolens_events_dropped = {dropped_in_log()}")
elif case == "restart":
    port = free_port()
    broker = Broker(port, persistent=True)
    sub = Subscriber(port, persistent=True)
    p = run("paced", 30000, sink=f"mqtt://127.0.0.1:{port}/{TOPIC}", wait=False)
    time.sleep(1.0)
    broker.stop()
    time.sleep(0.5)
    if p.poll() is not None:
        fail("the program ended before the broker came back: the test proves nothing")
    broker.start()
    out, err = p.communicate(timeout=120)
    if p.returncode:
        fail(f"paced: exit status {p.returncode}; stderr: {err}")
    evs = sub.events(want=30000)
    twice = check_all_writes(evs, 30000, False)
    if dropped_in_log() != 0:
        fail(f"iolens_events_dropped = {dropped_in_log()}")
    print(f"(write events that arrived twice: {twice})")
elif case == "fork":
    port = free_port()
    Broker(port)
    sub = Subscriber(port)
    sink = f"mqtt://127.0.0.1:{port}/{TOPIC}"
    if "ASAN_OPTIONS" in os.environ:
        asan = {"ASAN_OPTIONS": os.environ["ASAN_OPTIONS"] + ":detect_leaks=0"}
        p = run("manyforkwait", 20000, sink=sink, extra=asan, wait=False, stdin=True)
        end = time.monotonic() + 30
        while len(writes(sub.snapshot())) < 20000 and time.monotonic() < end:
            time.sleep(0.05)
        time.sleep(0.3)
        out, err = p.communicate("fork\n", timeout=120)
        if p.returncode:
            fail(f"manyforkwait: exit status {p.returncode}; stderr: {err}")
    else:
        run("manyfork", 20000, sink=sink)
    evs = sub.events(want=40000)
    for f in ("m", "c"):
        check_all_writes(evs, 20000, True, os.path.join(data, f))
elif case == "nobroker":
    port = free_port()
    t0 = time.monotonic()
    run("many", 100000, sink=f"mqtt://127.0.0.1:{port}/{TOPIC}",
        extra={"IOLENS_EVENTS_DRAIN": "1"})
    took = time.monotonic() - t0
    if took > 10:
        fail(f"took {took:.1f} s without a broker")
    if dropped_in_log() < 100000:
        fail(f"without a broker, only {dropped_in_log()} events counted dropped")
elif case == "nolib":
    port = free_port()
    for sink, want in ((None, False), (f"file:{evdir}", False),
                       (f"mqtt://127.0.0.1:{port}/{TOPIC}", True)):
        maps = run("maps", sink=sink, extra={"IOLENS_EVENTS_DRAIN": "0.2"})
        if "libiolens" not in maps:
            fail("the runtime is not in the program's maps")
        if ("libmosquitto" in maps) != want:
            fail(f"IOLENS_EVENTS={sink}: libmosquitto {'not ' if want else ''}mapped")
else:
    fail("unknown case")
for p in procs:
    if p.poll() is None:
        p.terminate()
shutil.rmtree(tmp, ignore_errors=True)
print(f"ok ({case})")
