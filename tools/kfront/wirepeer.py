# SPDX-License-Identifier: GPL-2.0-or-later
"""The host peer of the net.wire_* benchmarks.

kfront, booted with a NIC on QEMU's user-mode network, connects out to
10.0.2.2:PORT, which QEMU relays to 127.0.0.1:PORT on this machine, where
this peer listens. Each connection begins with one line naming its role:

``rr``
    TCP_RR: every byte received is answered at once with its complement.
``stream TOKEN SEED LEN``
    TCP_STREAM: the bytes are read, counted and checked against the
    pattern kfront sends (bench/workloads/net_common.c netbench_fill(LEN, SEED),
    repeated).
``sync TOKEN``
    For each line ``TOTAL`` the stream TOKEN's connection has read
    TOTAL bytes (or 5 s pass), the reply is ``COUNT BAD``: bytes read and
    how many differed from the pattern. A stream not yet announced is
    waited for up to 2 s, then answered ``0 0``.

Only 127.0.0.1 is ever bound.
"""
from __future__ import annotations

import socket
import threading
import time
from dataclasses import dataclass, field

SYNC_WAIT_S = 5.0
# how long a sync waits for its stream's connection to say its role: the
# two connections are served by separate threads, so the sync's first
# line can be read before the stream's hello (seen under load)
STREAM_WAIT_S = 2.0
LINE_MAX = 128
MASK64 = (1 << 64) - 1


def pattern(length: int, seed: int) -> bytes:
    """netbench_fill(): a 64-bit xorshift, one step per 8 bytes, its
    bytes little-endian."""
    x = (seed * 0x9e3779b97f4a7c15 + 0x632be59bd9b4e019) & MASK64
    out = bytearray()
    for _ in range((length + 7) // 8):
        x ^= (x << 13) & MASK64
        x ^= x >> 7
        x ^= (x << 17) & MASK64
        out += x.to_bytes(8, 'little')
    return bytes(out[:length])


@dataclass
class Stream:
    """What one stream connection has received so far."""
    ref: bytes
    count: int = 0
    bad: int = 0
    done: bool = False
    cond: threading.Condition = field(default_factory=threading.Condition)

    def take(self, data: bytes) -> None:
        n = len(self.ref)
        pos, bad = self.count, 0
        view = memoryview(data)
        while view:
            off = pos % n
            k = min(len(view), n - off)
            if view[:k] != self.ref[off:off + k]:
                bad += sum(1 for a, b in zip(view[:k], self.ref[off:off + k])
                           if a != b)
            view = view[k:]
            pos += k
        with self.cond:
            self.count = pos
            self.bad += bad
            self.cond.notify_all()


@dataclass
class Totals:
    connections: int = 0
    rr_transactions: int = 0
    stream_bytes: int = 0
    errors: list[str] = field(default_factory=list)


class WirePeer:
    """A threaded TCP server on 127.0.0.1; port 0 picks a free port."""

    def __init__(self, port: int = 0) -> None:
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.sock.bind(('127.0.0.1', port))
        self.sock.listen(16)
        self.port = self.sock.getsockname()[1]
        self.streams: dict[str, Stream] = {}
        self.lock = threading.Lock()
        self.stream_added = threading.Condition(self.lock)
        self.totals = Totals()
        self.stopping = False
        self.thread = threading.Thread(target=self._accept_loop, daemon=True)

    def start(self) -> 'WirePeer':
        self.thread.start()
        return self

    def __enter__(self) -> 'WirePeer':
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        self.stopping = True
        try:
            self.sock.close()
        except OSError:
            pass

    def _accept_loop(self) -> None:
        while not self.stopping:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            with self.lock:
                self.totals.connections += 1
            threading.Thread(target=self._serve, args=(conn,),
                             daemon=True).start()

    def _error(self, msg: str) -> None:
        with self.lock:
            self.totals.errors.append(msg)

    @staticmethod
    def _read_line(conn: socket.socket, rest: bytearray) -> str | None:
        while b'\n' not in rest:
            if len(rest) > LINE_MAX:
                return None
            data = conn.recv(LINE_MAX)
            if not data:
                return None
            rest += data
        line, _, tail = bytes(rest).partition(b'\n')
        rest[:] = tail
        return line.decode('ascii', 'replace').strip()

    def _serve(self, conn: socket.socket) -> None:
        rest = bytearray()
        try:
            with conn:
                hello = self._read_line(conn, rest)
                words = hello.split() if hello else []
                if words == ['rr']:
                    self._serve_rr(conn, bytes(rest))
                elif len(words) == 4 and words[0] == 'stream':
                    self._serve_stream(conn, words[1], int(words[2]),
                                       int(words[3]), bytes(rest))
                elif len(words) == 2 and words[0] == 'sync':
                    self._serve_sync(conn, words[1], rest)
                else:
                    self._error(f'bad role line {hello!r}')
        except (OSError, ValueError) as e:
            self._error(f'{type(e).__name__}: {e}')

    def _serve_rr(self, conn: socket.socket, first: bytes) -> None:
        data = first
        while True:
            if data:
                conn.sendall(bytes(b ^ 0xff for b in data))
                with self.lock:
                    self.totals.rr_transactions += len(data)
            data = conn.recv(4096)
            if not data:
                return

    def _serve_stream(self, conn: socket.socket, token: str, seed: int,
                      length: int, first: bytes) -> None:
        if not 0 < length <= 1 << 20:
            raise ValueError(f'stream length {length}')
        st = Stream(pattern(length, seed))
        with self.lock:
            self.streams[token] = st
            self.stream_added.notify_all()
        data = first
        while True:
            if data:
                st.take(data)
                with self.lock:
                    self.totals.stream_bytes += len(data)
            data = conn.recv(1 << 16)
            if not data:
                break
        with st.cond:
            st.done = True
            st.cond.notify_all()

    def _serve_sync(self, conn: socket.socket, token: str,
                    rest: bytearray) -> None:
        while True:
            line = self._read_line(conn, rest)
            if line is None:
                return
            total = int(line)
            with self.lock:
                self.stream_added.wait_for(lambda: token in self.streams,
                                           STREAM_WAIT_S)
                st = self.streams.get(token)
            if st is None:
                conn.sendall(b'0 0\n')
                continue
            end = time.monotonic() + SYNC_WAIT_S
            with st.cond:
                while st.count < total and not st.done:
                    left = end - time.monotonic()
                    if left <= 0:
                        break
                    st.cond.wait(left)
                reply = f'{st.count} {st.bad}\n'
            conn.sendall(reply.encode())

    def totals_dict(self) -> dict[str, object]:
        t = self.totals
        return {'port': self.port, 'connections': t.connections,
                'rr_transactions': t.rr_transactions,
                'stream_bytes': t.stream_bytes,
                'stream_bad_bytes': sum(st.bad for st in self.streams.values()),
                'errors': list(t.errors)}

    def summary(self) -> str:
        t = self.totals
        s = (f'wire peer: {t.connections} connections, '
             f'{t.rr_transactions} rr transactions, '
             f'{t.stream_bytes} stream bytes')
        bad = sum(st.bad for st in self.streams.values())
        if bad:
            s += f', {bad} stream bytes differed from the pattern'
        if t.errors:
            s += f'; errors: {"; ".join(t.errors[:3])}'
        return s
