#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""A soak of one running 'roce-doctor serve' (issue 15): COUNT clients one after another, of every kind below,
then a burst of simultaneous connections, then one clean request; the serve's open descriptors and RSS are read
from /proc/PID after the first client and after the last, and printed.

usage: soak.py HOST PORT PID SECRET_FILE [--count N] [--burst N] [--hello-timeout S] [--seed N]
               [--rdma ROCE_DOCTOR]   (also full bw and lat runs, and bw clients killed in the middle)
               [--no-snapshot]        (no snapshot kinds after the first: a serve in an emulated VM takes 5-15 s)
PID 0: the serve runs elsewhere (the VM pair): no /proc figures here, the serve's node reads them.

Client kinds: snapshot (a whole SNAPSHOT_REQ), reach (a REACH_REQ and its connection), valid-hello (a HELLO
refused without RDMA, or accepted and then the client vanishes), wrong-secret, no-auth (a request instead of
AUTH), random bytes, truncated header, truncated payload, oversized length, wrong version (a protocol 1
client), unknown type, a bad HELLO after AUTH, vanish mid-snapshot, mid-listen and mid-frame, silent (says
nothing: the serve must drop it within its HELLO timeout). With --rdma: bw, lat, bw killed mid-run.
Prints one line per kind ("kind N ok M"), the figures ("fds first=A last=B", "rss_kib first=A last=B",
"burst greeted=G busy=B other=O"), "failed=N"; exit 0 when every client got what it should.
"""
import hashlib
import hmac
import json
import os
import random
import socket
import struct
import subprocess
import sys
import threading
import time

MAGIC, VERSION = 0x52444F43, 2
HELLO, REFUSE, ERROR, BYE = 1, 3, 9, 8
SNAPSHOT_REQ, SNAPSHOT_CHUNK, REACH_REQ, REACH_LISTENING, REACH_RESULT = 10, 11, 12, 13, 14
GREETING, AUTH, AUTH_OK = 16, 17, 18
REF_BUSY, REF_NO_DEVICE, REF_RESOURCES, REF_NOT_ALLOWED = 1, 3, 4, 9
ERR_MAGIC, ERR_VERSION, ERR_LENGTH, ERR_TYPE, ERR_PAYLOAD = 1, 2, 3, 4, 5
CLIENT_CTX, SERVE_CTX = b"roce-doctor serve protocol 2: client proof", b"roce-doctor serve protocol 2: serve proof"

args = sys.argv[1:]
HOST, PORT, PID, SECRET = args[0], int(args[1]), int(args[2]), open(args[3], "rb").read()


def opt(name, default):
    return type(default)(args[args.index(name) + 1]) if name in args else default


COUNT, BURST, HELLO_S, RDMA = opt("--count", 200), opt("--burst", 100), opt("--hello-timeout", 10.0), opt("--rdma", "")
rng = random.Random(opt("--seed", 15))
tally = {}


class Busy(Exception):
    """The serve was still finishing the previous client: try again."""


def frame(ftype, payload=b"", version=VERSION, length=None):
    return struct.pack(">IHHI", MAGIC, version, ftype, len(payload) if length is None else length) + payload


def read_exact(s, n):
    buf = b""
    while len(buf) < n:
        got = s.recv(n - len(buf))
        if not got:
            return None
        buf += got
    return buf


def read_frame(s):
    """(type, payload), or None when the serve closed."""
    hdr = read_exact(s, 12)
    if hdr is None:
        return None
    magic, version, ftype, length = struct.unpack(">IHHI", hdr)
    if magic != MAGIC or version != VERSION or length > 1024:
        raise ValueError("bad frame header from the serve: %r" % hdr)
    body = read_exact(s, length)
    if body is None:
        raise ValueError("frame cut short")
    return ftype, body


def code(f):
    return struct.unpack(">H", f[1][:2])[0] if f and f[0] in (REFUSE, ERROR) else None


def closed(s):
    """The serve closes its side (after anything it still sends)."""
    try:
        while s.recv(4096):
            pass
        return True
    except (ConnectionResetError, socket.timeout):
        return False


def connect(timeout=10):
    s = socket.create_connection((HOST, PORT), timeout=timeout)
    s.settimeout(timeout)
    return s


def greeted(s):
    """The serve's nonce from its GREETING; Busy when it refused us as busy."""
    f = read_frame(s)
    if f and f[0] == REFUSE and code(f) == REF_BUSY:
        raise Busy()
    if not f or f[0] != GREETING or len(f[1]) != 36 or not f[1][0] & 1:
        raise ValueError("expected a GREETING asking for the secret, got %r" % (f,))
    return f[1][4:]


