# SPDX-License-Identifier: GPL-2.0-or-later
"""The flag explorer's scores (tools/kfront/flags.py): each a geometric
mean over benchmarks of per-operation ratios to the O2 of the same boot,
footprint-0 points only; the L1i and uop-cache columns are the first
model's, and a benchmark where either side misses next to nothing is left
out of that mean and counted, not dropped in silence (nor does a candidate
that misses not at all vanish from the mean as a ratio of 0). The CPU
column is the host harness's real-CPU time, with a bootstrap interval;
time under TCG is labelled as the emulator's."""
from __future__ import annotations

import json
import unittest

from kfront import cmd_flags, flags

VARIANTS = [flags.vt.Variant('O2', 'gcc', ('-O2',), 'reference'),
            flags.vt.Variant('cand', 'gcc', ('-O2', '-fx'), 'a candidate')]


def entry(bench: str, variant: str, fp: int | None, **per_op: float) -> dict:
    counters = {name.replace('__', '.'): {'per_op': {'median': v}}
                for name, v in per_op.items()}
    return {'bench': bench, 'group': bench, 'variant': variant,
            'footprint': fp, 'counters': counters}


def sim(bench: str, variant: str, fp: int | None, insns: float, l1i: float,
        uop: float) -> dict:
    # zen4 sorts after skylake: the columns are skylake's
    return entry(bench, variant, fp, sim__instructions=insns,
                 sim__skylake__l1i_misses=l1i, sim__skylake__uop_misses=uop,
                 sim__zen4__l1i_misses=99.0, sim__zen4__uop_misses=99.0)


RESULTS = {'results': [
    sim('net.a', 'O2', 0, 100, 0.0, 10.0), sim('net.a', 'cand', 0, 110, 0.0, 20.0),
    sim('net.b', 'O2', 0, 100, 4.0, 40.0), sim('net.b', 'cand', 0, 100, 1.0, 10.0),
    # the candidate misses not at all where O2 does: no ratio, left out
    sim('net.c', 'O2', 0, 100, 0.005, 5.0), sim('net.c', 'cand', 0, 100, 0.0, 0.0),
    # a sweep point: not scored
    sim('net.a', 'O2', 64, 100, 50.0, 50.0), sim('net.a', 'cand', 64, 100, 1.0, 1.0),
    # unswept benchmark
    sim('sched.x', 'O2', None, 100, 0.0, 8.0), sim('sched.x', 'cand', None, 100, 0.0, 8.0),
]}
SIZES = [{'variant': 'O2', 'text': 1000}, {'variant': 'cand', 'text': 900}]


class Scores(unittest.TestCase):
    def setUp(self) -> None:
        scores = flags.score_batch(RESULTS, SIZES, VARIANTS)
        self.o2, self.cand = scores

    def test_ratios(self) -> None:
        self.assertAlmostEqual(self.cand.ratios['text'], 0.9)
        self.assertAlmostEqual(self.cand.ratios['sim.instructions'],
                               1.1 ** 0.25)
        # uop: net.a 2, net.b 0.25, sched.x 1 (net.c left out)
        self.assertAlmostEqual(self.cand.ratios['uop'], 0.5 ** (1 / 3))
        # L1i: only net.b has misses on both sides
        self.assertAlmostEqual(self.cand.ratios['l1i'], 0.25)
        self.assertIsNone(self.cand.ratios['tsc'])

    def test_left_out(self) -> None:
        self.assertEqual(self.cand.left_out, {'l1i': 3, 'uop': 1})
        self.assertEqual(self.o2.ratios['uop'], 1.0)

    def test_table(self) -> None:
        text = flags.ranked_table([self.o2, self.cand], 'uop', 'skylake')
        lines = text.splitlines()
        self.assertIn('sim uop miss/O2', lines[0])
        self.assertTrue(lines[2].split()[1] == 'cand', text)   # 0.794 < 1
        self.assertIn('L1i and uop-cache misses: the skylake model', text)
        self.assertIn('Benchmarks left out of the L1i means: O2 3, cand 3.', text)
        # O2 against itself at net.c: 5 misses both sides, kept
        self.assertIn('Benchmarks left out of the uop-cache means: cand 1.', text)

    def test_uop_share(self) -> None:
        """The first model's share of the uops, the median over the
        benchmarks that counted any: shown, not a ratio to O2."""
        def shared(bench: str, variant: str, dsb: float, mite: float) -> dict:
            e = sim(bench, variant, 0, 100, 0.0, 1.0)
            e['counters'].update({f'sim.skylake.{n}': {'per_op': {'median': v}}
                                  for n, v in (('uops_dsb', dsb), ('uops_mite', mite))})
            return e
        results = {'results': [shared('net.a', 'O2', 99, 1), shared('net.a', 'cand', 3, 1),
                               shared('net.b', 'O2', 1, 1), shared('net.b', 'cand', 1, 0),
                               shared('net.c', 'cand', 0, 0)]}
        o2, cand = flags.score_batch(results, SIZES, VARIANTS)
        self.assertAlmostEqual(o2.ratios['share'], 0.5)     # the lower middle
        self.assertAlmostEqual(cand.ratios['share'], 0.75)
        text = flags.ranked_table([o2, cand], 'uop', 'skylake')
        self.assertIn('sim uop share', text.splitlines()[0])
        self.assertIn(' 75.0% ', text)
        self.assertIn('sim uop share: the skylake model', text)
        self.assertIsNone(self.cand.ratios['share'])         # RESULTS has none

    def test_swept_footprint(self) -> None:
        """Above footprint 0 only the benchmarks swept there are scored."""
        o2, cand = flags.score_batch(RESULTS, SIZES, VARIANTS, footprint=64)
        self.assertEqual(cand.benches, 1)
        self.assertAlmostEqual(cand.ratios['l1i'], 1 / 50)
        self.assertAlmostEqual(cand.ratios['uop'], 1 / 50)
        text = flags.ranked_table([o2, cand], 'uop', 'skylake', footprint=64)
        self.assertIn('Scored at footprint 64 (64 packet-filter rules): only the benchmarks '
                      'swept there', text)
        self.assertIn('Scored at footprint 0: every benchmark',
                      flags.ranked_table([o2, cand], 'uop', 'skylake'))

    def test_no_model(self) -> None:
        """Without a simulated counter the miss columns are n/a."""
        o2, cand = flags.score_batch({'results': [
            entry('net.a', 'O2', 0, tsc=10.0), entry('net.a', 'cand', 0, tsc=9.0)]},
            SIZES, VARIANTS)
        self.assertAlmostEqual(cand.ratios['tsc'], 0.9)
        self.assertIsNone(cand.ratios['uop'])
        self.assertIsNone(cand.ratios['l1i'])


