# SPDX-License-Identifier: GPL-2.0-or-later
"""Host side of the simulator (tools/kfront/sim.py) on a synthetic plugin
output: instruction classes become sim.* counters, the footprint stays
per region (issue 19, "also fix"), and per-function rows become each
result's top-N table with an "other" row."""
from __future__ import annotations

import json
import os
import tempfile
import unittest
from pathlib import Path

from tests.py import FIXTURES
from kfront import collect, functable, regions, results, sim, simjobs

COLUMNS = (['func', 'insns', 'bytes', 'taken_branches'] + list(sim.CLASSES)
           + ['skylake.l1i_misses', 'skylake.uop_misses', 'skylake.itlb_misses',
              'skylake.l1i_prefetches'])
STUB, HOT, DIV = 1, 2, 3
# functions 10.. : many small ones, to fill the table past its top N
SMALL = list(range(10, 10 + functable.TOP_FUNCTIONS + 5))


def row(fid: int, insns: int, div: int = 0, l1i: int = 0) -> list[int]:
    values = dict.fromkeys(COLUMNS, 0)
    # a line prefetched on every miss
    values.update({'func': fid, 'insns': insns, 'bytes': 4 * insns,
                   'div': div, 'skylake.l1i_misses': l1i,
                   'skylake.l1i_prefetches': l1i})
    return [values[c] for c in COLUMNS]


def region(seq: int, rows: list[list[int]], footprint: int) -> dict:
    classes = dict.fromkeys(sim.CLASSES, 0)
    classes['div'] = sum(r[COLUMNS.index('div')] for r in rows)
    insns = sum(r[1] for r in rows)
    return {'type': 'region', 'seq': seq, 'slot': 1, 'occ': seq,
            'closed': True, 'funcs': rows, 'classes': classes,
            'insns': insns, 'bytes': 4 * insns, 'taken_branches': 0,
            'footprint_lines': footprint // 64, 'footprint_bytes': footprint,
            'models': {'skylake': {
                name: sum(r[COLUMNS.index(f'skylake.{name}')] for r in rows)
                for name in ('l1i_misses', 'uop_misses', 'itlb_misses',
                             'l1i_prefetches')}}}


def write_output(path: Path, stub_l1i: int = 0, div_l1i: int = 7) -> None:
    """The plugin's output for two calibration regions and three counted
    runs; stub_l1i: L1i misses of the harness stub in each counted run
    (none in the calibration regions, as when a run's code evicts it);
    div_l1i: those of the measured code's slow_div."""
    lines = [{'type': 'fesim', 'format': 1, 'models': ['skylake'],
              'func_columns': COLUMNS}]
    names = {STUB: 'region_stub', HOT: 'hot_loop', DIV: 'slow_div'}
    names.update({f: f'small_{f}' for f in SMALL})
    lines += [{'type': 'func', 'id': f, 'addr': 0x1000 * f, 'name': n}
              for f, n in names.items()]
    # two calibration regions: the harness stub alone
    lines += [region(s, [row(STUB, 10)], 128) for s in (0, 1)]
    # three counted runs: stub + hot + one div per run + small ones
    for s in (2, 3, 4):
        rows = [row(STUB, 10, l1i=stub_l1i), row(HOT, 1000),
                row(DIV, 5, div=1, l1i=div_l1i)]
        rows += [row(f, 20 + f) for f in SMALL]
        lines.append(region(s, rows, 4096 + 128))
    path.write_text(''.join(json.dumps(x) + '\n' for x in lines))


def merged_run(stub_l1i: int = 0, div_l1i: int = 7, keep_rows: bool = True
               ) -> tuple[int, int, dict, sim.SimOutput]:
    """(records merged, records, results document, plugin output) for the
    clean fixture's records merged with write_output()'s regions."""
    run = collect.collect_file(FIXTURES / 'clean.log').runs[0]
    for rec in run.of_type('result'):
        rec.payload.pop('samples', None)
        rec.payload.update(regions=[2, 3, 4], calib_region=0,
                           calib_regions=2, method='overhead')
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / 'fesim.jsonl'
        write_output(out, stub_l1i, div_l1i)
        data = sim.load(out)
    if not keep_rows:
        data.funcs = {}
    merged = sim.merge_into_run(run, data)
    return merged, len(run.of_type('result')), results.build_results(run), data


