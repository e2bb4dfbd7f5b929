#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""switch.py DIR PORTS RUNNER_PID: a lossless Ethernet switch for the VM testbed's nodes.

Listens on DIR/p0.sock .. DIR/p<PORTS-1>.sock; each node's qemu connects one NIC to one port with a
`stream` netdev (server=off). QEMU's stream protocol prefixes every frame with its length, 4 bytes big-endian.
The switch learns source MACs and sends a frame to the port that owns its destination, and floods broadcast,
multicast and unknown destinations to every other connected port.

Lossless as the direct cable is: every write blocks until the receiving qemu has taken the frame, so a node
that falls behind makes its senders wait (as PFC pauses them on a RoCE fabric) instead of its frames being
dropped. The price is head-of-line blocking, as with PFC: a frozen guest (SIGSTOP) stalls whoever sends to it.
A port whose qemu goes away (killed) is closed and its frames are discarded, so the others go on.

It exits when RUNNER_PID is gone, on SIGTERM, or once every port that connected has gone again. Counters
(frames in and out, flooded, discarded per port) are written to DIR/switch.log when it exits.
"""
import os
import signal
import socket
import struct
import sys
import threading
import time

MAX_FRAME = 65536 + 64   # qemu's own limit on a stream frame (NET_BUFSIZE is 68 KiB); more is a broken peer


class Port:
    def __init__(self, index):
        self.index = index
        self.conn = None
        self.lock = threading.Lock()   # one writer at a time: a frame is written whole
        self.seen = False
        self.gone = False
        self.rx = self.tx = self.flooded = self.dropped = 0

    def send(self, data):
        with self.lock:
            if self.conn is None:
                self.dropped += 1
                return
            try:
                self.conn.sendall(data)
                self.tx += 1
            except OSError:
                self.close()
                self.dropped += 1

    def close(self):
        # Called with self.lock held, or by the reader after the peer closed.
        if self.conn is not None:
            try:
                self.conn.close()
            except OSError:
                pass
            self.conn = None
            self.gone = True


class Switch:
    def __init__(self, directory, count):
        self.dir = directory
        self.ports = [Port(i) for i in range(count)]
        self.macs = {}       # MAC (6 bytes) -> port index; a MAC that moves is learnt again
        self.done = threading.Event()

    def listen(self):
        for p in self.ports:
            path = os.path.join(self.dir, "p%d.sock" % p.index)
            try:
                os.unlink(path)
            except FileNotFoundError:
                pass
            s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            s.bind(path + ".tmp")
            s.listen(1)
            os.rename(path + ".tmp", path)   # the path appears only once it accepts: the runner waits for it
            threading.Thread(target=self.accept, args=(p, s), daemon=True).start()

    def accept(self, port, listener):
        while not self.done.is_set():
            conn, _ = listener.accept()
            conn.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 1 << 20)
            with port.lock:
                if port.conn is not None:   # one qemu per port: a second one is refused
                    conn.close()
                    continue
                port.conn, port.seen, port.gone = conn, True, False
            threading.Thread(target=self.read, args=(port, conn), daemon=True).start()

    def read(self, port, conn):
        f = conn.makefile("rb", buffering=1 << 18)
        try:
            while True:
                head = f.read(4)
                if len(head) < 4:
                    break
                (n,) = struct.unpack(">I", head)
                if n > MAX_FRAME:
                    break
                frame = f.read(n)
                if len(frame) < n:
                    break
                port.rx += 1
                self.forward(port, head + frame)
        except OSError:
            pass
        with port.lock:
            port.close()
        if all(p.seen and p.gone or not p.seen for p in self.ports) and any(p.seen for p in self.ports):
            self.done.set()

    def forward(self, port, data):
        if len(data) < 16:
            return
        dst, src = data[4:10], data[10:16]
        if not src[0] & 1:
            self.macs[src] = port.index
        out = self.macs.get(dst) if not dst[0] & 1 else None
        if out is not None:
            if out != port.index:
                self.ports[out].send(data)
            return
        for p in self.ports:
            if p is not port and p.conn is not None:
                p.flooded += 1
                p.send(data)

    def report(self):
        with open(os.path.join(self.dir, "switch.log"), "w") as log:
            for p in self.ports:
                log.write("port %d: rx %d tx %d flooded %d discarded %d%s\n" % (
                    p.index, p.rx, p.tx, p.flooded, p.dropped, " (never connected)" if not p.seen else ""))
            for mac, i in sorted(self.macs.items(), key=lambda x: x[1]):
                log.write("mac %s on port %d\n" % (mac.hex(":"), i))


def main():
    if len(sys.argv) != 4:
        sys.stderr.write("usage: switch.py DIR PORTS RUNNER_PID\n")
        return 64
    directory, count, runner = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    sw = Switch(directory, count)
    signal.signal(signal.SIGTERM, lambda *_: sw.done.set())
    sw.listen()
    while not sw.done.wait(1):
        try:
            os.kill(runner, 0)
        except ProcessLookupError:
            break
    sw.report()
    return 0


if __name__ == "__main__":
    sys.exit(main())
