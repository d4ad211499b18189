# SPDX-License-Identifier: GPL-2.0-or-later
"""tools/probes/rule_misses.py: a counter summed over a group of
functions from the simulator's full per-function rows, per counted run."""
from __future__ import annotations

import contextlib
import importlib.util
import io
import tempfile
import unittest
from pathlib import Path

from kfront import sim

ROOT = Path(__file__).resolve().parents[2]
spec = importlib.util.spec_from_file_location(
    'rule_misses', ROOT / 'tools' / 'probes' / 'rule_misses.py')
rule_misses = importlib.util.module_from_spec(spec)
spec.loader.exec_module(rule_misses)


def output() -> sim.SimOutput:
    out = sim.SimOutput(models=['skylake', 'skylake@noprefetch'])
    out.func_columns = ["func", "insns", "skylake.l1i_misses", "skylake@noprefetch.l1i_misses"]
    out.funcs = {1: ('nf_rule_0000', 0x1000), 2: ('nf_rule_0001', 0x1100), 3: ('ip_rcv', 0x2000)}
    out.regions = {6: {'funcs': []},    # the calibration: nothing to subtract
                   7: {'funcs': [[1, 50, 2, 9], [2, 40, 1, 8], [3, 30, 5, 6]]},
                   8: {'funcs': [[1, 50, 4, 9], [3, 30, 1, 6]]}}
    return out


class RuleMisses(unittest.TestCase):
    def test_the_group_and_all_per_run(self) -> None:
        rows = rule_misses.sums(output(), [{'bench': 'net.tcp_rr', 'footprint': 128,
                                            'variant': 'O2', 'regions': [7, 8],
                                            'calib_region': 6, 'calib_regions': 1},
                                           {'t': 'no regions'}], 'nf_rule_', 'l1i_misses')
        self.assertEqual(rows, [{'bench': 'net.tcp_rr', 'footprint': 128, 'variant': 'O2',
                                 'runs': 2,
                                 'skylake': {'group': 3.5, 'all': 6.5},
                                 'skylake@noprefetch': {'group': 13.0, 'all': 19.0}}])

    def test_a_column_of_every_setting(self) -> None:
        rows = rule_misses.sums(output(), [{'bench': 'b', 'footprint': None, 'variant': 'v',
                                            'regions': [7, 8], 'calib_region': 6,
                                            'calib_regions': 1}], 'nf_rule_', 'insns')
        self.assertEqual(rows[0]['every setting'], {'group': 70.0, 'all': 100.0})

    def test_refusals(self) -> None:
        with self.assertRaisesRegex(sim.SimError, 'region 9 is not in the simulator output'):
            rule_misses.sums(output(), [{'bench': 'b', 'variant': 'v', 'regions': [7, 9],
                                         'calib_region': 6, 'calib_regions': 1}],
                             'nf_rule_', 'l1i_misses')
        with self.assertRaisesRegex(sim.SimError, 'no per-function uop_misses column'):
            rule_misses.sums(output(), [], 'nf_rule_', 'uop_misses')
        err = io.StringIO()
        with tempfile.TemporaryDirectory() as tmp, contextlib.redirect_stderr(err):
            self.assertEqual(rule_misses.main([tmp]), 2)
        self.assertIn('rule_misses: ', err.getvalue())


if __name__ == '__main__':
    unittest.main()
