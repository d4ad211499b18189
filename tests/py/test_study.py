# SPDX-License-Identifier: GPL-2.0-or-later
"""The findings document (tools/kfront/study.py) from fixed inputs: the same
results give the same text, the table has one row per workload with the
real-CPU ratio and its interval, the crossover is the first sweep point
where Os misses clearly less, and the patterns of the explaining functions
are grouped by which variant has more of them."""
from __future__ import annotations

import unittest

from kfront import explain, study


def counters(per_op: dict[str, float], ratio: dict | None = None) -> dict:
    out = {name: {'per_op': {'median': v}, 'per_run': {'median': v * 10}}
           for name, v in per_op.items()}
    if ratio is not None:
        out.setdefault('tsc', {'per_op': {'median': 1.0}})['ratio'] = ratio
    return out


def sim_entry(bench: str, variant: str, fp: int, insns: float, l1i: float) -> dict:
    return {'bench': bench, 'variant': variant, 'footprint': fp,
            'counters': counters({'sim.instructions': insns,
                                  'sim.skylake.l1i_misses': l1i}),
            'sim_functions': {'per': 'run', 'columns': ['instructions'],
                              'top': [{'function': 'hot', 'addr': '0x10',
                                       'instructions': insns * 10}],
                              'other': {'functions': 0, 'instructions': 0}}}


SIM = {'git': 'abc', 'results': [
    sim_entry('net.x', 'O2', 0, 100, 0.0), sim_entry('net.x', 'Os', 0, 120, 0.0),
    sim_entry('net.x', 'O2', 64, 100, 2.0), sim_entry('net.x', 'Os', 64, 120, 1.0),
    sim_entry('calib.empty', 'O2', 0, 1, 0.0)]}
HOST = {'git': 'abc', 'machine': {'brand': 'Test CPU', 'vendor': 'AuthenticAMD',
                                  'family': 25, 'model': 17, 'pmu': {'available': False,
                                                                     'reason': 'none here'}},
        'results': [
            {'bench': 'net.x', 'variant': 'O2', 'footprint': 0,
             'counters': counters({'tsc': 10.0, 'vg.instructions': 100})},
            {'bench': 'net.x', 'variant': 'Os', 'footprint': 0,
             'counters': counters({'tsc': 7.0, 'vg.instructions': 135},
                                  {'value': 0.7, 'lo': 0.66, 'hi': 0.72,
                                   'significant': True})}]}


class Render(unittest.TestCase):
    def render(self) -> str:
        return study.render(study.Inputs(sim=SIM, host=HOST, commands=['./kfront study']))

    def test_deterministic(self) -> None:
        self.assertEqual(self.render(), self.render())

    def test_table_and_sections(self) -> None:
        text = self.render()
        self.assertIn('| net.x | 0.70 [0.66, 0.72] * | 1.350 | 1.200 | 0.00 / 0.00 |', text)
        self.assertNotIn('calib.empty', text)
        self.assertIn('- CPU: Test CPU', text)
        self.assertIn('Fast string copies (CPUID): not recorded', text)
        self.assertIn('### net.x', text)
        self.assertIn('--counter sim.instructions --footprint 0', text)
        self.assertIn('What the simulator cannot see', text)

    def test_crossover(self) -> None:
        self.assertEqual(study.crossover(SIM, 'net.x', 'skylake'), '64 rules')
        self.assertEqual(study.crossover(SIM, 'net.x', 'zen4'), 'n/a')

    def test_chart(self) -> None:
        chart = study.ratio_chart(HOST)
        self.assertIn('net.x', chart)
        self.assertIsNone(study.ratio_chart(None))


class Summarise(unittest.TestCase):
    def test_groups(self) -> None:
        a = explain.FunctionDiff('recv', 0, 300, None, None, excerpt=[
            '41 instructions in O2, 30 in Os', 'rep movs: 0 in O2, 1 in Os; in Os:',
            '    40bbe0: rep movsb %ds:(%rsi),%es:(%rdi)'])
        b = explain.FunctionDiff('write', 5, 300, None, None, excerpt=[
            'rep movs: 0 in O2, 1 in Os; in Os:', 'call: 1 in O2, 0 in Os; in O2:'])
        c = explain.FunctionDiff('memcpy', 560, 0, None, None)
        self.assertEqual(study.summarise([a, b, c]), [
            'more `rep movs` in Os: recv, write',
            'more `call` in O2: write',
            'own code only in O2 (inlined or not called in the other): memcpy (560 per run)',
            'own code only in Os (inlined or not called in the other): recv (300 per run)'])


if __name__ == '__main__':
    unittest.main()
