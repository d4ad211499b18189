# SPDX-License-Identifier: GPL-2.0-or-later
"""The wire benchmarks' host peer, driven over the loopback by a Python
client playing kfront's part (tools/kfront/wirepeer.py)."""
from __future__ import annotations

import socket
import time
import unittest

from kfront.wirepeer import Stream, WirePeer, pattern


def wait_for(cond, timeout: float = 5.0) -> bool:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if cond():
            return True
        time.sleep(0.01)
    return cond()


class Pattern(unittest.TestCase):
    def test_xorshift_steps(self) -> None:
        """First word by hand: x = seed * golden + offset, then one
        xorshift64 step (13, 7, 17), little-endian."""
        m = (1 << 64) - 1
        x = (5 * 0x9e3779b97f4a7c15 + 0x632be59bd9b4e019) & m
        x ^= (x << 13) & m
        x ^= x >> 7
        x ^= (x << 17) & m
        self.assertEqual(pattern(8, 5), x.to_bytes(8, 'little'))

    def test_lengths_and_seeds(self) -> None:
        self.assertEqual(len(pattern(13, 1)), 13)
        self.assertEqual(pattern(16, 1)[:13], pattern(13, 1))
        self.assertNotEqual(pattern(16, 1), pattern(16, 2))


class StreamCheck(unittest.TestCase):
    def test_counts_bad_bytes_across_the_wrap(self) -> None:
        ref = pattern(10, 3)
        st = Stream(ref)
        st.take(ref[:4])
        st.take(ref[4:] + ref[:3])              # wraps to the start
        data = bytearray(ref[3:] + ref)
        data[0] ^= 1                            # offset 3 of the pattern
        data[-1] ^= 0xff                        # offset 9
        st.take(bytes(data))
        self.assertEqual(st.count, 4 + 9 + 17)
        self.assertEqual(st.bad, 2)


class Protocol(unittest.TestCase):
    def setUp(self) -> None:
        self.peer = WirePeer().start()
        self.addCleanup(self.peer.close)

    def connect(self, hello: bytes) -> socket.socket:
        s = socket.create_connection(('127.0.0.1', self.peer.port), timeout=5)
        self.addCleanup(s.close)
        s.sendall(hello)
        return s

    def test_rr_answers_the_complement(self) -> None:
        s = self.connect(b'rr\n\x00')
        self.assertEqual(s.recv(1), b'\xff')
        for b in (0x5a, 0x01):
            s.sendall(bytes([b]))
            self.assertEqual(s.recv(1), bytes([b ^ 0xff]))
        s.close()
        self.assertTrue(wait_for(lambda: self.peer.totals.rr_transactions == 3))

    def test_stream_and_sync(self) -> None:
        ref = pattern(1000, 7)
        st = self.connect(b'stream 40000 7 1000\n')
        sync = self.connect(b'sync 40000\n')
        st.sendall(ref * 3)
        sync.sendall(b'3000\n')
        self.assertEqual(sync.recv(64), b'3000 0\n')
        bad = bytearray(ref)
        bad[10] ^= 0x80
        st.sendall(bytes(bad))
        sync.sendall(b'4000\n')
        self.assertEqual(sync.recv(64), b'4000 1\n')
        totals = self.peer.totals_dict()
        self.assertEqual(totals['stream_bytes'], 4000)
        self.assertEqual(totals['stream_bad_bytes'], 1)
        self.assertEqual(totals['errors'], [])

    def test_sync_before_its_stream_says_its_role(self) -> None:
        # the peer serves each connection in its own thread: a sync line
        # read before the stream's hello waits for the stream (it once
        # answered "0 0" at once, under load)
        ref = pattern(1000, 7)
        sync = self.connect(b'sync 40001\n3000\n')
        time.sleep(0.2)
        st = self.connect(b'stream 40001 7 1000\n')
        st.sendall(ref * 3)
        self.assertEqual(sync.recv(64), b'3000 0\n')

    def test_sync_for_an_unknown_stream(self) -> None:
        sync = self.connect(b'sync 1234\n5\n')
        self.assertEqual(sync.recv(64), b'0 0\n')

    def test_bad_role_lines_are_errors(self) -> None:
        for hello in (b'hello\n', b'stream 1 2 0\n', b'stream 1 x 5\n'):
            s = self.connect(hello)
            s.settimeout(5)
            self.assertEqual(s.recv(16), b'')   # the peer hangs up
        self.assertTrue(wait_for(lambda: len(self.peer.totals.errors) == 3))
        self.assertIn("bad role line 'hello'", self.peer.totals.errors[0])
        self.assertIn('3 connections', self.peer.summary())


if __name__ == '__main__':
    unittest.main()
