# SPDX-License-Identifier: GPL-2.0-or-later
"""Rankings across replacement-policy settings (tools/kfront/robustness.py)
on hand-made results.json data, the MODEL@POLICY syntax of --sim, and the
`kfront boot --sim` argument plumbing (no boot)."""
from __future__ import annotations

import argparse
import contextlib
import io
import tempfile
import unittest
from pathlib import Path
from unittest import mock
from typing import Any

from kfront import cmd_boot, cmd_run, kargs, robustness, sim


def entry(bench: str, variant: str, values: dict[str, float],
          footprint: int | None = None) -> dict[str, Any]:
    return {'bench': bench, 'variant': variant, 'group': None,
            'footprint': footprint, 'state': None,
            'counters': {n: {'per_op': {'median': v}}
                         for n, v in values.items()}}


def fixture() -> dict[str, Any]:
    """net.tcp_rr: L1i order O2 < Os under lru and random, Os < O2 under
    plru (not robust); uop misses agree everywhere (robust). sched.pipe at
    footprint 64: O2 ties Os under lru (0.5% apart), O2 < Os under plru
    (not robust). A counter with one setting only is no ranking."""
    L, U = 'l1i_misses', 'uop_misses'

    def c(setting: str, name: str) -> str:
        return f'sim.{setting}.{name}'
    results = [
        entry('net.tcp_rr', 'O2', {c('skylake', L): 10.0,
                                   c('skylake@plru', L): 30.0,
                                   c('skylake@random', L): 11.0,
                                   c('skylake', U): 5.0,
                                   c('skylake@plru', U): 6.0,
                                   c('zen4', L): 1.0}),
        entry('net.tcp_rr', 'Os', {c('skylake', L): 20.0,
                                   c('skylake@plru', L): 25.0,
                                   c('skylake@random', L): 21.0,
                                   c('skylake', U): 50.0,
                                   c('skylake@plru', U): 60.0,
                                   c('zen4', L): 2.0}),
        entry('sched.pipe', 'O2', {c('skylake', L): 100.0,
                                   c('skylake@plru', L): 50.0}, 64),
        entry('sched.pipe', 'Os', {c('skylake', L): 100.5,
                                   c('skylake@plru', L): 90.0}, 64),
    ]
    return {'results': results, 'extra': {}}


