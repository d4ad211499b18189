# SPDX-License-Identifier: GPL-2.0-or-later
"""The host harness (issue 8): one host program per variant plus the
all-variant one, a quick user-space run that `kfront host` turns into a
valid results.json (context "user", every benchmark verified with equal
digests), callgrind figures with --valgrind, and the watchdog."""
from __future__ import annotations

import argparse
import contextlib
import io
import json
import platform
import shutil
import subprocess
import tempfile
import unittest
from pathlib import Path
from typing import Any

from kfront import build, cmd_host, explain, results

# Tiny runs: the point is the plumbing, not the figures.
BENCH = 'calib.*,sched.*'
TINY = ['runs=3', 'warmup=1', 'iters=200']


def kfront_host(argv: list[str]) -> tuple[int, str, str]:
    parser = argparse.ArgumentParser(prog='kfront')
    cmd_host.register(parser.add_subparsers())
    args = parser.parse_args(['host', *argv])
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = args.func(args)
    return status, out.getvalue(), err.getvalue()


def records(exe: Path, args: list[str]) -> tuple[int, list[dict[str, Any]]]:
    res = subprocess.run([str(exe), *args], capture_output=True, text=True, timeout=60)
    recs = [json.loads(line.split(' ', 3)[3]) for line in res.stdout.splitlines()
            if line.startswith('#KF2 ')]
    return res.returncode, recs


@unittest.skipUnless(platform.system() == 'Linux' and platform.machine() == 'x86_64',
                     'the host harness runs on x86_64 Linux')