def authed(timeout=10):
    """A connection past GREETING, AUTH and AUTH_OK (the serve's proof checked)."""
    s = connect(timeout)
    ns = greeted(s)
    nc = os.urandom(32)
    s.sendall(frame(AUTH, nc + hmac.new(SECRET, ns + nc + CLIENT_CTX, hashlib.sha256).digest()))
    f = read_frame(s)
    if not f or f[0] != AUTH_OK or not hmac.compare_digest(f[1], hmac.new(SECRET, nc + ns + SERVE_CTX,
                                                                          hashlib.sha256).digest()):
        raise ValueError("no valid AUTH_OK: %r" % (f,))
    return s


def expect_reply(s, data, want_type, want_code, shut=False):
    s.sendall(data)
    if shut:
        s.shutdown(socket.SHUT_WR)
    f = read_frame(s)
    return f is not None and f[0] == want_type and code(f) == want_code and closed(s)


def hello_payload(qps=1):
    ep = struct.pack(">BBHB3s16sIQQH", 1, 3, 0, 1, bytes(3), bytes(10) + b"\xff\xff" + bytes([127, 0, 0, 1]), 7,
                     0x1000, (2 + qps) * 64, qps) + b"".join(struct.pack(">II", 17 + i, 0) for i in range(qps))
    return struct.pack(">BBBBHHII", 1, 1, 2, 0, 4, 0, 0, 64) + ep


# ---- the kinds ----

def k_snapshot():
    with authed(30) as s:
        s.sendall(frame(SNAPSHOT_REQ))
        text = b""
        while True:
            f = read_frame(s)
            if not f or f[0] != SNAPSHOT_CHUNK:
                return False
            index, count, total = struct.unpack(">III", f[1][:12])
            text += f[1][12:]
            if index + 1 == count:
                break
        s.sendall(frame(BYE))
        return len(text) == total and json.loads(text)["schema"] == "roce-doctor/snapshot/v1"


def reach_req(wait_ms):
    """Listen on the serve's own address (HOST, an IPv4 literal) for wait_ms."""
    return frame(REACH_REQ, bytes(10) + b"\xff\xff" + socket.inet_aton(HOST) + struct.pack(">HHI", 0, wait_ms, 0))


def k_reach():
    with authed() as s:
        s.sendall(reach_req(1000))
        f = read_frame(s)
        if not f or f[0] != REACH_LISTENING:
            return False
        port = struct.unpack(">H", f[1][:2])[0]
        socket.create_connection((HOST, port), timeout=2).close()
        f = read_frame(s)
        s.sendall(frame(BYE))
        return f is not None and f[0] == REACH_RESULT and f[1][0] == 1


def k_valid_hello():
    """No RDMA on the serve: REFUSE 3/4. With RDMA: ACCEPT (QPs set up), and the client vanishes."""
    with authed() as s:
        s.sendall(frame(HELLO, hello_payload()))
        f = read_frame(s)
        return f is not None and (f[0] == 2 or (f[0] == REFUSE and code(f) in (REF_NO_DEVICE, REF_RESOURCES)))