class SimMerge(unittest.TestCase):
    @classmethod
    def setUpClass(cls) -> None:
        cls.merged, cls.n_records, cls.data, _ = merged_run()
        cls.entry = cls.data['results'][0]

    def test_every_record_merged(self) -> None:
        self.assertEqual(self.merged, self.n_records)

    def test_classes_are_counters(self) -> None:
        c = self.entry['counters']
        for name in sim.CLASSES:
            self.assertIn(f'sim.{name}', c)
        self.assertEqual(c['sim.div']['samples'], [1, 1, 1])

    def test_footprint_per_region_not_per_op(self) -> None:
        # before the fix per_op was 4096 / iters, a rate of nothing
        c = self.entry['counters']['sim.footprint_bytes']
        self.assertEqual(c['per'], 'region')
        self.assertEqual(c['per_run']['median'], 4096)
        self.assertEqual(c['per_op']['median'], 4096)
        self.assertGreater(self.entry['iters'], 1)
        ins = self.entry['counters']['sim.instructions']
        self.assertNotIn('per', ins)
        self.assertAlmostEqual(ins['per_op']['median'],
                               ins['per_run']['median'] / self.entry['iters'])

    def test_function_table(self) -> None:
        t = self.entry['sim_functions']
        self.assertEqual(t['per'], 'run')
        self.assertEqual(t['columns'][0], 'instructions')
        names = [r['function'] for r in t['top']]
        self.assertEqual(names[0], 'hot_loop')
        # the harness stub is the overhead: it drops out entirely
        self.assertNotIn('region_stub', names)
        # few instructions, but the top of the div and l1i columns
        self.assertIn('slow_div', names)
        div = next(r for r in t['top'] if r['function'] == 'slow_div')
        self.assertEqual((div['div'], div['skylake.l1i_misses']), (1, 7))
        self.assertEqual(div['addr'], f'0x{DIV * 0x1000:x}')
        # top N by instructions plus slow_div; the rest in "other"
        self.assertEqual(len(t['top']), functable.TOP_FUNCTIONS + 1)
        rest = sorted(SMALL)[:len(SMALL) + 1 - functable.TOP_FUNCTIONS]
        self.assertEqual(t['other']['functions'], len(rest))
        self.assertEqual(t['other']['instructions'],
                         sum(20 + f for f in rest))
        total = sum(r['instructions'] for r in t['top']) + \
            t['other']['instructions']
        self.assertEqual(total,
                         self.entry['counters']['sim.instructions']['per_run']['median'])

    def test_no_symbols_no_table(self) -> None:
        self.assertIsNone(sim.function_table(sim.SimOutput(models=[]), {}))


class MissesOfMeasuredCode(unittest.TestCase):
    """A model's misses count the measured code alone: the harness's
    bracketing functions (those of every calibration region) are left out.
    At footprint 0 a counted run's only L1i miss was the harness's counter
    read, evicted between runs, and the verdict ranked variants by it."""

    def test_bracket_is_what_every_calibration_region_ran(self) -> None:
        _, _, _, data = merged_run()
        payload = {'calib_region': 0, 'calib_regions': 2}
        self.assertEqual(sim.bracket_functions(data, payload), {STUB})
        self.assertIsNone(sim.bracket_functions(data, {}))
        self.assertIsNone(sim.bracket_functions(sim.SimOutput(models=[]), payload))

    def test_harness_misses_left_out(self) -> None:
        _, _, doc, data = merged_run(stub_l1i=1)
        entry = doc['results'][0]
        # the region counted 8 misses a run, 1 of them the stub's
        self.assertEqual([data.regions[s]['models']['skylake']['l1i_misses']
                          for s in (2, 3, 4)], [8, 8, 8])
        self.assertEqual(entry['counters']['sim.skylake.l1i_misses']['samples'],
                         [7, 7, 7])
        # so are its prefetches (a counter with function rows too)
        self.assertEqual(entry['counters']['sim.skylake.l1i_prefetches']['samples'],
                         [7, 7, 7])
        # the miss is not lost: the stub's row shows it
        stub = next(r for r in entry['sim_functions']['top']
                    if r['function'] == 'region_stub')
        self.assertEqual(stub['skylake.l1i_misses'], 1)
        self.assertEqual(sim.describe(data)['misses_of'], regions.MISSES_MEASURED)

    def test_only_harness_misses_gives_zero(self) -> None:
        # the footprint-0 case: nothing but the stub missed
        _, _, doc, _ = merged_run(stub_l1i=1, div_l1i=0)
        c = doc['results'][0]['counters']['sim.skylake.l1i_misses']
        self.assertEqual(c['samples'], [0, 0, 0])

    def test_without_rows_whole_region(self) -> None:
        # no per-function rows (no syms=): the region's figure, as before
        _, _, doc, data = merged_run(stub_l1i=1, keep_rows=False)
        c = doc['results'][0]['counters']['sim.skylake.l1i_misses']
        self.assertEqual(c['samples'], [8, 8, 8])
        self.assertEqual(sim.describe(data)['misses_of'], regions.MISSES_WHOLE_REGION)