class HostHarness(unittest.TestCase):
    variants: list[str] = []

    @classmethod
    def setUpClass(cls) -> None:
        if not build.build(targets=['host']):
            raise RuntimeError('build of the host programs failed')
        status, recs = records(cmd_host.host_exe(), ['bench=none'])
        assert status == 0, status
        cls.variants = [v['name'] for v in recs[0]['variants']]

    def setUp(self) -> None:
        self._tmp = tempfile.TemporaryDirectory()
        self.out = Path(self._tmp.name)

    def tearDown(self) -> None:
        self._tmp.cleanup()

    def test_one_program_per_variant(self) -> None:
        self.assertGreaterEqual(len(self.variants), 3)
        for name in self.variants:
            status, recs = records(cmd_host.host_exe(name), ['bench=none'])
            self.assertEqual(status, 0, name)
            begin = recs[0]
            self.assertEqual(begin['context'], 'user')
            self.assertEqual([v['name'] for v in begin['variants']], [name])
            self.assertGreater(begin['variants'][0]['text_bytes'], 0)

    def test_rep_string_chooses_the_helpers_body(self) -> None:
        """The machine record says which body Linux-style string helpers
        run: CPUID's choice by default, the forced one with rep_string=."""
        exe = cmd_host.host_exe()
        status, recs = records(exe, ['bench=none'])
        m = recs[0]['machine']
        self.assertEqual(m['string_helpers'], {
            'memcpy': 'rep movsb' if 'fsrm' in m['features'] else 'loop',
            'memset': 'rep stosb' if 'fsrs' in m['features'] else 'loop', 'by': 'cpuid'})
        for mode, cpy, st in (('rep', 'rep movsb', 'rep stosb'), ('loop', 'loop', 'loop')):
            status, recs = records(exe, ['bench=none', f'rep_string={mode}'])
            self.assertEqual(status, 0, mode)
            self.assertEqual(recs[0]['machine']['string_helpers'],
                             {'memcpy': cpy, 'memset': st, 'by': mode})

    def test_kernel_only_keys_refused(self) -> None:
        """Keys of the kernel's table this harness never reads."""
        for arg in ('exit=halt', 'ip=10.0.2.15/24', 'serve=echo', 'crash=ud'):
            res = subprocess.run([str(cmd_host.host_exe()), '--no-pin', 'bench=none', arg],
                                 capture_output=True, text=True, timeout=60)
            self.assertEqual(res.returncode, 2, arg)
            self.assertIn(f"{arg.split('=')[0]}= is for the kernel only", res.stderr)
            self.assertNotIn('#KF2 ', res.stdout)

    def test_footprint_points_checked_before_any_run(self) -> None:
        """The suite (shared with the kernel) refuses a point past the
        filter rules or a repeated one before anything runs."""
        for arg, message in (('footprint=0,1025', 'footprint=1025: the network '
                              'stack has 1024 filter rules; want 0 to 1024'),
                             ('footprint=0,64,0', 'footprint= lists 0 twice')):
            res = subprocess.run([str(cmd_host.host_exe()), 'bench=net.udp_rr', 'quick', arg],
                                 capture_output=True, text=True, timeout=60)
            self.assertEqual(res.returncode, 2, res.stdout + res.stderr)
            self.assertIn(message, res.stdout + res.stderr)
            self.assertNotIn('#KF2 ', res.stdout)

    def test_quick_run_results(self) -> None:
        status, out, err = kfront_host(['--quick', '--out', str(self.out), '--bench', BENCH,
                                        '--', *TINY])
        self.assertEqual(status, 0, out + err)
        data = results.load(self.out / 'results.json')
        self.assertEqual(data['context'], 'user')
        self.assertTrue(data['complete'])
        self.assertEqual(data['digest_mismatches'], [])
        self.assertEqual(data['events'], [])
        benches = {e['bench'] for e in data['results']}
        self.assertTrue({'calib.memcpy20', 'sched.chat'} <= benches, benches)
        for bench in benches:
            self.assertEqual(set(data['digests'][bench]), set(self.variants), bench)
        for e in data['results']:
            self.assertEqual(e['iters'], 200)
            self.assertEqual(e['counters']['tsc']['per_run']['n'], 3)
        machine = data['machine']
        self.assertEqual(machine['host']['valgrind'], False)
        if not machine['pmu']['available']:
            # a machine without a PMU says why, and reports no zeros
            self.assertIn('errno', data['counters']['unavailable']['cycles'])
            self.assertNotIn('cycles', data['results'][0]['counters'])
        for name in ('host.log', 'report.md', 'report.html'):
            self.assertTrue((self.out / name).is_file(), name)
        self.assertIn('per operation', out)

    def test_repeated_processes(self) -> None:
        """--repeat 2: a second process into host-2.log and results-2.json,
        and the first's results.json says per point which verdicts the two
        share (extra.host_repeats); the figures are the first process's."""
        status, out, err = kfront_host(['--out', str(self.out), '--bench', 'calib.*',
                                        '--repeat', '2', '--', *TINY])
        self.assertEqual(status, 0, out + err)
        for name in ('host.log', 'host-2.log', 'results.json', 'results-2.json'):
            self.assertTrue((self.out / name).is_file(), name)
        data = results.load(self.out / 'results.json')
        block = data['extra']['host_repeats']
        self.assertEqual((block['processes'], block['baseline']), (2, 'O2'))
        points = {(r['bench'], r['footprint']) for r in block['rows']}
        self.assertEqual(points, {(e['bench'], e['footprint'] or 0)
                                  for e in data['results']})
        for r in block['rows']:
            self.assertEqual(set(r['verdicts']), set(self.variants) - {'O2'})
            for vs in r['verdicts'].values():
                self.assertEqual(len(vs), 2)
                self.assertTrue(set(vs) <= {'win', 'loss', 'tie'}, vs)
            self.assertEqual(r['repeated'], all(len(set(vs)) == 1
                                                for vs in r['verdicts'].values()))
        # each process's time ratio to O2, the first's from this document
        median = {(e['bench'], e['variant']): e['counters']['tsc']['per_op']['median']
                  for e in data['results']}
        for r in block['rows']:
            for v, rs in r['ratios'].items():
                self.assertEqual(len(rs), 2)
                self.assertAlmostEqual(rs[0], median[(r['bench'], v)]
                                       / median[(r['bench'], 'O2')], places=4)
        self.assertGreater(block['moves']['pairs'], 0)
        # each process ran from a fresh copy of the program (placement.py)
        self.assertEqual(data['extra']['host']['placement'], 'fresh copy')
        self.assertEqual(results.load(self.out / 'results-2.json')['extra']['host']['placement'],
                         'fresh copy')
        self.assertEqual(block['placement'], ['fresh copy', 'fresh copy'])
        frames = data['extra']['host']['frames']      # or why they are unavailable
        self.assertTrue('runs' in frames or 'unavailable' in frames, frames)
        # pooled over both processes: a verdict per row and variant
        self.assertEqual(sum(sum(t.values()) for t in block['pooled']['tally'].values()),
                         sum(len(r['pooled']) for r in block['rows']))
        self.assertIsNone(block['halves'])
        self.assertIn('2 timing processes (each from a fresh copy of the program):', out)
        self.assertIn("a point's time ratio moved by a median of", out)
        md = (self.out / 'report.md').read_text(encoding='utf-8')
        self.assertIn('Real-CPU verdicts over timing processes', md)
        for said in ("Each process ran from a fresh copy of the program",
                     "How noisy each process was", "How far one process's figures are",
                     "Pooled over the processes instead"):
            self.assertIn(said, md)

    @unittest.skipUnless(shutil.which('valgrind'), 'valgrind is not installed')
    def test_valgrind_figures(self) -> None:
        # --variants too: each variant's program under valgrind holds only
        # its own variant, so the list must not reach it
        status, out, err = kfront_host(['--valgrind', '--vg-runs', '2', '--out', str(self.out),
                                        '--variants', 'O2,Os',
                                        '--bench', 'calib.memcpy20,sched.ctxsw', '--', *TINY])
        self.assertEqual(status, 0, out + err)
        data = results.load(self.out / 'results.json')
        self.assertEqual(data['extra']['valgrind']['I1'], '32768,8,64')
        per_op: dict[tuple[str, str], float] = {}
        for e in data['results']:
            for name in ('vg.instructions', 'vg.i1_misses'):
                self.assertIn(name, e['counters'], (e['bench'], e['variant']))
                self.assertEqual(len(e['counters'][name]['samples']), 2)
            per_op[e['bench'], e['variant']] = \
                e['counters']['vg.instructions']['per_op']['median']
        # counts are exact: both runs agree, and Os's rep movs copy costs
        # instructions of its own set-up where O2 has plain moves
        memcpy = [e for e in data['results'] if e['bench'] == 'calib.memcpy20']
        for e in memcpy:
            samples = e['counters']['vg.instructions']['samples']
            self.assertEqual(samples[0], samples[1])
        self.assertGreater(per_op['calib.memcpy20', 'Os'], per_op['calib.memcpy20', 'O2'])
        self.assertGreater(per_op['sched.ctxsw', 'O2'], 100)
        # issue 19: callgrind's functions name the copy site and its rep movs
        raw = json.loads((self.out / 'results.json').read_text())
        _, funcs = explain.differences(raw, 'calib.memcpy20', ('O2', 'Os'), 'vg.instructions')
        progs = (cmd_host.host_exe('O2'), cmd_host.host_exe('Os'))
        explain.annotate(funcs, progs, ('O2', 'Os'), 3)
        copy = [f for f in funcs if f.name == 'copy_hdr']
        self.assertEqual(len(copy), 1, funcs)
        self.assertTrue(any(line.startswith('rep movs: 0 in O2, 1 in Os')
                            for line in copy[0].excerpt), copy[0].excerpt)

    def test_watchdog_ends_a_hung_benchmark(self) -> None:
        status, recs = records(cmd_host.host_exe(), ['bench=calib.hang', 'budget_ms=100',
                                                     'variant=O2'])
        self.assertEqual(status, 3)     # EXIT_BENCH_FAILED
        self.assertEqual([r['t'] for r in recs], ['suite_begin', 'timeout', 'suite_end'])
        self.assertEqual(recs[0]['watchdog'], 'sigalrm')

    def test_unknown_key_refused(self) -> None:
        status, _ = records(cmd_host.host_exe(), ['nosuchkey=1'])
        self.assertEqual(status, 2)


if __name__ == '__main__':
    unittest.main()
