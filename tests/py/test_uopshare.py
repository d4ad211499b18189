# SPDX-License-Identifier: GPL-2.0-or-later
"""The uop cache's share of the delivered uops (tools/kfront/uopshare.py):
which sources a run has, each point's share from the two medians per
operation, and the terminal's summary per footprint."""
from __future__ import annotations

import unittest
from types import SimpleNamespace

from kfront import uopshare


def counter(median: float) -> SimpleNamespace:
    return SimpleNamespace(per_op=SimpleNamespace(median=median))


def result(bench, variant, footprint=None, state='warm', **medians) -> SimpleNamespace:
    return SimpleNamespace(bench=bench, variant=variant, footprint=footprint, state=state,
                           counters={k.replace('__', '.'): counter(v) for k, v in medians.items()})


def results(entries, variants=('O2', 'Os')) -> SimpleNamespace:
    names = {n for e in entries for n in e.counters}
    return SimpleNamespace(results=entries, variants=[{'name': v} for v in variants],
                           counter_names=lambda: names)


def sim(bench, variant, dsb, mite, footprint=None, state='warm') -> SimpleNamespace:
    return result(bench, variant, footprint, state,
                  sim__zen4__uops_dsb=dsb, sim__zen4__uops_mite=mite)


class Sources(unittest.TestCase):
    def test_pmu_first_then_each_model_with_both_counters(self) -> None:
        r = results([result('a', 'O2', uops_dsb=1, uops_mite=1,
                            sim__skylake__uops_dsb=1, sim__skylake__uops_mite=1,
                            sim__zen4__uops_dsb=1, sim__zen4__uops_mite=1,
                            sim__goldencove__uops_dsb=1)])
        self.assertEqual([s.what for s in uopshare.sources(r)],
                         ['PMU', 'skylake, simulated', 'zen4, simulated'])

    def test_none_without_both(self) -> None:
        self.assertEqual(uopshare.sources(results([result('a', 'O2', uops_dsb=1)])), [])


class Shares(unittest.TestCase):
    def test_share_of_the_medians(self) -> None:
        r = results([sim('net.udp_rr', 'O2', 99, 1, 0), sim('net.udp_rr', 'Os', 3, 1, 0),
                     sim('calib.empty', 'O2', 0, 0)])
        src = uopshare.sources(r)[0]
        got = uopshare.shares(r, src)
        self.assertEqual(got[('net.udp_rr', 0, 'warm')], {'O2': 0.99, 'Os': 0.75})
        # no uops counted: no share, not 0 % or 100 %
        self.assertNotIn(('calib.empty', None, 'warm'), got)
        headers, rows = uopshare.table(r, src)
        self.assertEqual(headers, ['benchmark', 'O2', 'Os'])
        self.assertEqual(rows, [['net.udp_rr @0', '99.0%', '75.0%']])

    def test_percent_never_rounds_to_a_bound(self) -> None:
        self.assertEqual(uopshare.percent(1.0), '100.0%')
        self.assertEqual(uopshare.percent(0.99996), '>99.9%')
        self.assertEqual(uopshare.percent(0.0), '0.0%')
        self.assertEqual(uopshare.percent(0.0004), '<0.1%')
        self.assertEqual(uopshare.percent(0.9549), '95.5%')

    def test_cold_points_are_labelled(self) -> None:
        self.assertEqual(uopshare.label(('sched.pipe', None, 'cold')), 'sched.pipe (cold)')
        self.assertEqual(uopshare.label(('net.tcp_rr', 64, 'warm')), 'net.tcp_rr @64')


class Summary(unittest.TestCase):
    def test_per_footprint_median_without_calibration_or_cold(self) -> None:
        r = results([
            sim('sched.pipe', 'O2', 9, 1), sim('sched.pipe', 'Os', 1, 1),
            sim('sched.chat', 'O2', 1, 1), sim('sched.chat', 'Os', 3, 1),
            sim('calib.calls', 'O2', 0, 1), sim('calib.calls', 'Os', 0, 1),
            sim('sched.ctxsw', 'O2', 0, 1, state='cold'),
            sim('net.udp_rr', 'O2', 1, 3, 64), sim('net.udp_rr', 'Os', 1, 1, 64),
            sim('net.udp_rr', 'O2', 3, 1, 0), sim('net.tcp_rr', 'O2', 1, 1, 0),
            sim('net.tcp_rr', 'Os', 1, 0, 0)])
        lines = uopshare.summary(r)
        self.assertTrue(lines[0].startswith('Uop-cache share of delivered uops (zen4, simulated: '))
        # unswept first, then footprints in order; the lower middle of two
        # points (kfront's median); a variant absent from a point is skipped
        self.assertEqual(lines[1:], [
            '  unswept workloads (2 points): O2 50.0%, Os 50.0%',
            '  footprint 0 (2 points): O2 50.0%, Os 100.0%',
            '  footprint 64 (1 point): O2 25.0%, Os 50.0%'])

    def test_nothing_without_a_source(self) -> None:
        self.assertEqual(uopshare.summary(results([result('a', 'O2', tsc=5)])), [])


if __name__ == '__main__':
    unittest.main()
