#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""A hostile 'roce-doctor serve' for check --peer's client: it listens on 127.0.0.1, one port per MODE
(the kernel picks each: a fixed range would meet a port the machine's other tests hold, many of them in the
ephemeral range), prints "port MODE N" for each and then "listening", and answers each request on that port the
way its MODE says, wrongly. It serves until killed.

usage: fake_serve.py MODE...
snapshot modes: good (a valid snapshot from the file in $SNAPSHOT), malformed, oversized, other-schema,
  truncated (closes after half), stall (stops after half, connection open), out-of-order, old-serve (ERROR
  unknown type, as a serve without the request), bad-version (a frame of protocol version 1 after the
  greeting), no-greeting (a serve of protocol 1: it waits for the request and sends no GREETING)
reach modes: lie-port (listens elsewhere than asked), lie-from (claims an arrival from 10.9.9.9),
  deny-arrival (says nothing arrived although our connection was accepted), stall-result (never answers)
"""
import os
import socket
import struct
import sys
import threading
import time

MAGIC, VERSION, HDR = 0x52444F43, 2, 12
GREETING = 16
ERROR, SNAPSHOT_REQ, SNAPSHOT_CHUNK, REACH_REQ, REACH_LISTENING, REACH_RESULT = 9, 10, 11, 12, 13, 14
CHUNK = 1000
MODES = sys.argv[1:]


def frame(ftype, payload, version=VERSION):
    return struct.pack(">IHHI", MAGIC, version, ftype, len(payload)) + payload


def read_exact(s, n):
    data = b""
    while len(data) < n:
        got = s.recv(n - len(data))
        if not got:
            raise EOFError
        data += got
    return data


def read_frame(s):
    magic, version, ftype, length = struct.unpack(">IHHI", read_exact(s, HDR))
    return ftype, read_exact(s, length)


def chunks(text, total=None, count=None):
    total = len(text) if total is None else total
    count = (total + CHUNK - 1) // CHUNK if count is None else count
    return [frame(SNAPSHOT_CHUNK, struct.pack(">III", i, count, total) + text[i * CHUNK:(i + 1) * CHUNK])
            for i in range((len(text) + CHUNK - 1) // CHUNK)]


def snapshot(s, MODE):
    good = open(os.environ["SNAPSHOT"], "rb").read().strip() if "SNAPSHOT" in os.environ else b"{}"
    if MODE == "good":
        s.sendall(b"".join(chunks(good)))
    elif MODE == "malformed":
        s.sendall(b"".join(chunks(b'{"schema": "roce-doctor/snapshot/v1", "host": [' + b"1," * 3000)))
    elif MODE == "oversized":
        s.sendall(chunks(b"x" * CHUNK, total=5 << 20)[0])
    elif MODE == "other-schema":
        s.sendall(b"".join(chunks(good.replace(b"roce-doctor/snapshot/v1", b"roce-doctor/snapshot/v2", 1))))
    elif MODE in ("truncated", "stall"):
        frames = chunks(good)
        s.sendall(b"".join(frames[:len(frames) // 2]) + frames[len(frames) // 2][:500])
        if MODE == "stall":
            time.sleep(60)
        s.shutdown(socket.SHUT_RDWR)
    elif MODE == "out-of-order":
        frames = chunks(good)
        s.sendall(frames[0] + frames[2] + frames[1])
    elif MODE == "old-serve":
        text = b"expected HELLO, got unknown"
        s.sendall(frame(ERROR, struct.pack(">HH", 4, len(text)) + text))
    elif MODE == "bad-version":
        s.sendall(frame(SNAPSHOT_CHUNK, b"", version=1))


def reach(s, payload, MODE):
    address, port, wait_ms = payload[:16], *struct.unpack(">HH", payload[16:20])
    family = socket.AF_INET if address[:12] == bytes(10) + b"\xff\xff" else socket.AF_INET6
    host = socket.inet_ntop(family, address[12:] if family == socket.AF_INET else address)
    lis = socket.socket(family, socket.SOCK_STREAM)
    lis.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    lis.bind((host, 0 if MODE == "lie-port" or port == 0 else port))
    lis.listen(4)
    real = lis.getsockname()[1]
    s.sendall(frame(REACH_LISTENING, struct.pack(">HH", real, wait_ms)))
    lis.settimeout(wait_ms / 1000)
    try:
        conn, peer = lis.accept()
        conn.close()
    except socket.timeout:
        peer = None
    if MODE == "stall-result":
        time.sleep(60)
    if MODE == "lie-from":
        s.sendall(frame(REACH_RESULT, struct.pack(">BBH16sI", 1, 0, 40000, bytes(10) + b"\xff\xff" +
                                                 bytes([10, 9, 9, 9]), 0)))
    elif MODE == "deny-arrival" or peer is None:
        s.sendall(frame(REACH_RESULT, bytes(24)))
    else:
        s.sendall(frame(REACH_RESULT, struct.pack(">BBH16sI", 1, 0, peer[1], bytes(10) + b"\xff\xff" +
                                                 socket.inet_aton(peer[0]), 0)))
    lis.close()


def session(s, mode):
    try:
        if mode != "no-greeting":   # protocol 2 opens with it: no secret asked
            s.sendall(frame(GREETING, bytes(4) + os.urandom(32)))
        ftype, payload = read_frame(s)
        if ftype == SNAPSHOT_REQ:
            snapshot(s, mode)
        elif ftype == REACH_REQ:
            reach(s, payload, mode)
        read_frame(s)   # BYE or ERROR, or the client closing
    except (EOFError, OSError):
        pass
    finally:
        s.close()


def serve(lis, mode):
    while True:
        s, _ = lis.accept()
        threading.Thread(target=session, args=(s, mode), daemon=True).start()


def main():
    listeners = []
    for mode in MODES:
        lis = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        lis.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        lis.bind(("127.0.0.1", 0))
        lis.listen(8)
        print("port %s %d" % (mode, lis.getsockname()[1]), flush=True)
        listeners.append(threading.Thread(target=serve, args=(lis, mode), daemon=True))
    for t in listeners:
        t.start()
    print("listening", flush=True)
    for t in listeners:
        t.join()


if __name__ == "__main__":
    main()
