# SPDX-License-Identifier: GPL-2.0-or-later
"""The net.wire_* benchmarks end to end: kfront boots with a real NIC on
QEMU's user network and every variant's stack talks TCP, through the port
switch, to the host peer (tools/kfront/wirepeer.py) on this machine's
loopback. The peer's own counts must match what the records say was
measured, byte for byte; the errors a user can make must be named."""
from __future__ import annotations

import json
import tempfile
import unittest
from pathlib import Path

from kfront import build, cli, paths, qemu
from kfront.wirepeer import WirePeer
from tests.boot.test_boot import records as all_records

BOOT_TIMEOUT = 240.0
STREAM_SEND = 16384             # bench/workloads/net_wire_stream.c WIRE_STREAM_SEND
GUEST = ['ip=10.0.2.15/24', 'gw=10.0.2.2']


def setUpModule() -> None:
    if not build.build():
        raise RuntimeError('build failed')


def boot(nic: str | None, *args: str) -> qemu.BootResult:
    cfg = qemu.BootConfig(iso=paths.iso_path(), timeout=BOOT_TIMEOUT,
                          kernel_args=list(args),
                          extra_qemu_args=qemu.nic_qemu_args(nic, []) if nic else [])
    return qemu.boot(cfg)


def records(res: qemu.BootResult, kind: str) -> list[dict]:
    return [r for r in all_records(res) if r.get('t') == kind]


class WireBench:
    """One quick boot per card running both wire benchmarks."""
    NIC = ''

    @classmethod
    def setUpClass(cls) -> None:
        with WirePeer() as peer:
            cls.peer_port = peer.port
            cls.res = boot(cls.NIC, 'bench=net.wire_*', 'quick', f'nic={cls.NIC}',
                           f'peer={qemu.GUEST_HOST_ADDR}:{peer.port}', *GUEST)
            cls.totals = peer.totals_dict()

    def test_clean_exit(self) -> None:
        self.assertFalse(self.res.timed_out, self.res.text[-3000:])
        self.assertEqual(self.res.status, 0, self.res.text[-3000:])
        self.assertEqual(records(self.res, 'error'), [])

    def test_every_variant_measured(self) -> None:
        begin = records(self.res, 'suite_begin')[0]
        self.assertIn(f'peer {qemu.GUEST_HOST_ADDR}:{self.peer_port}', begin['wire'])
        variants = begin['variants']
        results = records(self.res, 'result')
        seen = {(r['bench'], r['variant']) for r in results}
        want = {(b, v['name'] if isinstance(v, dict) else v) for v in variants
                for b in ('net.wire_rr', 'net.wire_stream')}
        self.assertEqual(seen, want)
        for r in results:
            self.assertEqual(r['wire'], begin['wire'])
            self.assertGreater(r['counters']['tsc']['median_per_op'], 0)

    def test_same_work_in_every_variant(self) -> None:
        """The digest sums what came back (RR) or what the peer
        acknowledged (stream): a variant that measured less, or other
        bytes, would differ. Per sweep point: each point runs its own
        number of operations (bench/harness/harness.c)."""
        for bench in ('net.wire_rr', 'net.wire_stream'):
            points = {r.get('footprint') for r in records(self.res, 'result')
                      if r['bench'] == bench}
            for fp in points:
                digests = {r['digest'] for r in records(self.res, 'result')
                           if r['bench'] == bench and r.get('footprint') == fp}
                self.assertEqual(len(digests), 1, f'{bench} @{fp}: {digests}')

    def test_peer_saw_what_was_measured(self) -> None:
        rr = stream = 0
        for r in records(self.res, 'result'):
            # Warm state: every counted run is preceded by an unmeasured
            # call of the same size (docs/measurement.md).
            calls_per_run = 2 if r.get('state') == 'warm' else 1
            reps = r['iters'] * (r['runs'] * calls_per_run + r['warmup'])
            if r['bench'] == 'net.wire_rr':
                rr += reps
            else:
                stream += reps * STREAM_SEND
        self.assertEqual(self.totals['errors'], [])
        self.assertEqual(self.totals['rr_transactions'], rr)
        self.assertEqual(self.totals['stream_bytes'], stream)
        self.assertEqual(self.totals['stream_bad_bytes'], 0)
        self.assertGreater(stream, 0)


class VirtioWire(WireBench, unittest.TestCase):
    NIC = 'virtio'


class E1000Wire(WireBench, unittest.TestCase):
    NIC = 'e1000'


class WireErrors(unittest.TestCase):
    """Each mistake gives a message that says what to do, and a non-zero
    exit; none of them hangs or panics."""

    def test_no_peer(self) -> None:
        """Named without peer=, a wire benchmark is a usage error before
        any run, not an error record per variant and point."""
        res = boot(None, 'bench=net.wire_rr', 'quick')
        self.assertEqual(res.status, 2, res.text[-2000:])
        self.assertIn('bench=net.wire_rr needs a wire: boot with a NIC and '
                      'peer=ADDR:PORT', res.text)
        self.assertFalse(records(res, 'result') or records(res, 'error'))

    def test_glob_skips_wire_without_peer(self) -> None:
        """bench=net.* means the loopback workloads when there is no wire."""
        res = boot(None, 'bench=net.udp_rr', 'quick')
        self.assertEqual(res.status, 0, res.text[-2000:])
        self.assertNotIn('wire', ' '.join(r['bench'] for r in records(res, 'result')))

    def test_bad_peer(self) -> None:
        res = boot('virtio', 'bench=net.wire_rr', 'peer=garbage', 'nic=virtio', *GUEST)
        self.assertEqual(res.status, 2, res.text[-2000:])
        self.assertIn('peer=garbage: want ADDR:PORT', res.text)

    def test_peer_without_nic(self) -> None:
        res = boot(None, 'bench=net.wire_rr', 'peer=10.0.2.2:5001', 'quick', *GUEST)
        self.assertEqual(res.status, 2, res.text[-2000:])
        self.assertRegex(res.text, r'kfront: error: .*(NIC|card)')

    def test_nobody_listening(self) -> None:
        with WirePeer() as peer:        # a port sure to be free: close it first
            port = peer.port
        res = boot('e1000', 'bench=net.wire_rr', 'quick', 'nic=e1000',
                   f'peer={qemu.GUEST_HOST_ADDR}:{port}', *GUEST)
        self.assertEqual(res.status, 3, res.text[-2000:])
        errors = records(res, 'error')
        self.assertTrue(errors)
        for e in errors:
            self.assertIn('refused', e['msg'])


class RunWire(unittest.TestCase):
    """./kfront run --wire: the peer is started for the user, and the
    results and report say which figures came over the wire."""

    def test_run_wire(self) -> None:
        with tempfile.TemporaryDirectory() as tmp:
            out = Path(tmp) / 'run'
            rc = cli.main(['run', '--quick', '--wire', 'virtio', '--bench', 'net.wire_rr',
                           '--out', str(out)])
            self.assertEqual(rc, 0)
            res = json.loads((out / 'results.json').read_text())
            self.assertIn('virtio', res['wire'])
            entries = res['results']
            self.assertTrue(entries)
            self.assertTrue(all(e['wire'] for e in entries))
            peer = res['extra']['wire_peer']
            self.assertEqual(peer['errors'], [])
            self.assertGreater(peer['rr_transactions'], 0)
            report = (out / 'report.md').read_text()
            self.assertRegex(report, r'net\.wire_rr( @\d+)? \[wire\]')
            self.assertIn('includes the emulated card', report)


if __name__ == '__main__':
    unittest.main()
