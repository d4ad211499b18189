# SPDX-License-Identifier: GPL-2.0-or-later
"""The kernel under the fesim plugin: every result gets sim.* figures,
and two identical boots give identical figures (issue 6)."""
from __future__ import annotations

import tempfile
import unittest
from pathlib import Path

from kfront import build, collect, paths, qemu, results, sim

PLUGIN = paths.BUILD / 'tools' / 'fesim' / 'libfesim.so'
ARGS = ['bench=calib.memcpy20,calib.unlikely,sched.ctxsw', 'quick', 'runs=3', 'warmup=1']


def setUpModule() -> None:
    if not build.build():
        raise RuntimeError('build failed')
    if not PLUGIN.exists():
        raise unittest.SkipTest('the fesim plugin is not built (QEMU version?)')


def sim_boot(tmp: Path, tag: str) -> dict:
    out = tmp / f'{tag}.jsonl'
    cfg = qemu.BootConfig(iso=paths.iso_path(), timeout=300, kernel_args=ARGS)
    cfg.extra_qemu_args += sim.plugin_args(PLUGIN, ['skylake', 'zen4'], out)
    res = qemu.boot(cfg, log=tmp / f'{tag}.log')
    assert res.status == 0, res.text[-2000:]
    col = collect.collect_file(tmp / f'{tag}.log')
    run = col.runs[-1]
    merged = sim.merge_into_run(run, sim.load(out))
    assert merged == len(run.of_type('result')), (merged, len(run.of_type('result')))
    return results.build_results(run)


def sim_samples(data: dict) -> dict:
    return {(e['bench'], e['variant'], name): c['samples']
            for e in data['results'] for name, c in e['counters'].items()
            if name.startswith('sim.')}


class Simulator(unittest.TestCase):
    def test_deterministic_and_complete(self) -> None:
        with tempfile.TemporaryDirectory(prefix='kfront-sim-') as tmp:
            a = sim_boot(Path(tmp), 'a')
            b = sim_boot(Path(tmp), 'b')
        sa, sb = sim_samples(a), sim_samples(b)
        self.assertTrue(sa)
        self.assertEqual(sa, sb)
        for e in a['results']:
            for name in ('sim.instructions', 'sim.skylake.l1i_misses',
                         'sim.zen4.l1i_misses', 'sim.skylake.uop_misses',
                         'sim.skylake.itlb_misses', 'sim.footprint_bytes'):
                self.assertIn(name, e['counters'], (e['bench'], e['variant']))
            insns = e['counters']['sim.instructions']['per_op']['median']
            self.assertGreater(insns, 1, (e['bench'], e['variant']))


if __name__ == '__main__':
    unittest.main()
