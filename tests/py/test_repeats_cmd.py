# SPDX-License-Identifier: GPL-2.0-or-later
"""kfront repeats: the verdicts of several stored runs (boots of one image
with different placement=, runs on different days) held to the host
harness's repeat rule."""
from __future__ import annotations

import contextlib
import copy
import io
import json
import tempfile
import unittest
from pathlib import Path
from typing import Any

from tests.py import FIXTURES
from kfront import cli, cmd_repeats, collect, model, results


def document(name: str, slower: tuple[str, int, str, float] | None = None
             ) -> dict[str, Any]:
    """The results document of the first run of a fixture log; `slower`
    (bench, footprint, variant, factor) scales that result's TSC samples
    first, as if its code had run slower."""
    run = collect.collect_file(FIXTURES / name).runs[0]
    for rec in run.of_type('result') if slower else []:
        p = rec.payload
        if (p['bench'], p.get('footprint'), p['variant']) == slower[:3]:
            p['samples']['tsc'] = [round(x * slower[3]) for x in p['samples']['tsc']]
            p['counters'].pop('tsc', None)      # the kernel's summary of the old ones
    return results.build_results(run)


def placed(doc: dict[str, Any], page: int) -> dict[str, Any]:
    """A copy of a bare-metal document as if booted with placement=page."""
    out = copy.deepcopy(doc)
    out['config']['placement'] = {'how': 'given', 'text_pa': hex(0x600000 + page * 4096),
                                  'page': page, 'text_bytes': 1593344}
    out['cmdline'] = f"{out['cmdline']} placement={page}"
    return out


def main(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = cli.main(['repeats', *argv])
    return status, out.getvalue(), err.getvalue()


class RepeatsCommand(unittest.TestCase):
    def setUp(self) -> None:
        self.tmp = tempfile.TemporaryDirectory(prefix='kfront-repeats-')
        self.dir = Path(self.tmp.name)
        self.base = document('pmu_ring0.log')

    def tearDown(self) -> None:
        self.tmp.cleanup()

    def save(self, doc: dict[str, Any], name: str) -> str:
        path = self.dir / name
        path.write_text(json.dumps(doc))
        return str(path)

    def test_a_verdict_that_flips_with_the_placement(self) -> None:
        # Os wins net.tcp_rr @64 in the fixture (16800 against 21000
        # cycles an operation); at the third placement its code is made
        # half again as slow, a loss.
        docs = [placed(self.base, p) for p in (5, 77)]
        docs.append(placed(document('pmu_ring0.log', ('net.tcp_rr', 64, 'Os', 1.5)), 300))
        files = [self.save(d, f'p{i}.json') for i, d in enumerate(docs)]
        status, out, err = main(*files, '--json')
        self.assertEqual(status, 0, err)
        self.assertIn(f'{files[0]}: its own results; kernel code at 0x605000 (placement=5)',
                      err)
        self.assertIn('3 runs: ', err)
        self.assertRegex(err, r'not repeated: net\.tcp_rr @64 Os: win, then win, then loss '
                              r'\(time ratios 0\.\d+, 0\.\d+, 1\.\d+\)')
        self.assertNotIn('Note: the runs differ', err)
        block = json.loads(out)
        self.assertEqual(block['processes'], 3)
        self.assertEqual(block['placements'][1], 'kernel code at 0x64d000 (placement=77)')
        flipped = [(r['bench'], r['footprint'], pair[0]) for r in block['rows']
                   for pair in r['flipped_pairs']]
        self.assertEqual(flipped, [('net.tcp_rr', 64, 'Os')])
        self.assertEqual(block['verdicts_not_repeated'], 1)

    def test_every_verdict_repeats(self) -> None:
        files = [self.save(placed(self.base, p), f'p{p}.json') for p in (1, 2)]
        status, _out, err = main(*files)
        self.assertEqual(status, 0, err)
        self.assertRegex(err + _out, r'2 runs: (\d+) of \1 verdicts against O2 the same '
                                     r'in every run; 0 not repeated')

    def test_a_point_missing_from_a_run_is_not_repeated(self) -> None:
        short = placed(self.base, 2)
        short['results'] = [e for e in short['results']
                            if (e['bench'], e['footprint'], e['variant'])
                            != ('net.udp_stream', 64, 'hybrid')]
        files = [self.save(placed(self.base, 1), 'a.json'), self.save(short, 'b.json')]
        status, out, _err = main(*files)
        self.assertEqual(status, 0)
        self.assertRegex(out, r'not repeated: net\.udp_stream @64 hybrid: \w+, then absent')

    def test_other_arguments_are_named(self) -> None:
        other = placed(self.base, 9)
        other['cmdline'] += ' runs=5'
        files = [self.save(placed(self.base, 1), 'a.json'), self.save(other, 'b.json')]
        status, out, _err = main(*files)
        self.assertEqual(status, 0)
        self.assertIn('Note: the runs differ in runs= as well as in placement=', out)

    def test_emulator_time_is_refused(self) -> None:
        tcg = self.save(document('real_quick.log'), 'tcg.json')
        status, _out, err = main(tcg, self.save(self.base, 'metal.json'))
        self.assertEqual(status, 2)
        self.assertIn('ring-0 TSC under QEMU TCG times the emulator', err)

    def test_bad_input(self) -> None:
        one = self.save(self.base, 'one.json')
        self.assertEqual(main(one)[0], 2)
        (self.dir / 'broken.json').write_text('{')
        status, _out, err = main(one, str(self.dir / 'broken.json'))
        self.assertEqual(status, 2)
        self.assertIn('is not JSON', err)

    def test_placement_words(self) -> None:
        doc = model.from_dict(placed(self.base, 3), 'x')
        self.assertEqual(cmd_repeats.placement_of(doc), 'kernel code at 0x603000 (placement=3)')
        doc.config['placement'] = {'how': 'loaded', 'text_pa': '0x209000', 'page': 9}
        self.assertEqual(cmd_repeats.placement_of(doc), 'kernel code at 0x209000 (page 9, as loaded)')
        doc.config['placement']['how'] = 'random'
        self.assertIn('placement=random', cmd_repeats.placement_of(doc))
        doc.config.pop('placement')
        self.assertEqual(cmd_repeats.placement_of(doc), 'placement not recorded')
        doc.extra = {'host': {'placement': 'fresh copy'}}
        self.assertEqual(cmd_repeats.placement_of(doc), 'host program: fresh copy')


if __name__ == '__main__':
    unittest.main()