def timed(bench: str, variant: str, samples: list[float], fp: int | None = 0) -> dict:
    """A host-harness entry: TSC samples of runs of 100 operations."""
    return {'bench': bench, 'group': 0, 'variant': variant, 'footprint': fp, 'iters': 100,
            'counters': {'tsc': {'samples': samples}}}


HOST = {'machine': {'brand': 'AMD EPYC'}, 'results': [
    timed('net.a', 'O2', [1000.0, 1010.0, 990.0, 1005.0, 995.0, 1000.0, 1002.0]),
    timed('net.a', 'cand', [2000.0, 2060.0, 1940.0, 2030.0, 1970.0, 2000.0, 2010.0]),
    timed('net.b', 'O2', [500.0, 505.0, 495.0, 502.0, 498.0, 500.0, 501.0]),
    timed('net.b', 'cand', [500.0, 505.0, 495.0, 502.0, 498.0, 500.0, 501.0]),
    # a sweep point is not scored
    timed('net.a', 'O2', [10.0] * 7, fp=64), timed('net.a', 'cand', [90.0] * 7, fp=64),
]}


class CpuTime(unittest.TestCase):
    """The host harness's time, each variant to the O2 of the same run."""

    def setUp(self) -> None:
        self.o2, self.cand = flags.score_batch(RESULTS, SIZES, VARIANTS, HOST)

    def test_ratio_and_interval(self) -> None:
        # net.a 2, net.b 1: geometric mean sqrt(2)
        self.assertAlmostEqual(self.cand.ratios['cpu'], 2 ** 0.5)
        lo, hi = self.cand.intervals['cpu']
        self.assertTrue(lo < 2 ** 0.5 < hi, (lo, hi))
        self.assertLess(hi - lo, 0.05)
        self.assertEqual(self.o2.ratios['cpu'], 1.0)
        self.assertNotIn('cpu', self.o2.intervals)

    def test_without_host(self) -> None:
        _, cand = flags.score_batch(RESULTS, SIZES, VARIANTS)
        self.assertIsNone(cand.ratios['cpu'])
        text = flags.ranked_table([cand], 'uop', 'skylake')
        self.assertIn('CPU time: n/a, the host harness did not run', text)

    def test_table(self) -> None:
        text = flags.ranked_table([self.o2, self.cand], 'cpu', 'skylake', 'AMD EPYC')
        self.assertIn('TSC per operation at footprint 0,', text)
        self.assertAlmostEqual(flags.score_batch(RESULTS, SIZES, VARIANTS, HOST, 64)[1].ratios['cpu'],
                         9.0)
        lines = text.splitlines()
        self.assertIn('CPU time/O2', lines[0])
        self.assertIn('TCG TSC/O2', lines[0])
        self.assertEqual(lines[2].split()[1], 'O2', text)     # 1 < 1.414
        lo, hi = self.cand.intervals['cpu']
        self.assertIn(f'1.414 [{lo:.3f}, {hi:.3f}]', lines[3])
        self.assertIn("this machine's CPU (AMD EPYC)", text)
        self.assertIn('measures the emulator, not a CPU: not a result', text)

    def test_timing_processes(self) -> None:
        """--host-repeat: each process's CPU ratio, and whether the order by
        it is the same in all. A second process where cand is as fast as
        O2 on net.a (ratio 1): the order O2 < cand holds, until a third
        makes cand the faster."""
        def host_with(a_cand: float) -> dict:
            doc = json.loads(json.dumps(HOST))
            for e in doc['results']:
                if (e['bench'], e['variant'], e['footprint']) == ('net.a', 'cand', 0):
                    e['counters']['tsc']['samples'] = [x * a_cand for x in
                                                       HOST['results'][0]['counters']['tsc']
                                                       ['samples']]
            return doc
        o2, cand = flags.score_batch(RESULTS, SIZES, VARIANTS, HOST, 0, [host_with(1.0)])
        self.assertEqual(o2.cpu_processes, [1.0, 1.0])
        self.assertAlmostEqual(cand.cpu_processes[0], 2 ** 0.5)
        self.assertAlmostEqual(cand.cpu_processes[1], 1.0)
        text = flags.ranked_table([o2, cand], 'cpu', 'skylake', 'AMD EPYC')
        self.assertIn('CPU time/O2 in each of 2 timing processes of its batch '
                      "(--host-repeat), the first's in the table: O2 1.000, 1.000; "
                      'cand 1.414, 1.000', text)
        self.assertIn('The order by CPU time (fastest first) is the same in every process: '
                      'O2 < cand', text)
        o2, cand = flags.score_batch(RESULTS, SIZES, VARIANTS, HOST, 0,
                                     [host_with(1.0), host_with(0.5)])
        text = flags.ranked_table([o2, cand], 'cpu', 'skylake', 'AMD EPYC')
        self.assertIn('is not the same in every process: process 1: O2 < cand; process 2: '
                      'O2 < cand; process 3: cand < O2.', text)
        # one process: no such lines
        self.assertEqual(flags.score_batch(RESULTS, SIZES, VARIANTS, HOST)[1].cpu_processes, [])
        self.assertNotIn('timing processes', flags.ranked_table(
            list(flags.score_batch(RESULTS, SIZES, VARIANTS, HOST)), 'cpu'))

    def test_merged_reference(self) -> None:
        """A reference in two batches: the median ratio, no interval."""
        _, os1 = flags.score_batch(RESULTS, SIZES, VARIANTS, HOST)
        _, os2 = flags.score_batch(RESULTS, SIZES, VARIANTS, HOST)
        merged = flags.merge_scores([[os1], [os2]])[0]
        self.assertEqual(merged.batches, 2)
        self.assertEqual(merged.intervals, {})
        self.assertAlmostEqual(merged.ratios['cpu'], 2 ** 0.5)
        self.assertIn('cand: in every batch; their figures are the medians',
                      flags.ranked_table([merged], 'uop'))
        # with timing processes: per process, the median over the batches
        _, os1 = flags.score_batch(RESULTS, SIZES, VARIANTS, HOST, 0, [HOST])
        _, os2 = flags.score_batch(RESULTS, SIZES, VARIANTS, HOST, 0, [HOST])
        merged = flags.merge_scores([[os1], [os2]])[0]
        self.assertEqual(len(merged.cpu_processes), 2)
        self.assertAlmostEqual(merged.cpu_processes[1], 2 ** 0.5)

    def test_references_from_the_file(self) -> None:
        """O2 and Os are plain -O2 and -Os unless the candidates file has
        its own (built like its candidates); every batch starts with them."""
        V = flags.vt.Variant
        cands = [V(f'c{i}', 'gcc', ('-O1',), '') for i in range(7)]
        self.assertEqual(flags.references(cands), list(flags.REFERENCES))
        own_o2 = V('O2', 'gcc', ('-O2', '-DKFRONT_ASM_STRING'), '')
        got = flags.batches([own_o2] + cands)
        self.assertEqual(len(got), 2)
        for batch in got:
            self.assertEqual(batch[:2], [own_o2, flags.REFERENCES[1]])
        self.assertEqual(sum(len(b) - 2 for b in got), 7)

    def test_work_dir_is_kept_under_results(self) -> None:
        """The batches' logs outlive the run (a failed batch names one)."""
        work = cmd_flags.work_dir()
        self.assertEqual(work.parent, cmd_flags.paths.ROOT / 'results')
        self.assertRegex(work.name, r'^flags-\d{8}-\d{6}$')

    def test_cpu_label(self) -> None:
        self.assertEqual(cmd_flags.cpu_label({'machine': {
            'brand': 'AMD EPYC', 'vendor': 'AuthenticAMD', 'family': 26, 'model': 2,
            'hypervisor': 'KVMKVMKVM'}}),
            'AMD EPYC, AuthenticAMD family 0x1a model 0x2, in a VM (KVMKVMKVM)')
        self.assertEqual(cmd_flags.cpu_label({}), 'unknown, ? family ? model ?')


if __name__ == '__main__':
    unittest.main()