class ParallelBoots(unittest.TestCase):
    """How --sim-jobs deals settings over boots (tools/kfront/simjobs.py;
    the merge itself is checked against single runs in tests/fesim)."""

    def test_split_balances_cost(self) -> None:
        nine = ['skylake', 'skylake@plru', 'skylake@random', 'zen4', 'zen4@plru',
                'zen4@random', 'goldencove', 'goldencove@plru', 'goldencove@random']
        parts = simjobs.split(nine, 2)
        # LRU 3, PLRU 4, random 5: costliest first, each to the boot with
        # the least so far (17 and 19)
        self.assertEqual(parts, [['skylake@random', 'zen4', 'goldencove@plru',
                                  'goldencove@random'],
                                 ['skylake', 'skylake@plru', 'zen4@plru',
                                  'zen4@random', 'goldencove']])
        self.assertEqual([sum(map(simjobs.cost, p)) for p in parts], [17, 19])
        self.assertEqual(simjobs.cost('skylake-nojcc'), 3)
        self.assertEqual(sorted(m for p in parts for m in p), sorted(nine))
        self.assertEqual(sorted(simjobs.split(nine, 9)), sorted([m] for m in nine))
        self.assertEqual(simjobs.split(['zen4'], 4), [['zen4']])
        self.assertEqual(simjobs.split(['zen4', 'skylake'], 1), [['zen4', 'skylake']])

    def test_jobs(self) -> None:
        self.assertEqual(simjobs.jobs_for(9, 3), 3)
        self.assertEqual(simjobs.jobs_for(2, 8), 2)     # one per setting at most
        self.assertEqual(simjobs.jobs_for(1, None), 1)
        cores = len(os.sched_getaffinity(0))
        self.assertEqual(simjobs.jobs_for(16, None), min(16, cores))

    def test_function_rows_that_differ_are_refused(self) -> None:
        def boot(model: str, rows: list[list[int]]) -> str:
            # idle_tb_runs: each boot's own firmware and boot (skip_boot)
            head = {'type': 'fesim', 'format': 2, 'models': [model],
                    'skip_boot': True, 'idle_tb_runs': len(model),
                    'func_columns': ['func', 'insns', f'{model}.l1i_misses']}
            region = {'type': 'region', 'seq': 0, 'funcs': rows, 'insns': 9,
                      'models': {model: {'l1i_misses': 1}}}
            return ''.join(json.dumps(o) + '\n' for o in
                           (head, {'type': 'model', 'name': model}, region))
        with tempfile.TemporaryDirectory() as tmp:
            a, b, out = (Path(tmp) / n for n in ('a.jsonl', 'b.jsonl', 'out.jsonl'))
            a.write_text(boot('skylake', [[1, 5, 1], [2, 4, 0]]))
            b.write_text(boot('zen4', [[1, 5, 0], [2, 4, 1]]))
            simjobs.merge([a, b], [['skylake'], ['zen4']], ['zen4', 'skylake'], out)
            lines = [json.loads(x) for x in out.read_text().splitlines()]
            self.assertEqual(lines[0]['func_columns'],
                             ['func', 'insns', 'zen4.l1i_misses', 'skylake.l1i_misses'])
            self.assertEqual(lines[0]['idle_tb_runs'], len('skylake'))    # the first boot's
            self.assertEqual([x['name'] for x in lines[1:3]], ['zen4', 'skylake'])
            self.assertEqual(lines[3]['funcs'], [[1, 5, 0, 1], [2, 4, 1, 0]])
            self.assertEqual(list(lines[3]['models']), ['zen4', 'skylake'])
            b.write_text(boot('zen4', [[1, 5, 0]]))
            with self.assertRaisesRegex(sim.SimError, 'region 0: the functions differs'):
                simjobs.merge([a, b], [['skylake'], ['zen4']], ['skylake', 'zen4'], out)
            b.write_text(boot('zen4', [[1, 6, 0], [2, 4, 1]]))
            with self.assertRaisesRegex(sim.SimError, 'region 0: function 1 differs'):
                simjobs.merge([a, b], [['skylake'], ['zen4']], ['skylake', 'zen4'], out)

    def test_unreadable_output_is_an_error(self) -> None:
        with tempfile.TemporaryDirectory() as tmp:
            bad = Path(tmp) / 'a.jsonl'
            bad.write_text('{"type":"fesim","models":["skylake"]}\nnot json\n')
            with self.assertRaisesRegex(sim.SimError, r'a\.jsonl:2: not JSON'):
                simjobs.merge([bad, bad], [['skylake'], ['skylake']], ['skylake'],
                              Path(tmp) / 'out.jsonl')
            self.assertFalse((Path(tmp) / 'out.jsonl').exists())


if __name__ == '__main__':
    unittest.main()
