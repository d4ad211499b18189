# SPDX-License-Identifier: GPL-2.0-or-later
"""`./kfront run` under QEMU TCG tells the truth (issue 20 items 1-3): one
short run with the defaults it would use for a new user (simulator on, host
harness on, the quick footprint sweep), and every assertion on that run."""

import contextlib
import io
import json
import tempfile
import unittest
from pathlib import Path

from kfront import cli, paths, truth, uopshare

PLUGIN = paths.BUILD / 'tools' / 'fesim' / 'libfesim.so'
# One swept workload, two variants, three runs: the shortest run that still
# has a sweep, a baseline and intervals.
ARGS = ['run', '--quick', '--bench', 'net.udp_rr', '--variants', 'O2,Os',
        '--', 'runs=3', 'warmup=0']


class TruthRun(unittest.TestCase):
    @classmethod
    def setUpClass(cls) -> None:
        cls._tmp = tempfile.TemporaryDirectory(prefix='kfront-truth-')
        cls.out = Path(cls._tmp.name) / 'run'
        cls.rc = cli.main(ARGS[:1] + ['--out', str(cls.out)] + ARGS[1:])
        if cls.rc == 0:
            cls.doc = json.loads((cls.out / 'results.json').read_text())
            cls.md = (cls.out / 'report.md').read_text()

    @classmethod
    def tearDownClass(cls) -> None:
        cls._tmp.cleanup()

    def setUp(self) -> None:
        self.assertEqual(self.rc, 0)

    def test_truth_key_and_line(self) -> None:
        t = self.doc['truth']
        self.assertFalse(t['pmu'])
        self.assertEqual(t['environment'], 'QEMU TCG')
        want = truth.sim_model_for(truth.read_host_cpu()).model if PLUGIN.exists() else None
        if want:
            self.assertEqual(t['sim_models'], [want])
            self.assertEqual(t['sources'], ['sim', 'host', 'emulator'])
        self.assertTrue(self.md.splitlines()[2].startswith('Truth: no PMU in ring 0 (QEMU TCG)'))

    def test_quick_default_sweeps(self) -> None:
        fps = sorted({e['footprint'] for e in self.doc['results']})
        self.assertEqual(fps, [0, 64])
        host_fps = sorted({e['footprint'] for e in self.doc['host']['results']})
        self.assertEqual(host_fps, [0, 64])
        self.assertEqual(self.doc['host']['context'], 'user')

    def test_two_timing_processes_by_default(self) -> None:
        """The host harness runs twice (--host-repeat 2): the second
        process's log and results beside the first's, and the block that
        says which verdicts repeat, with each process's geometric mean."""
        block = self.doc['host']['extra']['host_repeats']
        self.assertEqual((block['processes'], block['baseline']), (2, 'O2'))
        self.assertEqual({(r['bench'], r['footprint']) for r in block['rows']},
                         {('net.udp_rr', 0), ('net.udp_rr', 64)})
        self.assertEqual(len(block['geomeans']['Os']), 2)
        for name in ('host.log', 'host-2.log', 'results-2.json'):
            self.assertTrue((self.out / 'host' / name).is_file(), name)
        self.assertIn('## Real-CPU verdicts over timing processes', self.md)

    def test_primary_verdict_emulator(self) -> None:
        self.assertIn('## Simulated counts | real-CPU time, per workload', self.md)
        self.assertIn('Verdict (lower is better; baseline O2)', self.md)
        self.assertIn('Real CPU (host harness, user space, TSC)', self.md)
        self.assertIn('## Emulator time: ring-0 TSC ticks under QEMU TCG', self.md)
        self.assertNotIn('## TSC ticks (reference clock, not core cycles) per operation',
                         self.md)
        if PLUGIN.exists():
            self.assertIn('Simulated front end (', self.md)
            self.assertRegex(self.md, r'net\.udp_rr @64: (Os|O2) took [\d.]+ (± <?[\d.]+|\[[\d.]+, [\d.]+\]|\(every run the same\)) '
                             r'times fewer simulated L1 I-cache misses')

    def test_uop_cache_share(self) -> None:
        """The simulator's uops by source reach results.json under the PMU's
        names, and report.md gives each point's share from them."""
        if not PLUGIN.exists():
            self.skipTest('no fesim plugin built')
        model = self.doc['truth']['sim_models'][0]
        e = next(e for e in self.doc['results']
                 if e['variant'] == 'O2' and e['footprint'] == 0)
        dsb = e['counters'][f'sim.{model}.uops_dsb']['per_op']['median']
        mite = e['counters'][f'sim.{model}.uops_mite']['per_op']['median']
        self.assertGreater(dsb, 0)
        self.assertIn('## Uop-cache share of delivered uops', self.md)
        self.assertIn(f'| net.udp_rr @0 | {uopshare.percent(dsb / (dsb + mite))} |', self.md)
        self.assertIn(f'{model}, simulated: uops_dsb / (uops_dsb + uops_mite)', self.md)


if __name__ == '__main__':
    unittest.main()


class RefusedCommandLine(unittest.TestCase):
    def test_exits_2_without_a_salvage_hint(self) -> None:
        # runs=0 passes the host's checks (only the kernel knows each key's
        # range); the kernel refuses it with status 2. Over two boots, as
        # by default, it used to end "sent no records" with collect
        # commands for logs that hold nothing, and exit 1.
        with tempfile.TemporaryDirectory(prefix='kfront-refused-') as tmp:
            err = io.StringIO()
            with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
                rc = cli.main(['run', '--quick', '--no-host', '--out', f'{tmp}/run',
                               '--bench', 'calib.empty,calib.calls', '--', 'runs=0'])
        self.assertEqual(rc, 2)
        self.assertIn('the kernel refused its command line', err.getvalue())
        self.assertNotIn('./kfront collect', err.getvalue())