class Robustness(unittest.TestCase):
    def test_not_robust_triples(self) -> None:
        # one ranking for all of a model's settings: each setting's own
        # counter name is given, so no setting's verdict calls a winner
        self.assertEqual(robustness.not_robust(fixture()), {
            ('net.tcp_rr', 0, 'sim.skylake.l1i_misses'),
            ('net.tcp_rr', 0, 'sim.skylake@plru.l1i_misses'),
            ('net.tcp_rr', 0, 'sim.skylake@random.l1i_misses'),
            ('sched.pipe', 64, 'sim.skylake.l1i_misses'),
            ('sched.pipe', 64, 'sim.skylake@plru.l1i_misses')})

    def test_rows(self) -> None:
        rows = {(r['bench'], r['counter']): r
                for r in robustness.rows(fixture())}
        # zen4 ran under one setting only: no ranking to compare
        self.assertEqual(set(rows), {
            ('net.tcp_rr', 'sim.skylake.l1i_misses'),
            ('net.tcp_rr', 'sim.skylake.uop_misses'),
            ('sched.pipe', 'sim.skylake.l1i_misses')})
        tcp = rows[('net.tcp_rr', 'sim.skylake.l1i_misses')]
        self.assertEqual(tcp['settings'],
                         ['skylake', 'skylake@plru', 'skylake@random'])
        self.assertEqual(tcp['order']['skylake'], ['O2', 'Os'])
        self.assertEqual(tcp['order']['skylake@plru'], ['Os', 'O2'])
        self.assertEqual(tcp['flipped_pairs'], [['O2', 'Os']])
        self.assertTrue(rows[('net.tcp_rr', 'sim.skylake.uop_misses')]['robust'])
        # a tie is shown as one: the same order under both settings, and
        # yet the pair flips (a tie against an order)
        pipe = rows[('sched.pipe', 'sim.skylake.l1i_misses')]
        self.assertEqual(pipe['order'], {'skylake': ['O2', 'Os'], 'skylake@plru': ['O2', 'Os']})
        self.assertEqual(pipe['ranking'], {'skylake': 'O2 = Os', 'skylake@plru': 'O2 < Os'})
        self.assertEqual(tcp['ranking']['skylake@plru'], 'Os < O2')

    def test_ranking_text(self) -> None:
        self.assertEqual(robustness.ranking({'Os': 3.0, 'O2': 1.0, 'hybrid': 1.005}),
                         'O2 = hybrid < Os')
        self.assertEqual(robustness.ranking({'Os': 0.0, 'O2': 0.0}), 'O2 = Os')
        self.assertEqual(robustness.ranking({'O2': 2.0}), 'O2')

    def test_next_to_nothing_is_a_tie(self) -> None:
        # footprint 0 under random replacement: a line lost now and then
        # (0.002 to 0.0055 misses an operation) against none under LRU; the
        # verdict calls no winner on either, so their order flips nothing
        L = 'sim.zen4.l1i_misses'
        R = 'sim.zen4@random.l1i_misses'
        data = {'results': [
            entry('net.tcp_rr', 'O2', {L: 0.0, R: 0.0055}, 0),
            entry('net.tcp_rr', 'Os', {L: 0.0, R: 0.003}, 0),
            entry('net.tcp_rr', 'hybrid', {L: 0.0, R: 0.002}, 0)]}
        (row,) = robustness.rows(data)
        self.assertTrue(row['robust'], row)
        self.assertEqual(row['ranking'][R.split('.')[1]], 'hybrid = Os = O2')
        # one of them clear of it under another setting is an order: a flip
        data['results'][0]['counters'][R]['per_op']['median'] = 3.0
        (row,) = robustness.rows(data)
        self.assertFalse(row['robust'])
        self.assertEqual(row['flipped_pairs'], [['O2', 'Os'], ['O2', 'hybrid']])
        self.assertEqual(robustness.summary(data)['tie_below'], 0.01)

    def test_no_prefetch_setting(self) -> None:
        """@noprefetch joins the comparison of a model's settings; its
        l1i_prefetches (0 for every variant) are no ranking of their own:
        without that, every prefetch ranking would read as flipped."""
        def e(variant: str, misses: float, off_misses: float, prefetches: float) -> dict:
            return entry('net.tcp_rr', variant, {
                'sim.skylake.l1i_misses': misses,
                'sim.skylake@noprefetch.l1i_misses': off_misses,
                'sim.skylake.l1i_prefetches': prefetches,
                'sim.skylake@noprefetch.l1i_prefetches': 0.0}, 128)
        # docs/hybrid.md, 128 rules: clang-O2 < Os with the prefetch on,
        # Os < clang-O2 with it off
        data = {'results': [e('O2', 602.9, 2283.8, 1799.5), e('Os', 352.0, 1891.1, 1597.1),
                            e('clang-O2', 170.1, 2214.5, 2153.4)]}
        (row,) = robustness.rows(data)
        self.assertEqual(row['counter'], 'sim.skylake.l1i_misses')
        self.assertEqual(row['settings'], ['skylake', 'skylake@noprefetch'])
        self.assertEqual(row['flipped_pairs'], [['Os', 'clang-O2']])

    def test_uops_by_source_are_no_ranking(self) -> None:
        """uops_dsb and uops_mite are volumes whose order follows the uop
        misses': an order that flips there adds no row of its own."""
        data = fixture()
        for e, (lru, plru) in zip(data['results'][:2], ((90.0, 10.0), (80.0, 20.0))):
            e['counters']['sim.skylake.uops_dsb'] = {'per_op': {'median': lru}}
            e['counters']['sim.skylake@plru.uops_dsb'] = {'per_op': {'median': plru}}
        self.assertEqual(robustness.rows(data), robustness.rows(fixture()))

    def test_summary_is_what_not_robust_reads_back(self) -> None:
        data = fixture()
        summary = robustness.summary(data)
        self.assertEqual((summary['rankings'], summary['not_robust']), (3, 2))
        stored = {'results': [], 'extra': {'sim': {'robustness': summary}}}
        self.assertEqual(robustness.not_robust(stored),
                         robustness.not_robust(data))

    def test_no_sim_counters(self) -> None:
        self.assertEqual(robustness.not_robust({'results': []}), set())
        self.assertEqual(robustness.not_robust({}), set())


