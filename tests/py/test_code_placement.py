# SPDX-License-Identifier: GPL-2.0-or-later
"""tools/probes/code_placement.py: the between-copy over within-copy mean
square of a point's log time ratio, its relabelling p (copies shuffled
within each round, seeded), the summary by footprint over documents in
the order they ran, and its option errors."""
from __future__ import annotations

import dataclasses
import importlib.util
import math
import subprocess
import sys
import unittest
from pathlib import Path

from tests.py import FIXTURES
from kfront import collect, model, results

ROOT = Path(__file__).resolve().parents[2]
PROBE = ROOT / 'tools' / 'probes' / 'code_placement.py'

spec = importlib.util.spec_from_file_location('code_placement', PROBE)
code_placement = importlib.util.module_from_spec(spec)
spec.loader.exec_module(code_placement)


def process(os_factor: float) -> model.Results:
    """The clean fixture's run with Os's calib.calls time scaled."""
    run = collect.collect_file(FIXTURES / 'clean.log').runs[0]
    r = model.from_dict(results.build_results(run, {'context': 'user'}), 'clean')
    for e in r.results:
        if (e.bench, e.variant) == ('calib.calls', 'Os'):
            c = e.counters['tsc']
            c.per_op = dataclasses.replace(c.per_op, median=c.per_op.median * os_factor)
            c.samples = [x * os_factor for x in c.samples]
    return r


class FStatistic(unittest.TestCase):
    def test_known_values(self) -> None:
        # groups {0, 0.1} and {1, 1.1}: between = 2 * (0.5^2 * 2) / 1 = 1.0,
        # within = (4 * 0.05^2) / 2 = 0.005, F = 200
        self.assertAlmostEqual(code_placement.f_statistic([[0, 0.1], [1, 1.1]]), 200.0)
        self.assertIsNone(code_placement.f_statistic([[1, 1], [2, 2]]))

    def test_copies_that_differ_and_copies_that_do_not(self) -> None:
        # six copies, two rounds; each copy repeats its own value
        apart = [[0.0, 0.3, 0.1, 0.5, 0.2, 0.4], [0.01, 0.31, 0.11, 0.51, 0.21, 0.41]]
        f, p = code_placement.copy_effect(apart, seed=1)
        self.assertGreater(f, 1000)
        self.assertLess(p, 0.01)
        # the second round in another order: the copies explain nothing
        mixed = [[0.0, 0.3, 0.1, 0.5, 0.2, 0.4], [0.4, 0.2, 0.5, 0.0, 0.3, 0.1]]
        f, p = code_placement.copy_effect(mixed, seed=1)
        self.assertLess(f, 1)
        self.assertGreater(p, 0.3)
        self.assertEqual(code_placement.copy_effect(mixed, seed=1),
                         code_placement.copy_effect(mixed, seed=1))

    def test_analyse_in_the_order_the_processes_ran(self) -> None:
        # three copies, two rounds, run round by round: copy 2 is 20 %
        # slower for Os on calib.calls in both its rounds
        factors = [1.0, 1.2, 1.01, 1.005, 1.21, 1.0]
        a = code_placement.analyse([process(f) for f in factors], copies=3, rounds=2)
        top = a['pairs'][0]
        self.assertEqual((top['bench'], top['variant']), ('calib.calls', 'Os'))
        base = top['ratio_by_copy'][0][0]
        self.assertAlmostEqual(top['ratio_by_copy'][1][0] / base, 1.2, places=3)
        self.assertAlmostEqual(top['ratio_by_copy'][1][1] / base, 1.21, places=3)
        self.assertGreater(top['F'], 100)
        self.assertTrue(math.isfinite(top['p']))
        self.assertEqual(sum(f['pairs'] for f in a['by_footprint']), len(a['pairs']))

    def test_frames_line(self) -> None:
        same = {'runs': [[0x1000, 16], [0x2000, 4]], 'pages': 20}
        other = {'runs': [[0x3000, 16], [0x2000, 4]], 'pages': 20}
        seen = [{'copy': 1, 'round': 1, 'frames': same}, {'copy': 2, 'round': 1, 'frames': same},
                {'copy': 1, 'round': 2, 'frames': same}, {'copy': 2, 'round': 2, 'frames': other}]
        line = code_placement.frames_line(seen)
        self.assertIn('1: 0x1000, 2: 0x1000', line)
        self.assertIn('copies 2 moved between rounds', line)
        self.assertIn('every copy on the same frames',
                      code_placement.frames_line(seen[:3]))
        seen[0]['frames'] = {'unavailable': 'no frame numbers'}
        self.assertEqual(code_placement.frames_line(seen), 'frames: unavailable (no frame numbers)')

    def test_option_errors(self) -> None:
        res = subprocess.run([sys.executable, str(PROBE), '--copies', '1'],
                             capture_output=True, text=True)
        self.assertEqual(res.returncode, 2)
        self.assertIn('2 or more', res.stderr)


if __name__ == '__main__':
    unittest.main()
