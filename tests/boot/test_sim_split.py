# SPDX-License-Identifier: GPL-2.0-or-later
"""A one-setting `kfront run` whose benchmarks are dealt over two boots
gives the one-boot run's figures (each benchmark point starts from empty
simulated caches: tools/kfront/benchsplit.py, docs/fesim.md, "Parallel
boots"). It starts two QEMUs at once, so `kfront test` runs it alone
(tools/kfront/testpar.py, EXCLUSIVE): beside another worker's boot it
would take three cores' worth of QEMU on a 2-core machine, and the
TSC-calibration test measures time."""
from __future__ import annotations

import json
import tempfile
import unittest
from pathlib import Path

from kfront import build, cli, paths

PLUGIN = paths.BUILD / 'tools' / 'fesim' / 'libfesim.so'


def setUpModule() -> None:
    if not build.build():
        raise RuntimeError('build failed')
    if not PLUGIN.exists():
        raise unittest.SkipTest('the fesim plugin is not built (QEMU version?)')


class SplitRun(unittest.TestCase):
    """`kfront run` with one setting: two boots (net.udp_rr; sched.ctxsw)
    against one. In the one boot sched.ctxsw runs after net.udp_rr, in the
    split alone: the same figures because every benchmark point starts
    from empty simulated caches, the JCC-erratum window set emptied too.
    `@random` is the strictest setting: its stream must be reseeded at the
    point's start, and any difference in what reaches the caches before a
    measured region (the calibration's sort of TSC samples, without the
    harness's second flush) draws other victims from there on
    (docs/fesim.md, "Markers")."""

    ARGS = ['run', '--quick', '--no-host', '--sim', 'skylake@random', '--bench',
            'net.udp_rr,sched.ctxsw', '--variants', 'O2,Os']

    @classmethod
    def setUpClass(cls) -> None:
        cls._tmp = tempfile.TemporaryDirectory(prefix='kfront-split-')
        cls.out = {}
        for jobs in ('1', '2'):
            out = Path(cls._tmp.name) / f'jobs{jobs}'
            rc = cli.main(cls.ARGS[:1] + ['--out', str(out), '--sim-jobs', jobs] +
                          cls.ARGS[1:] + ['--', 'runs=2'])
            assert rc == 0, (jobs, rc)
            cls.out[jobs] = json.loads((out / 'results.json').read_text())
        cls.fesim = Path(cls._tmp.name) / 'jobs2' / 'fesim.jsonl'

    @classmethod
    def tearDownClass(cls) -> None:
        cls._tmp.cleanup()

    def test_each_boot_reports_its_own_times(self) -> None:
        """extra.qemu: the run's wall time is its last boot's, its CPU
        time all boots' (read from wait4 as each QEMU is reaped)."""
        for jobs, n in (('1', 1), ('2', 2)):
            q = self.out[jobs]['extra']['qemu']
            self.assertEqual(len(q['boots']), n)
            for boot in q['boots']:
                self.assertGreater(boot['cpu_s'], 0.5)
                self.assertGreater(boot['elapsed_s'], 0.5)
            self.assertEqual(q['elapsed_s'], max(b['elapsed_s'] for b in q['boots']))
            self.assertAlmostEqual(q['cpu_s'], sum(b['cpu_s'] for b in q['boots']), delta=0.15)

    def test_the_split_changes_no_figure(self) -> None:
        one, two = self.out['1'], self.out['2']
        self.assertEqual([b['bench'] for b in two['extra']['sim']['bench_boots']],
                         [['net.udp_rr'], ['sched.ctxsw']])
        self.assertNotIn('bench_boots', one['extra']['sim'])
        self.assertEqual(one['cmdline'], two['cmdline'])
        self.assertTrue(two['complete'])
        keys = [(e['bench'], e['variant'], e.get('footprint')) for e in one['results']]
        self.assertEqual(keys, [(e['bench'], e['variant'], e.get('footprint'))
                                for e in two['results']])
        def samples(data: dict) -> dict:
            return {(e['bench'], e['variant'], e.get('footprint'), name): c['samples']
                    for e in data['results'] for name, c in e['counters'].items()
                    if name.startswith('sim.')}
        sim_one, sim_two = samples(one), samples(two)
        self.assertTrue(any(k[0] == 'sched.ctxsw' for k in sim_one))
        self.assertEqual(sim_one, sim_two)
        head = json.loads(self.fesim.read_text().splitlines()[0])
        self.assertEqual(head['regions'], one['extra']['sim']['regions'])
        # two per point (before its calibration, after its statistics):
        # net.udp_rr @0, @64, sched.ctxsw
        self.assertEqual(head['flushes'], 6)


if __name__ == '__main__':
    unittest.main()
