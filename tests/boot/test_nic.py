# SPDX-License-Identifier: GPL-2.0-or-later
"""Interoperability tests: kfront's TCP/IP stack and NIC drivers against
peers nobody here wrote: QEMU user networking's TCP (slirp), which relays
to Linux's TCP on ports forwarded from this machine's loopback. Each driver boots once with serve=echo,discard,control;
the host checks every byte it gets back, then stops kfront through the
control port and checks its clean exit and its own summary."""
from __future__ import annotations

import re
import select
import shutil
import socket
import subprocess
import threading
import time
import unittest

from kfront import build, paths, qemu

HOST = '127.0.0.1'          # the only host address ever used
ECHO, DISCARD, CONTROL = 7, 9, 7777
BOOT_TIMEOUT = 120.0        # the whole boot, tests included
READY_TIMEOUT = 60.0
IO_TIMEOUT = 20.0


def setUpModule() -> None:
    if not build.build():
        raise RuntimeError('build failed')


def free_port() -> int:
    """A port free for both TCP and UDP on the loopback."""
    for _ in range(50):
        with socket.socket() as t, socket.socket(type=socket.SOCK_DGRAM) as u:
            t.bind((HOST, 0))
            port = t.getsockname()[1]
            try:
                u.bind((HOST, port))
            except OSError:
                continue
            return port
    raise RuntimeError('no free loopback port')


def stall_max() -> int:
    """How much a peer that never reads can push before every window is
    shut: QEMU's own host socket autotunes up to tcp_rmem's maximum, and
    the peer's send buffer up to tcp_wmem's. Twice that, with a margin."""
    total = 0
    for name in ('tcp_rmem', 'tcp_wmem'):
        try:
            with open(f'/proc/sys/net/ipv4/{name}') as f:
                total += int(f.read().split()[2])
        except (OSError, ValueError, IndexError):
            total += 16 << 20
    return 2 * total + (8 << 20)


def pattern(size: int, seed: int = 0) -> bytes:
    """Bytes that differ at every offset, so a shift or a swap shows."""
    block = bytes((i * 131 + (i >> 8) + seed) & 0xff for i in range(65536 + 256))
    reps = size // 65536 + 1
    return b''.join(block[(k * 7) & 0xff:(k * 7 & 0xff) + 65536] for k in range(reps))[:size]


class Kfront:
    """kfront booted in the background with one NIC and the services."""

    def __init__(self, nic: str) -> None:
        self.nic = nic
        self.tcp = free_port()          # -> guest 7 (tcp and udp)
        self.discard = free_port()      # -> guest 9
        self.control = free_port()      # udp -> guest 7777
        forwards = [qemu.Forward('tcp', self.tcp, ECHO), qemu.Forward('udp', self.tcp, ECHO),
                    qemu.Forward('tcp', self.discard, DISCARD),
                    qemu.Forward('udp', self.control, CONTROL)]
        self.cfg = qemu.BootConfig(
            iso=paths.iso_path(), timeout=BOOT_TIMEOUT,
            kernel_args=['serve=echo,discard,control', 'ip=10.0.2.15/24', 'gw=10.0.2.2',
                         f'nic={nic}'],
            extra_qemu_args=qemu.nic_qemu_args(nic, forwards))
        self.ready = threading.Event()
        self.out = bytearray()
        self.result: qemu.BootResult | None = None
        self.thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        def seen(chunk: bytes) -> None:
            self.out += chunk
            if b'netserve: ready' in self.out:
                self.ready.set()
        try:
            self.result = qemu.boot(self.cfg, on_output=seen)
        finally:
            self.ready.set()

    def start(self) -> None:
        self.thread.start()
        if not self.ready.wait(READY_TIMEOUT) or self.result is not None:
            raise RuntimeError('kfront never served:\n' + self.out.decode(errors='replace')[-3000:])

    def control_cmd(self, cmd: str) -> str:
        with socket.socket(type=socket.SOCK_DGRAM) as s:
            s.settimeout(2.0)
            for _ in range(5):          # UDP: ask again if lost
                s.sendto(cmd.encode(), (HOST, self.control))
                try:
                    return s.recv(2048).decode()
                except socket.timeout:
                    continue
        raise TimeoutError(f'no answer to {cmd!r}')

    def stats(self) -> dict[str, int]:
        words = self.control_cmd('stats').split()
        return {k: int(v) for k, v in zip(words[0::2], words[1::2]) if v.isdigit()}

    def stop(self) -> qemu.BootResult:
        try:
            self.control_cmd('stop')
        finally:
            self.thread.join(BOOT_TIMEOUT)
        assert self.result is not None
        return self.result

    def text(self) -> str:
        return self.out.decode(errors='replace')


