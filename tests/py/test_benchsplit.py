# SPDX-License-Identifier: GPL-2.0-or-later
"""One simulator setting over parallel boots, benchmarks dealt out
(tools/kfront/benchsplit.py): which benchmarks a selection runs, in the
suite's order; how they are dealt; how the boots' fesim outputs and runs
become one. tests/boot/test_sim_split.py checks a split run against one boot."""
from __future__ import annotations

import json
import tempfile
import unittest
from pathlib import Path

from kfront import benchsplit
from kfront.records import Problem, Record, Run
from kfront.sim import SimError

ORDER = ['net.tcp_rr', 'net.tcp_stream', 'net.udp_rr', 'net.udp_stream',
         'net.wire_rr', 'net.wire_stream', 'sched.ctxsw', 'sched.pipe', 'sched.chat',
         'calib.empty', 'calib.memcpy20', 'calib.unlikely', 'calib.calls', 'calib.hang',
         'mix.tcp_rr_wakeup']


def rec(seq: int, payload: dict, line: int = 0) -> Record:
    return Record(seq=seq, payload=payload, raw=json.dumps(payload).encode(),
                  line=line or seq + 10)


def run_of(benches: list[str], first_region: int = 0) -> Run:
    """A complete run: suite_begin, one result per benchmark (regions
    numbered from 0 in this boot), suite_end."""
    run = Run(index=0)
    run.begin = rec(0, {'t': 'suite_begin', 'cmdline': 'x', 'variants': []})
    run.by_seq[0] = run.begin
    for i, b in enumerate(benches):
        run.by_seq[i + 1] = rec(i + 1, {'t': 'result', 'bench': b, 'variant': 'O2',
                                        'regions': [2 * i + 1], 'calib_region': 2 * i})
    n = len(benches) + 1
    run.end = rec(n, {'t': 'suite_end', 'records': n + 1, 'status': 0,
                      'regions': 2 * len(benches)})
    run.by_seq[n] = run.end
    run.highest = n
    return run


class Selection(unittest.TestCase):
    def test_kernel_order_from_the_build(self) -> None:
        with tempfile.TemporaryDirectory() as tmp:
            (Path(tmp) / 'build.ninja').write_text(
                'build x: CUSTOM_COMMAND\n COMMAND = python3 build_variant.py '
                '--benches bench_sched_pipe,bench_net_tcp_rr,bench_mix_tcp_rr_wakeup,'
                'bench_gone --out x\n')
            self.assertEqual(benchsplit.kernel_order(Path(tmp)),
                             ['sched.pipe', 'net.tcp_rr', 'mix.tcp_rr_wakeup'])
            # without a configured build: every benchmark, source order
            (Path(tmp) / 'build.ninja').unlink()
            self.assertIn('sched.pipe', benchsplit.kernel_order(Path(tmp)))

    def test_selected_follows_the_kernels_rules(self) -> None:
        default = benchsplit.selected(None, ORDER)
        # a glob (and no list) never selects the explicit or wire ones
        for name in ('calib.hang', 'net.wire_rr', 'net.wire_stream'):
            self.assertNotIn(name, default)
        self.assertEqual(len(default), 12)
        self.assertEqual(benchsplit.selected('sched.*,net.tcp_rr', ORDER),
                         ['net.tcp_rr', 'sched.ctxsw', 'sched.pipe', 'sched.chat'])
        self.assertEqual(benchsplit.selected('calib.hang', ORDER), ['calib.hang'])
        self.assertEqual(benchsplit.selected('calib.*', ORDER),
                         ['calib.empty', 'calib.memcpy20', 'calib.unlikely', 'calib.calls'])


class Dealing(unittest.TestCase):
    def test_deal_balances_and_keeps_the_suite_order(self) -> None:
        benches = benchsplit.selected(None, ORDER)
        parts = benchsplit.deal(benches, 2)
        self.assertEqual(len(parts), 2)
        self.assertEqual(sorted(b for p in parts for b in p), sorted(benches))
        for p in parts:
            self.assertEqual(p, [b for b in benches if b in p])
        loads = [sum(benchsplit.COST.get(b, 1) for b in p) for p in parts]
        self.assertLessEqual(max(loads) - min(loads), max(benchsplit.COST.values()))
        # never an empty boot, never more boots than benchmarks
        self.assertEqual(benchsplit.deal(['calib.empty'], 4), [['calib.empty']])
        self.assertEqual(len(benchsplit.deal(['calib.empty', 'calib.calls'], 8)), 2)
        self.assertEqual(benchsplit.deal(benches, 1), [benches])


def fesim_lines(model: str, regions: list[dict], funcs: list[dict],
                calls: list[dict], idle: int = 0) -> str:
    head = {'type': 'fesim', 'format': 2, 'flush': True, 'flushes': len(regions),
            'skip_boot': True, 'idle_tb_runs': idle,
            'regions': len(regions), 'unbalanced': 0, 'stray_ends': 0,
            'mismatched_ends': 0, 'open_region': False, 'models': [model]}
    objs = [head, {'type': 'model', 'name': model}] + funcs + calls + regions + [
        {'type': 'total', 'insns': 100, 'models': {model: {'l1i_misses': 5}}},
        {'type': 'loops', 'tb_runs': 7, 'replayed': 3}]
    return ''.join(json.dumps(o) + '\n' for o in objs)