class PolicySyntax(unittest.TestCase):
    def test_valid(self) -> None:
        self.assertEqual(sim.parse_models('skylake,skylake@plru,zen4@random'),
                         ['skylake', 'skylake@plru', 'zen4@random'])
        self.assertEqual(sim.parse_models('skylake@noprefetch'), ['skylake@noprefetch'])

    def test_invalid_names_the_valid_ones(self) -> None:
        for bad in ('skylake@mru', 'p4@lru', 'skylake@', '@plru', ''):
            with self.subTest(value=bad):
                with self.assertRaises(sim.SimError) as cm:
                    sim.parse_models(bad)
                self.assertIn('lru, plru, random, noprefetch', str(cm.exception))
                self.assertIn('skylake', str(cm.exception))

    def test_duplicates_and_too_many(self) -> None:
        with self.assertRaisesRegex(sim.SimError, 'twice'):
            sim.parse_models('skylake,skylake')
        many = ','.join(f'{m}@{p}' for m in sim.KNOWN_MODELS
                        for p in sim.POLICIES) + ',skylake,zen4'
        with self.assertRaisesRegex(sim.SimError, 'at most'):
            sim.parse_models(many)

    def test_plugin_args(self) -> None:
        args = sim.plugin_args(Path('/p.so'), ['skylake', 'skylake@plru'],
                               Path('/o.jsonl'))
        self.assertEqual(args, ['-plugin',
                                '/p.so,model=skylake:skylake@plru,out=/o.jsonl'])
        args = sim.plugin_args(Path('/p.so'), ['zen4'], Path('/o.jsonl'),
                               Path('/s.syms'), skip_boot=True)
        self.assertEqual(args, ['-plugin', '/p.so,model=zen4,out=/o.jsonl,'
                                'syms=/s.syms,skip_boot=on'])

    def test_the_itlb_page_size_follows_textpages(self) -> None:
        """The plugin cannot see the guest's page tables: the kernel's
        textpages= sets its pages= (the last one given, as in the kernel)."""
        self.assertEqual(kargs.text_pages(['quick', 'runs=3']), '4k')
        self.assertEqual(kargs.text_pages(['textpages=2m', 'quick']), '2m')
        self.assertEqual(kargs.text_pages(['textpages=2m', 'textpages=4k']), '4k')
        args = sim.plugin_args(Path('/p.so'), ['zen4'], Path('/o.jsonl'),
                               pages=kargs.text_pages(['textpages=2m']))
        self.assertEqual(args, ['-plugin', '/p.so,model=zen4,out=/o.jsonl,pages=2m'])


def parse(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog='kfront')
    sub = parser.add_subparsers()
    for mod in (cmd_boot, cmd_run):
        mod.register(sub)
    return parser.parse_args(argv)


def run(argv: list[str]) -> tuple[int, str]:
    args = parse(argv)
    err = io.StringIO()
    with contextlib.redirect_stderr(err), \
            contextlib.redirect_stdout(io.StringIO()):
        status = args.func(args)
    return status, err.getvalue()


class BootSimArguments(unittest.TestCase):
    """Usage errors exit 2 before anything is built or booted."""

    def test_usage_errors(self) -> None:
        for argv, msg in (
                (['boot', '--sim', 'skylake@mru'], 'lru, plru, random'),
                (['boot', '--sim', 'p4'], 'models: skylake'),
                (['boot', '--sim-out', 'x.jsonl'], '--sim-out needs --sim'),
                (['boot', '--sim', 'skylake', '--accel', 'kvm'],
                 'needs --accel tcg'),
                (['run', '--sim', 'skylake', '--accel', 'kvm'],
                 'needs --accel tcg'),
                (['run', '--sim', 'skylake,skylake'], 'twice')):
            with self.subTest(argv=argv), mock.patch.object(
                    cmd_run.build, 'build', side_effect=AssertionError('built')), \
                    mock.patch.object(cmd_boot.build, 'build',
                                      side_effect=AssertionError('built')):
                status, err = run(argv)
                self.assertEqual(status, 2)
                self.assertIn(msg, err)

    def test_qemu_arguments(self) -> None:
        with tempfile.TemporaryDirectory() as tmp:
            out = Path(tmp) / 'f.jsonl'
            args = parse(['boot', '--sim', 'skylake,zen4@plru',
                          '--sim-out', str(out)])
            self.assertIsNone(cmd_boot.sim_problem(args))
            qargs, where = cmd_boot.sim_qemu_args(args)
            self.assertEqual(where, out)
            self.assertTrue(qargs[-1].endswith(
                f',model=skylake:zen4@plru,out={out.resolve()}'))
        self.assertEqual(cmd_boot.sim_qemu_args(parse(['boot'])), ([], None))

    def test_whole_boot_lines(self) -> None:
        data = sim.SimOutput(models=['skylake'], total={
            'insns': 1000, 'footprint_bytes': 64, 'models': {'skylake': {
                'l1i_misses': 3, 'l1i_prefetches': 4, 'uop_misses': 5,
                'itlb_l1_misses': 6, 'itlb_misses': 2}}})
        lines = sim.whole_boot_lines(data)
        self.assertIn('1000 instructions', lines[0])
        self.assertIn('NOT repeatable', lines[0])
        self.assertIn('l1i 3 misses 4 prefetches', lines[1])
        self.assertIn('6 L1 misses 2 walks', lines[1])


if __name__ == '__main__':
    unittest.main()