def echo_transfer(port: int, data: bytes, half_close: bool = True) -> bytes:
    """Sends data while reading the echo (a writer thread: neither side
    may block the other), then half-closes and reads to EOF."""
    with socket.create_connection((HOST, port), timeout=IO_TIMEOUT) as s:
        err: list[BaseException] = []

        def writer() -> None:
            try:
                s.sendall(data)
                if half_close:
                    s.shutdown(socket.SHUT_WR)
            except BaseException as e:  # reported by the reader
                err.append(e)
        w = threading.Thread(target=writer)
        w.start()
        got = bytearray()
        while len(got) < len(data) or half_close:
            chunk = s.recv(1 << 20)
            if not chunk:
                break
            got += chunk
        w.join()
        if err:
            raise err[0]
        return bytes(got)


class NicInterop:
    """The tests, run once per NIC by the subclasses below."""
    NIC = ''
    kf: Kfront

    @classmethod
    def setUpClass(cls) -> None:
        cls.kf = Kfront(cls.NIC)
        cls.kf.start()
        cls.moved = 0

    @classmethod
    def tearDownClass(cls) -> None:
        res = cls.kf.stop()
        text = cls.kf.text()
        summary = re.search(r'netserve: summary: tcp (\d+) connections.*?(\d+) bytes in, '
                            r'(\d+) out', text)
        dev = re.search(r'netserve: (\S+): rx .*', text)
        print(f'\n  [{cls.NIC}] {summary.group(0) if summary else "no summary"}'
              f'\n  [{cls.NIC}] {dev.group(0) if dev else "no device line"}')
        if res.status != 0:
            raise AssertionError(f'{cls.NIC}: kfront exited {res.status}:\n{text[-3000:]}')

    def check_echo(self, size: int, seed: int = 0) -> None:
        data = pattern(size, seed)
        start = time.monotonic()
        got = echo_transfer(self.kf.tcp, data)
        took = time.monotonic() - start
        self.assertEqual(len(got), len(data), f'{size} B: length')
        if got != data:
            first = next(i for i, (a, b) in enumerate(zip(got, data)) if a != b)
            self.fail(f'{size} B: first wrong byte at offset {first}')
        if size >= 1 << 20:
            print(f'\n  [{self.NIC}] echo {size} B each way in {took:.2f} s '
                  f'({2 * size / took / 1e6:.1f} MB/s both directions)')

    def test_01_udp_echo(self) -> None:
        with socket.socket(type=socket.SOCK_DGRAM) as s:
            s.settimeout(2.0)
            for size in (1, 100, 1472):
                data = pattern(size, size)
                for _ in range(5):
                    s.sendto(data, (HOST, self.kf.tcp))
                    try:
                        got, _ = s.recvfrom(2048)
                        break
                    except socket.timeout:
                        continue
                else:
                    self.fail(f'no UDP echo of {size} B')
                self.assertEqual(got, data)

    def test_02_tcp_echo_sizes(self) -> None:
        for size in (1, 1024, 65536, 4 << 20):
            with self.subTest(size=size):
                self.check_echo(size, seed=size & 0xff)

    def test_03_sequential(self) -> None:
        for i in range(6):
            self.check_echo(1024 + i * 977, seed=i)

    def test_04_two_at_once(self) -> None:
        errors: list[BaseException] = []

        def one(seed: int) -> None:
            try:
                data = pattern(512 * 1024, seed)
                if echo_transfer(self.kf.tcp, data) != data:
                    raise AssertionError(f'connection {seed}: wrong echo')
            except BaseException as e:
                errors.append(e)
        threads = [threading.Thread(target=one, args=(s,)) for s in (1, 2)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        if errors:
            raise errors[0]

    def test_05_client_closes_first(self) -> None:
        with socket.create_connection((HOST, self.kf.tcp), timeout=IO_TIMEOUT) as s:
            s.sendall(b'ping')
            self.assertEqual(s.recv(16), b'ping')
        # Our FIN, then kfront's: the connection must leave its table.
        self.wait_idle()

    def test_06_kfront_closes_first(self) -> None:
        with socket.create_connection((HOST, self.kf.tcp), timeout=IO_TIMEOUT) as s:
            s.sendall(b'hello')
            self.assertEqual(s.recv(16), b'hello')
            self.kf.control_cmd('close')
            self.assertEqual(s.recv(16), b'', 'kfront did not close its side')
        self.wait_idle()

    def test_07_discard(self) -> None:
        data = pattern(256 * 1024, 9)
        with socket.create_connection((HOST, self.kf.discard), timeout=IO_TIMEOUT) as s:
            s.sendall(data)
            s.shutdown(socket.SHUT_WR)
            self.assertEqual(s.recv(16), b'')

    def test_08_netcat(self) -> None:
        nc = shutil.which('nc') or shutil.which('ncat')
        if not nc:
            self.skipTest('nc is not installed')
        data = pattern(100000, 3)
        res = subprocess.run([nc, '-N', HOST, str(self.kf.tcp)], input=data,
                             capture_output=True, timeout=IO_TIMEOUT)
        self.assertEqual(res.stdout, data)

    def test_09_robustness(self) -> None:
        # Connections opened and abandoned, with and without data.
        for i in range(4):
            s = socket.create_connection((HOST, self.kf.tcp), timeout=IO_TIMEOUT)
            if i % 2:
                s.sendall(pattern(10000, i))
            s.close()
        # A reset in the middle of a transfer (SO_LINGER 0 sends RST).
        s = socket.create_connection((HOST, self.kf.tcp), timeout=IO_TIMEOUT)
        s.sendall(pattern(200000, 5))
        s.recv(1000)
        s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, b'\x01\0\0\0\0\0\0\0')
        s.close()
        # A peer that stops reading: kfront's echo fills the windows and
        # waits on a zero window while it serves others; then the peer
        # reads again and gets every byte.
        self.check_stalled_peer()
        self.check_echo(4096, seed=12)
        self.wait_idle()

    def check_stalled_peer(self) -> None:
        limit = stall_max()
        stream = pattern(limit, 7)
        stuck = socket.socket()
        # Fixed buffers, set before connecting: no autotuning (up to
        # tcp_rmem's maximum, often 6 MiB or more), so the stall comes
        # soon, and large enough for a fast catch-up.
        stuck.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 65536)
        stuck.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 262144)
        stuck.settimeout(IO_TIMEOUT)
        stuck.connect((HOST, self.kf.tcp))
        stuck.setblocking(False)
        sent, stalled = 0, False
        start = time.monotonic()
        while sent < limit and not stalled:
            # Stalled: no room to send for a whole second.
            stalled = not select.select([], [stuck], [], 1.0)[1]
            if not stalled:
                sent += stuck.send(stream[sent:sent + 65536])
        self.assertTrue(stalled, f'{sent} B sent and never stalled')
        print(f'\n  [{self.NIC}] stalled peer: {sent} B in, windows shut after '
              f'{time.monotonic() - start - 1:.1f} s')
        self.check_echo(65536, seed=11)     # others are served meanwhile
        stuck.setblocking(True)
        stuck.settimeout(IO_TIMEOUT)
        got = bytearray()
        while len(got) < sent:
            chunk = stuck.recv(1 << 20)
            if not chunk:
                break
            got += chunk
        stuck.close()
        self.assertEqual(len(got), sent, 'stalled connection: length')
        self.assertTrue(bytes(got) == stream[:sent], 'stalled connection: wrong bytes')

    def wait_idle(self, timeout: float = 15.0) -> None:
        """Every connection kfront accepted is gone again."""
        deadline = time.monotonic() + timeout
        while True:
            st = self.kf.stats()
            if st['conns'] == 0:
                return
            if time.monotonic() > deadline:
                self.fail(f'connections left open: {st}')
            time.sleep(0.1)


class VirtioNet(NicInterop, unittest.TestCase):
    NIC = 'virtio'


class E1000(NicInterop, unittest.TestCase):
    NIC = 'e1000'