def k_wrong_secret():
    with connect() as s:
        ns = greeted(s)
        nc = os.urandom(32)
        mac = hmac.new(SECRET + b"x", ns + nc + CLIENT_CTX, hashlib.sha256).digest()
        return expect_reply(s, frame(AUTH, nc + mac), REFUSE, REF_NOT_ALLOWED)


def k_no_auth():
    with connect() as s:
        greeted(s)
        return expect_reply(s, frame(SNAPSHOT_REQ), REFUSE, REF_NOT_ALLOWED)


def k_random():
    with connect() as s:
        greeted(s)
        data = bytes(rng.getrandbits(8) for _ in range(rng.choice([12, 40, 300, 1100])))
        data = (b"X" + data[1:]) if data[:4] == struct.pack(">I", MAGIC) else data
        return expect_reply(s, data, ERROR, ERR_MAGIC)


def k_truncated_header():
    with connect() as s:
        greeted(s)
        s.sendall(frame(AUTH, bytes(64))[:7])
        s.shutdown(socket.SHUT_WR)
        return read_frame(s) is None


def k_truncated_payload():
    with connect() as s:
        greeted(s)
        s.sendall(frame(AUTH, bytes(64))[:30])
        s.shutdown(socket.SHUT_WR)
        return read_frame(s) is None


def k_oversized():
    with connect() as s:
        greeted(s)
        return expect_reply(s, frame(AUTH, b"", length=0xFFFFFFFF), ERROR, ERR_LENGTH)


def k_wrong_version():
    with connect() as s:
        greeted(s)
        return expect_reply(s, frame(HELLO, hello_payload(), version=1), ERROR, ERR_VERSION)


def k_unknown_type():
    with connect() as s:
        greeted(s)
        return expect_reply(s, frame(77, bytes(8)), ERROR, ERR_TYPE)


def k_bad_hello_after_auth():
    with authed() as s:
        return expect_reply(s, frame(HELLO, hello_payload(qps=0)), ERROR, ERR_PAYLOAD)


def k_vanish_mid_snapshot():
    with authed(30) as s:
        s.sendall(frame(SNAPSHOT_REQ))
        f = read_frame(s)
        return f is not None and f[0] == SNAPSHOT_CHUNK   # and close with the rest unread


def k_vanish_mid_listen():
    with authed() as s:
        s.sendall(reach_req(5000))
        f = read_frame(s)
        return f is not None and f[0] == REACH_LISTENING


def k_vanish_mid_frame():
    with authed() as s:
        s.sendall(frame(HELLO, hello_payload())[:40])
        return True


def k_silent():
    """Says nothing after the GREETING: the serve must give up on it within its HELLO timeout."""
    with connect(HELLO_S + 10) as s:
        greeted(s)
        t0 = time.monotonic()
        f = read_frame(s)
        took = time.monotonic() - t0
        ok = f is not None and f[0] == ERROR and code(f) == 6 and closed(s) and took < HELLO_S + 1.5
        tally.setdefault("silent_seconds", []).append(took)
        return ok


def k_bw():
    r = subprocess.run([RDMA, "bw", HOST, "-p", str(PORT), "-s", "4K", "-n", "200", "--secret-file", args[3]],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=60)
    if r.returncode and b"busy" in r.stderr:
        raise Busy()
    return r.returncode == 0


def k_lat():
    r = subprocess.run([RDMA, "lat", HOST, "-p", str(PORT), "-n", "100", "--secret-file", args[3]],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=60)
    if r.returncode and b"busy" in r.stderr:
        raise Busy()
    return r.returncode == 0


