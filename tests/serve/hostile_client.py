#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""A hostile client for 'roce-doctor serve': every probe opens its own connection to the serve, sends
something broken (random bytes, truncated or oversized frames, wrong magic or version, unknown types,
out-of-range HELLO fields, a connection that stalls, a valid HELLO and then a vanishing client) and checks
what comes back: an ERROR or REFUSE frame with the right code, or a clean close.

usage: hostile_client.py HOST [PORT] [--max-qps N] [--max-mem-mib N] [--no-rdma] [--quick]
  --no-rdma  the serve's host has no usable RDMA port: a valid HELLO gets REFUSE (no device or resources)
             instead of ACCEPT, and the probes that need an accepted test are left out
  --quick    leave out the stalled connection (it costs serve's 10 s HELLO timeout)
Prints one line per probe ("ok NAME: ..." or "FAIL NAME: ..."), then "probes=N" and "failed=N".
Exit status 0 when every probe got the answer it should, 1 otherwise.
"""
import random
import socket
import struct
import sys
import time

MAGIC = 0x52444F43
VERSION = 2
GREETING = 16
HELLO, ACCEPT, REFUSE, START, READY, DONE, RESULT, BYE, ERROR = range(1, 10)
NAMES = {1: "HELLO", 2: "ACCEPT", 3: "REFUSE", 4: "START", 5: "READY", 6: "DONE", 7: "RESULT", 8: "BYE",
         9: "ERROR"}
# wire.h: enum proto_error_code and proto_refuse_code
ERR_MAGIC, ERR_VERSION, ERR_LENGTH, ERR_TYPE, ERR_PAYLOAD, ERR_TIMEOUT = 1, 2, 3, 4, 5, 6
REF_BUSY, REF_LIMIT, REF_NO_DEVICE, REF_RESOURCES = 1, 2, 3, 4

args = [a for i, a in enumerate(sys.argv[1:], 1)
        if not a.startswith("--") and sys.argv[i - 1] not in ("--max-qps", "--max-mem-mib")]
HOST = args[0]
PORT = int(args[1]) if len(args) > 1 else 18516
MAX_QPS = int(sys.argv[sys.argv.index("--max-qps") + 1]) if "--max-qps" in sys.argv else 64
MAX_MEM_MIB = int(sys.argv[sys.argv.index("--max-mem-mib") + 1]) if "--max-mem-mib" in sys.argv else 512
NO_RDMA = "--no-rdma" in sys.argv
QUICK = "--quick" in sys.argv
rng = random.Random(5)   # the same bytes every run: a failure can be replayed
results = []


def frame(ftype, payload, magic=MAGIC, version=VERSION, length=None):
    return struct.pack(">IHHI", magic, version, ftype, len(payload) if length is None else length) + payload


def endpoint(qps=1, slot=4096, ep_mtu=5, link=1, rd_atomic=16, gid=None, length=None, qpn=0x11):
    gid = gid if gid is not None else bytes(10) + b"\xff\xff" + bytes([10, 88, 0, 1])
    length = (2 + qps) * slot if length is None else length
    ep = struct.pack(">BBHB3s16sIQQH", link, ep_mtu, 0, rd_atomic, bytes(3), gid, 0x1234, 0x10000, length, qps)
    return ep + b"".join(struct.pack(">II", qpn + i, i) for i in range(qps))


def hello(test=1, op=1, flags=2, mtu=0, depth=128, inline=0, slot=4096, qps=1, **ep):
    return struct.pack(">BBBBHHII", test, op, flags, mtu, depth, 0, inline, slot) + endpoint(qps, slot, **ep)


def connect(greeting=True):
    """A connection past the serve's GREETING (protocol 2; a serve without --secret-file asks for nothing);
    greeting=False: a busy serve's REFUSE comes instead, for the caller to read."""
    s = socket.create_connection((HOST, PORT), timeout=5)
    s.settimeout(15)
    if not greeting:
        return s
    got = read_frame(s)
    if got is None or got[0] != GREETING:
        s.close()
        raise ValueError("no GREETING from the serve: %r" % (got,))
    return s


def read_exact(s, n):
    buf = b""
    while len(buf) < n:
        chunk = s.recv(n - len(buf))
        if not chunk:
            return None
        buf += chunk
    return buf


def read_frame(s):
    """(type, code, text) of the next frame, None when the serve closed the connection, or raises."""
    hdr = read_exact(s, 12)
    if hdr is None:
        return None
    magic, version, ftype, length = struct.unpack(">IHHI", hdr)
    if magic != MAGIC or version != VERSION or length > 1024:
        raise ValueError("bad frame header from the serve: %r" % hdr)
    payload = read_exact(s, length)
    if payload is None:
        raise ValueError("the serve's %s frame was cut short" % NAMES.get(ftype, ftype))
    if ftype in (REFUSE, ERROR):
        code, tlen = struct.unpack(">HH", payload[:4])
        return ftype, code, payload[4:4 + tlen].decode("ascii", "replace")
    return ftype, None, ""


def closed_after(s):
    """True when the serve closes its side (after draining anything it still sends)."""
    try:
        while True:
            if not s.recv(4096):
                return True
    except (ConnectionResetError, socket.timeout):
        return False


def record(name, ok, detail):
    results.append(ok)
    print("%s %s: %s" % ("ok" if ok else "FAIL", name, detail), flush=True)


def expect_reply(name, data, want_type, want_code, shut=False, greeting=True):
    """Sends data; the serve must answer with want_type/want_code and then close."""
    try:
        with connect(greeting) as s:
            s.sendall(data)
            if shut:
                s.shutdown(socket.SHUT_WR)
            got = read_frame(s)
            if got is None:
                record(name, False, "connection closed without a reply")
                return
            ftype, code, text = got
            ok = ftype == want_type and code == want_code
            ok = closed_after(s) and ok
            record(name, ok, "%s code %s: %s" % (NAMES.get(ftype, ftype), code, text))
    except (OSError, ValueError) as e:
        record(name, False, "%s: %s" % (type(e).__name__, e))


def expect_close(name, data):
    """Sends data and closes our side: the serve can only notice and close too, without a reply."""
    try:
        with connect() as s:
            s.sendall(data)
            s.shutdown(socket.SHUT_WR)
            got = read_frame(s)
            record(name, got is None, "closed without a reply" if got is None else "unexpected reply %r" % (got,))
    except (OSError, ValueError) as e:
        record(name, False, "%s: %s" % (type(e).__name__, e))


def valid_hello_then(name, after, want):
    """A HELLO the serve accepts (it sets up QPs for a client that never uses them), then 'after'."""
    try:
        with connect() as s:
            s.sendall(frame(HELLO, hello()))
            got = read_frame(s)
            if not got or got[0] != ACCEPT:
                record(name, False, "no ACCEPT for a valid HELLO: %r" % (got,))
                return
            if after is None:
                s.close()
                record(name, True, "ACCEPT, then the client vanished")
                return
            s.sendall(after)
            got = read_frame(s)
            ok = got is not None and (got[0], got[1]) == want
            record(name, ok, "%s code %s: %s" % (NAMES.get(got[0], got[0]), got[1], got[2]) if got else "closed")
    except (OSError, ValueError) as e:
        record(name, False, "%s: %s" % (type(e).__name__, e))


def stall_and_busy():
    """One connection that says nothing: the serve gives up on it after its HELLO timeout; meanwhile a
    second client is refused as busy (not told whose test runs)."""
    try:
        with connect() as stalled:
            time.sleep(0.5)
            expect_reply("busy while another connection is open", frame(HELLO, hello()), REFUSE, REF_BUSY,
                         greeting=False)
            t0 = time.monotonic()
            got = read_frame(stalled)
            waited = time.monotonic() - t0 + 0.5
            ok = got is not None and (got[0], got[1]) == (ERROR, ERR_TIMEOUT) and closed_after(stalled)
            record("stalled connection", ok, "after %.1f s: %s" % (waited, got))
    except (OSError, ValueError) as e:
        record("stalled connection", False, "%s: %s" % (type(e).__name__, e))


def main():
    hdr_ok = frame(HELLO, hello())
    if not QUICK:
        stall_and_busy()
    if NO_RDMA:
        try:
            with connect() as s:
                s.sendall(hdr_ok)
                got = read_frame(s)
                ok = got is not None and got[0] == REFUSE and got[1] in (REF_NO_DEVICE, REF_RESOURCES)
                record("valid HELLO without RDMA on the serve", ok and closed_after(s), "%s" % (got,))
        except (OSError, ValueError) as e:
            record("valid HELLO without RDMA on the serve", False, "%s: %s" % (type(e).__name__, e))
    for i in range(12):
        n = rng.choice([12, 13, 40, 100, 1100, 5000])
        data = bytes(rng.getrandbits(8) for _ in range(n))
        if data[:4] == struct.pack(">I", MAGIC):
            data = b"X" + data[1:]
        expect_reply("random %d bytes #%d" % (n, i), data, ERROR, ERR_MAGIC)
    expect_close("truncated header", hdr_ok[:7])
    expect_close("truncated payload", hdr_ok[:40])
    expect_reply("oversized length", frame(HELLO, b"", length=0xFFFFFFFF), ERROR, ERR_LENGTH)
    expect_reply("length just over the limit", frame(HELLO, bytes(1025)), ERROR, ERR_LENGTH)
    expect_reply("wrong magic", frame(HELLO, hello(), magic=0x52444F44), ERROR, ERR_MAGIC)
    expect_reply("wrong version (a protocol 1 client)", frame(HELLO, hello(), version=1), ERROR, ERR_VERSION)
    expect_reply("unknown type", frame(77, hello()), ERROR, ERR_TYPE)
    expect_reply("START before HELLO", frame(START, struct.pack(">IIIIQ", 64, 1, 0, 0, 10)), ERROR, ERR_TYPE)
    bad_hellos = {
        "zero QPs": hello(qps=0),
        "65 QPs": hello(qps=65),
        "QPs announced past the payload": hello(qps=3)[:-8],
        "send queue depth 0": hello(depth=0),
        "send queue depth 5000": hello(depth=5000),
        "slot size 16 MiB": hello(slot=16 << 20),
        "slot size not a multiple of 64": hello(slot=4100),
        "inline 4096": hello(inline=4096),
        "unknown test": hello(test=9),
        "unknown operation": hello(op=7),
        "unknown flags": hello(flags=0x80),
        "MTU code 9": hello(mtu=9),
        "endpoint MTU code 0": hello(ep_mtu=0),
        "zero GID on Ethernet": hello(gid=bytes(16)),
        "buffer length that does not match": hello(length=12345),
        "QP number over 24 bits": hello(qpn=0x1000000),
        "lat with 2 QPs": hello(test=2, qps=2),
        "trailing bytes": hello() + b"\0\0\0\0",
    }
    for name, payload in bad_hellos.items():
        expect_reply("HELLO " + name, frame(HELLO, payload), ERROR, ERR_PAYLOAD)
    expect_reply("HELLO over --max-qps", frame(HELLO, hello(qps=MAX_QPS + 1)),
                 ERROR if MAX_QPS + 1 > 64 else REFUSE, ERR_PAYLOAD if MAX_QPS + 1 > 64 else REF_LIMIT)
    slot = 8 << 20
    if 3 * slot > MAX_MEM_MIB << 20:
        expect_reply("HELLO over --max-mem", frame(HELLO, hello(slot=slot)), REFUSE, REF_LIMIT)
    if not NO_RDMA:
        valid_hello_then("valid HELLO, then the client vanishes", None, None)
        valid_hello_then("START larger than the slots", frame(START, struct.pack(">IIIIQ", 8192, 1, 0, 0, 10)),
                         (ERROR, ERR_PAYLOAD))
        valid_hello_then("START with both iterations and duration",
                         frame(START, struct.pack(">IIIIQ", 64, 1, 1000, 0, 10)), (ERROR, ERR_PAYLOAD))
        valid_hello_then("a second HELLO", frame(HELLO, hello()), (ERROR, ERR_TYPE))
    # Random damage to a valid HELLO: whatever the serve makes of it, it answers with a frame (or closes)
    # and keeps serving; the bw that follows in the case proves the latter.
    for i in range(20):
        data = bytearray(hdr_ok)
        for _ in range(rng.randint(1, 4)):
            data[rng.randrange(12, len(data))] = rng.getrandbits(8)
        try:
            with connect() as s:
                s.sendall(bytes(data))
                got = read_frame(s)
                ok = got is None or got[0] in (ERROR, REFUSE, ACCEPT)
                record("damaged HELLO #%d" % i, ok, "%s code %s %s" % (NAMES.get(got[0]), got[1], got[2])
                       if got else "closed")
        except (OSError, ValueError) as e:
            record("damaged HELLO #%d" % i, False, "%s: %s" % (type(e).__name__, e))
    print("probes=%d" % len(results))
    print("failed=%d" % results.count(False))
    return 0 if all(results) else 1


if __name__ == "__main__":
    sys.exit(main())
