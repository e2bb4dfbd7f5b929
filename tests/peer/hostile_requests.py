#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""check --peer's requests sent wrongly to a real 'roce-doctor serve': each probe opens its own connection and
checks the answer (an ERROR or REFUSE frame with the right code, or the right frames in order).

usage: hostile_requests.py HOST PORT PROBE...
probes: bad-reach bad-snapshot-req too-many hello-after-request bye-first reach-then-vanish listen-long
Prints "ok PROBE: ..." or "FAIL PROBE: ..." per probe; exit 0 when every probe got its answer.
listen-long asks for a 10 s listener and waits for what comes (run it, then stop the serve: ERROR 7).
"""
import socket
import struct
import sys

MAGIC, HDR = 0x52444F43, 12
HELLO, REFUSE, ERROR, BYE, GREETING = 1, 3, 9, 8, 16
SNAPSHOT_REQ, SNAPSHOT_CHUNK, REACH_REQ, REACH_LISTENING, REACH_RESULT = 10, 11, 12, 13, 14
ERR_TYPE, ERR_PAYLOAD, ERR_TEST = 4, 5, 7
HOST, PORT = sys.argv[1], int(sys.argv[2])
ok = True


def frame(ftype, payload=b""):
    return struct.pack(">IHHI", MAGIC, 2, ftype, len(payload)) + payload


def read_frame(s):
    data = b""
    while len(data) < HDR:
        got = s.recv(HDR - len(data))
        if not got:
            return None
        data += got
    _, _, ftype, length = struct.unpack(">IHHI", data)
    body = b""
    while len(body) < length:
        got = s.recv(length - len(body))
        if not got:
            return None
        body += got
    return ftype, body


def connect(timeout=15):
    """A connection past the serve's GREETING (protocol 2; a serve without --secret-file asks for nothing)."""
    s = socket.create_connection((HOST, PORT), timeout=timeout)
    f = read_frame(s)
    if f is None or f[0] != GREETING:
        raise ValueError("no GREETING from the serve: %r" % (f,))
    return s


def reason(f):
    return (f[0], struct.unpack(">H", f[1][:2])[0], f[1][4:].decode()) if f and f[0] in (ERROR, REFUSE) else f and f[0]


def hello():
    """A HELLO that decodes (one QP, 64-byte slots): only its place in the connection is wrong."""
    ep = struct.pack(">BBHB3s16sIQQH", 1, 3, 0, 1, bytes(3), bytes(10) + b"\xff\xff" + bytes([127, 0, 0, 1]), 7,
                     0x1000, 3 * 64, 1) + struct.pack(">II", 17, 0)
    return frame(HELLO, struct.pack(">BBBBHHII", 1, 1, 2, 0, 4, 0, 0, 64) + ep)


def reach_req(port=0, wait_ms=300, addr=bytes(10) + b"\xff\xff" + bytes([127, 0, 0, 1])):
    return frame(REACH_REQ, addr + struct.pack(">HHI", port, wait_ms, 0))


def record(name, good, detail):
    global ok
    ok = ok and good
    print("%s %s: %s" % ("ok" if good else "FAIL", name, detail), flush=True)


def expect_error(name, data, code, requests_first=0):
    with connect() as s:
        for _ in range(requests_first):
            s.sendall(frame(SNAPSHOT_REQ))
            while True:
                f = read_frame(s)
                if f is None or f[0] != SNAPSHOT_CHUNK:
                    return record(name, False, "request answered with %s" % (reason(f),))
                index, count, _ = struct.unpack(">III", f[1][:12])
                if index + 1 == count:
                    break
        s.sendall(data)
        f = read_frame(s)
        r = reason(f)
        record(name, isinstance(r, tuple) and r[0] == ERROR and r[1] == code, "%s" % (r,))


def main():
    for probe in sys.argv[3:]:
        if probe == "bad-reach":
            expect_error(probe, reach_req(wait_ms=50), ERR_PAYLOAD)
        elif probe == "bad-snapshot-req":
            expect_error(probe, frame(SNAPSHOT_REQ, b"\0"), ERR_PAYLOAD)
        elif probe == "too-many":
            expect_error(probe, frame(SNAPSHOT_REQ), ERR_PAYLOAD, requests_first=16)
        elif probe == "hello-after-request":
            expect_error(probe, hello(), ERR_TYPE, requests_first=1)
        elif probe == "bye-first":
            expect_error(probe, frame(BYE), ERR_TYPE)
        elif probe == "reach-then-vanish":
            with connect() as s:
                s.sendall(reach_req(wait_ms=5000))
                f = read_frame(s)
                record(probe, f is not None and f[0] == REACH_LISTENING, "%s" % (reason(f),))
        elif probe == "listen-long":
            with connect(30) as s:
                s.sendall(reach_req(wait_ms=10000))
                f = read_frame(s)
                print("listening", flush=True)
                f = read_frame(s)
                r = reason(f)
                record(probe, isinstance(r, tuple) and r[0] == ERROR and r[1] == ERR_TEST and "shutting down" in r[2],
                       "%s" % (r,))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