def k_bw_killed():
    p = subprocess.Popen([RDMA, "bw", HOST, "-p", str(PORT), "-s", "64K", "-D", "5", "--secret-file", args[3]],
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    time.sleep(rng.uniform(0.3, 1.0))
    p.kill()
    p.wait()
    return True


KINDS = [k_snapshot, k_reach, k_valid_hello, k_wrong_secret, k_no_auth, k_random, k_truncated_header,
         k_truncated_payload, k_oversized, k_wrong_version, k_unknown_type, k_bad_hello_after_auth,
         k_vanish_mid_snapshot, k_vanish_mid_listen, k_vanish_mid_frame]
if "--no-snapshot" in args:
    KINDS = [k for k in KINDS if k not in (k_snapshot, k_vanish_mid_snapshot)]
if RDMA:
    KINDS += [k_bw, k_lat, k_bw_killed]


def run(kind):
    name = kind.__name__[2:].replace("_", "-")
    for attempt in range(50):
        try:
            ok = kind()
            break
        except Busy:
            tally["busy-retries"] = tally.get("busy-retries", 0) + 1
            time.sleep(0.05)
        except (OSError, ValueError, subprocess.SubprocessError) as e:
            print("# %s: %s: %s" % (name, type(e).__name__, e), flush=True)
            ok = False
            break
    else:
        ok = False
    n, good = tally.get(name, (0, 0))
    tally[name] = (n + 1, good + ok)
    if not ok:
        print("FAIL %s #%d" % (name, n + 1), flush=True)
    return ok


def usage():
    """Open descriptors and resident KiB of the serve."""
    if PID == 0:
        return 0, 0
    fds = len(os.listdir("/proc/%d/fd" % PID))
    rss = next(int(line.split()[1]) for line in open("/proc/%d/status" % PID) if line.startswith("VmRSS:"))
    return fds, rss


def settle():
    """Lingering connections close once their clients have (the serve drains them within 0.5 s)."""
    time.sleep(1.0)


def burst():
    """BURST connections at once: each gets the GREETING (the one served: it then leaves) or REFUSE busy."""
    got = {"greeted": 0, "busy": 0, "other": 0}
    lock = threading.Lock()
    go = threading.Event()

    def one():
        kind = "other"
        try:
            go.wait()
            with connect(20) as s:
                f = read_frame(s)
                if f and f[0] == GREETING:
                    kind = "greeted"
                elif f and f[0] == REFUSE and code(f) == REF_BUSY:
                    kind = "busy"
        except (OSError, ValueError) as e:
            print("# burst: %s: %s" % (type(e).__name__, e), flush=True)
        with lock:
            got[kind] += 1

    threads = [threading.Thread(target=one) for _ in range(BURST)]
    for t in threads:
        t.start()
    t0 = time.monotonic()
    go.set()
    for t in threads:
        t.join()
    return got, time.monotonic() - t0


def main():
    t0 = time.monotonic()
    results = [run(k_snapshot)]
    settle()
    print("first-client-done", flush=True)
    first = usage()
    order = [KINDS[i % len(KINDS)] for i in range(COUNT - 1)]
    rng.shuffle(order)
    # a few silent clients, spread out: each holds the serve for its HELLO timeout
    for i in range(max(1, COUNT // 100)):
        order.insert(rng.randrange(len(order) + 1), k_silent)
    for kind in order:
        results.append(run(kind))
    got, took = burst()
    results.append(got["other"] == 0 and got["greeted"] >= 1)
    results.append(run(k_snapshot))
    if RDMA:
        results.append(run(k_bw))
    settle()
    last = usage()
    for name in sorted(k for k in tally if isinstance(tally[k], tuple)):
        print("kind %s %d ok %d" % (name, *tally[name]))
    print("clients=%d" % (len(order) + 2 + bool(RDMA)))
    print("seconds=%.1f" % (time.monotonic() - t0))
    print("busy-retries=%d" % tally.get("busy-retries", 0))
    print("silent_max_s=%.2f" % max(tally.get("silent_seconds", [0])))
    print("burst greeted=%d busy=%d other=%d in %.2f s" % (got["greeted"], got["busy"], got["other"], took))
    print("fds first=%d last=%d" % (first[0], last[0]))
    print("rss_kib first=%d last=%d" % (first[1], last[1]))
    print("failed=%d" % results.count(False))
    return 0 if all(results) else 1


if __name__ == "__main__":
    sys.exit(main())