def region(seq: int, insns: int) -> dict:
    return {'type': 'region', 'seq': seq, 'slot': 1, 'occ': seq, 'insns': insns,
            'funcs': [[3, insns]], 'models': {'zen4': {'l1i_misses': insns % 7}}}


class Merging(unittest.TestCase):
    def setUp(self) -> None:
        self._tmp = tempfile.TemporaryDirectory()
        self.dir = Path(self._tmp.name)

    def tearDown(self) -> None:
        self._tmp.cleanup()

    def write(self, name: str, text: str) -> Path:
        (self.dir / name).write_text(text)
        return self.dir / name

    def test_fesim_outputs_merged_boot_after_boot(self) -> None:
        f3 = {'type': 'func', 'id': 3, 'addr': 48, 'name': 'f'}
        f4 = {'type': 'func', 'id': 4, 'addr': 64, 'name': 'g'}
        a = self.write('a', fesim_lines('zen4', [region(0, 10), region(1, 11)], [f3],
                                        [{'type': 'call', 'caller': 3, 'callee': 3,
                                          'count': 2}], idle=1000))
        # each boot left its own firmware and boot unmodelled (skip_boot)
        b = self.write('b', fesim_lines('zen4', [region(0, 20)], [f3, f4],
                                        [{'type': 'call', 'caller': 3, 'callee': 3,
                                          'count': 5}], idle=1003))
        out = self.dir / 'fesim.jsonl'
        self.assertEqual(benchsplit.merge_fesim([a, b], out), [0, 2])
        objs = [json.loads(line) for line in out.read_text().splitlines()]
        head = objs[0]
        self.assertEqual((head['regions'], head['flushes']), (3, 3))
        self.assertEqual(head['idle_tb_runs'], 2003)
        regs = [o for o in objs if o['type'] == 'region']
        self.assertEqual([(r['seq'], r['occ'], r['insns']) for r in regs],
                         [(0, 0, 10), (1, 1, 11), (2, 2, 20)])
        self.assertEqual([o['id'] for o in objs if o['type'] == 'func'], [3, 4])
        self.assertEqual([o['count'] for o in objs if o['type'] == 'call'], [7])
        total = next(o for o in objs if o['type'] == 'total')
        self.assertEqual((total['insns'], total['models']['zen4']['l1i_misses']), (200, 10))
        self.assertEqual(next(o for o in objs if o['type'] == 'loops')['tb_runs'], 14)

    def test_boots_that_differ_are_refused(self) -> None:
        a = self.write('a', fesim_lines('zen4', [region(0, 1)], [], []))
        other = self.write('o', fesim_lines('skylake', [region(0, 1)], [], []))
        renamed = self.write('r', fesim_lines('zen4', [region(0, 1)], [
            {'type': 'func', 'id': 3, 'addr': 48, 'name': 'h'}], []))
        named = self.write('n', fesim_lines('zen4', [region(0, 1)], [
            {'type': 'func', 'id': 3, 'addr': 48, 'name': 'f'}], []))
        out = self.dir / 'fesim.jsonl'
        with self.assertRaisesRegex(SimError, 'model records differ'):
            benchsplit.merge_fesim([a, other], out)
        with self.assertRaisesRegex(SimError, 'function 3 is'):
            benchsplit.merge_fesim([named, renamed], out)
        self.assertFalse(out.exists())

    def test_runs_merged_in_the_suite_order(self) -> None:
        one = run_of(['net.udp_rr', 'calib.calls'])
        two = run_of(['sched.pipe'])
        logs = [Path('serial.log'), Path('serial-2.log')]
        merged = benchsplit.merge_runs([one, two], logs, [0, 4], ORDER, 'quick')
        self.assertEqual([r.payload.get('bench') for r in merged.records],
                         [None, 'net.udp_rr', 'sched.pipe', 'calib.calls', None])
        self.assertEqual([r.seq for r in merged.records], [0, 1, 2, 3, 4])
        pipe = merged.records[2].payload
        # the second boot's region numbers follow the first boot's 4
        self.assertEqual((pipe['regions'], pipe['calib_region']), ([5], 4))
        self.assertEqual(merged.records[3].payload['regions'], [3])
        self.assertEqual(merged.begin.payload['cmdline'], 'quick')
        self.assertEqual(merged.end.payload,
                         {'t': 'suite_end', 'records': 5, 'status': 0, 'regions': 6})
        self.assertTrue(merged.complete)
        # a boot's problem stays a problem of the run, naming its log
        two.problems.append(Problem('incomplete', 3, 'no suite_end record'))
        merged = benchsplit.merge_runs([one, two], logs, [0, 4], ORDER, 'quick')
        self.assertFalse(merged.complete)
        self.assertIn('serial-2.log: no suite_end', merged.problems[0].message)
        # a boot that never ended leaves the run without an end
        two.end = None
        self.assertIsNone(benchsplit.merge_runs([one, two], logs, [0, 4], ORDER,
                                                'quick').end)


if __name__ == '__main__':
    unittest.main()
