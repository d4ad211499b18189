# SPDX-License-Identifier: GPL-2.0-or-later
"""Callgrind's per-function self cost per region (vg.parse) and the
vg_functions table built from it: cost lines under fn= count, the line
after calls= (the callee's inclusive cost) does not, compressed names
resolve, callgrind's recursion levels (f'2) are the same function, and
the functions of a region add up to its totals."""
from __future__ import annotations

import tempfile
import unittest
from pathlib import Path

from kfront import explain, vg

# Two parts as `valgrind --tool=callgrind --combine-dumps=yes --dump-instr=no
# --dump-line=no` writes them (host/vg.c dumps one part per region).
CALLGRIND = """\
version: 1
creator: callgrind-3.19.0
cmd: kfront-host-Os

part: 1
desc: Trigger: Client Request: kfront-region-0
positions: line
events: Ir Dr Dw I1mr
summary: 30 0 0 1

ob=(1) /build/host/kfront-host-Os
fl=(1) bench/workloads/calib.c
fn=(10) copy_hdr
100 7 0 0 1
fn=(11) memcpy_run
200 10
cfn=(10)
calls=1 100
* 7 0 0 1
+2 6
fn=(12) chat_receiver_fn'2
+1 7
totals: 30 0 0 1

part: 2
desc: Trigger: Client Request: kfront-region-1
positions: line
events: Ir Dr Dw I1mr
summary: 12

fn=(10)
100 5
fn=(12)
+1 4
fn=(13) chat_receiver_fn
+1 3
totals: 12
"""


class Parse(unittest.TestCase):
    def setUp(self) -> None:
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / 'callgrind.out'
            path.write_text(CALLGRIND)
            self.out = vg.parse(path)

    def test_self_cost_per_function(self) -> None:
        self.assertEqual(self.out.functions[0], {
            'copy_hdr': [7, 1], 'memcpy_run': [16, 0], 'chat_receiver_fn': [7, 0]})
        self.assertEqual(self.out.functions[1], {'copy_hdr': [5, 0],
                                                 'chat_receiver_fn': [7, 0]})

    def test_functions_add_up_to_the_region(self) -> None:
        for seq, region in self.out.regions.items():
            funcs = self.out.functions[seq]
            self.assertEqual(sum(c[0] for c in funcs.values()), region['Ir'])
            self.assertEqual(sum(c[1] for c in funcs.values()), region.get('I1mr', 0))

    def test_misses_of_the_measured_code(self) -> None:
        # region 1, the calibration region, ran copy_hdr and
        # chat_receiver_fn: the harness's bracketing code here. Region 0's
        # one I1 miss lies in copy_hdr, so the measured code missed none;
        # instructions keep the overhead rule (30 - 12)
        p = {'regions': [0], 'calib_region': 1, 'calib_regions': 1}
        self.assertEqual(self.out.regions[0]['I1mr'], 1)
        self.assertEqual(vg.series(self.out, p, 'I1mr'), [0])
        self.assertEqual(vg.series(self.out, p, 'Ir'), [18])
        # a miss outside the bracket counts
        self.out.functions[0]['memcpy_run'][1] = 2
        self.out.regions[0]['I1mr'] = 3
        self.assertEqual(vg.series(self.out, p, 'I1mr'), [2])

    def test_table_and_explain(self) -> None:
        # region 1 is the calibration region: its cost per function is
        # subtracted from the counted run's (region 0)
        p = {'regions': [0], 'calib_region': 1, 'calib_regions': 1}
        table = vg.function_table(self.out, p)
        self.assertEqual(table['columns'], ['instructions', 'i1_misses'])
        top = {r['function']: r['instructions'] for r in table['top']}
        self.assertEqual(top, {'memcpy_run': 16, 'copy_hdr': 2})
        self.assertEqual(table['other']['functions'], 0)
        data = {'results': [
            {'bench': 'calib.x', 'variant': 'O2', 'footprint': None, 'vg_functions': table},
            {'bench': 'calib.x', 'variant': 'Os', 'footprint': None, 'vg_functions': {
                'columns': table['columns'],
                'top': [{'function': 'copy_hdr', 'instructions': 9, 'i1_misses': 0}],
                'other': {'functions': 0, 'instructions': 0, 'i1_misses': 0}}}]}
        total, funcs = explain.differences(data, 'calib.x', ('O2', 'Os'), 'vg.instructions')
        self.assertEqual(total, 9 - 18)
        self.assertEqual([(f.name, f.diff) for f in funcs[:2]],
                         [('memcpy_run', -16), ('copy_hdr', 7)])
        with self.assertRaisesRegex(explain.ExplainError, 'kfront host --valgrind'):
            explain.differences({'results': [dict(data['results'][0], vg_functions=None),
                                             data['results'][1]]},
                                'calib.x', ('O2', 'Os'), 'vg.instructions')


if __name__ == '__main__':
    unittest.main()
