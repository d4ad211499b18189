# SPDX-License-Identifier: GPL-2.0-or-later
"""tools/probes/repeated_regions.py: the share of a setting's uop-cache
look-ups in regions whose figures repeat an earlier region's (the bound
docs/fesim-speed-log.md, "Whole calls replayed", rests on), and a clear
error for a file that is not a fesim output."""
from __future__ import annotations

import json
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

PROBE = (Path(__file__).resolve().parents[2] / 'tools' / 'probes'
         / 'repeated_regions.py')


def region(seq: int, insns: int, lru: int, rnd: int) -> dict:
    """A region whose setting `a` made `lru` look-ups (and missed one) and
    `b` made `rnd` look-ups (and missed `seq`: never the same twice)."""
    return {'type': 'region', 'seq': seq, 'insns': insns,
            'taken_branches': 5,
            'models': {'a': {'uop_lookups': lru, 'uop_misses': 1},
                       'b': {'uop_lookups': rnd, 'uop_misses': seq}}}


class RepeatedRegions(unittest.TestCase):
    def run_probe(self, lines: list[str]) -> subprocess.CompletedProcess:
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / 'fesim.jsonl'
            path.write_text(''.join(line + '\n' for line in lines),
                            encoding='utf-8')
            return subprocess.run([sys.executable, str(PROBE), str(path)],
                                  capture_output=True, text=True,
                                  check=False)

    def test_shares(self) -> None:
        recs = [{'type': 'fesim', 'format': 2, 'models': ['a', 'b']},
                region(0, 100, 10, 10),
                region(1, 200, 30, 30),
                region(2, 100, 10, 10),   # repeats region 0 under a
                region(3, 100, 20, 10),   # the same code, other counts
                {'type': 'total', 'models': {'a': {'uop_lookups': 200},
                                             'b': {'uop_lookups': 100}}}]
        out = self.run_probe([json.dumps(r) for r in recs])
        self.assertEqual(out.returncode, 0, out.stderr)
        self.assertEqual(out.stdout.splitlines(), [
            'a: 4 regions, 1 repeat an earlier one; uop-cache look-ups '
            '200: in regions 70 (35.0%), in repeating regions 10 (5.0%)',
            'b: 4 regions, 0 repeat an earlier one; uop-cache look-ups '
            '100: in regions 60 (60.0%), in repeating regions 0 (0.0%)'])

    def test_not_fesim_output(self) -> None:
        out = self.run_probe(['{"type":"fesim"}', 'exit=qemu quick'])
        self.assertNotEqual(out.returncode, 0)
        # the error of the loader every tool reads fesim output with (sim.load)
        self.assertIn('fesim.jsonl:2: not JSON', out.stderr)
        self.assertNotIn('Traceback', out.stderr)

    def test_no_total(self) -> None:
        out = self.run_probe(['{"type":"fesim","format":2,"models":["a","b"]}',
                              json.dumps(region(0, 1, 1, 1))])
        self.assertNotEqual(out.returncode, 0)
        self.assertIn('no regions or no total line', out.stderr)

    def test_no_header(self) -> None:
        out = self.run_probe([json.dumps(region(0, 1, 1, 1))])
        self.assertNotEqual(out.returncode, 0)
        self.assertIn('no fesim header line', out.stderr)


if __name__ == '__main__':
    unittest.main()
