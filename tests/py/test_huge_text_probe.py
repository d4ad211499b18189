# SPDX-License-Identifier: GPL-2.0-or-later
"""tools/probes/huge_text.py: the file-page and huge-page runs of each
round compared point by point, and its option errors."""
from __future__ import annotations

import importlib.util
import json
import math
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

from tests.py.test_repeats_cmd import document
from kfront import model

ROOT = Path(__file__).resolve().parents[2]
PROBE = ROOT / 'tools' / 'probes' / 'huge_text.py'
spec = importlib.util.spec_from_file_location('huge_text', PROBE)
huge_text = importlib.util.module_from_spec(spec)
spec.loader.exec_module(huge_text)


def docs(slower: tuple[str, int, str, float] | None, n: int = 3) -> list[model.Results]:
    return [model.from_dict(document('pmu_ring0.log', slower), f'p{i}') for i in range(n)]


class HugeTextProbe(unittest.TestCase):
    def test_paired(self) -> None:
        file = {('a', 0, 'Os'): 1.0, ('b', 128, 'Os'): 2.0, ('c', 128, 'Os'): 1.0}
        huge = {('a', 0, 'Os'): 1.1, ('b', 128, 'Os'): 1.0, ('c', 128, 'Os'): 2.0}
        p = huge_text.paired(file, huge, lambda k: k[1] == 128)
        self.assertEqual(p, {'pairs': 2, 'huge_lower': 1, 'geomean': 1.0})
        self.assertIsNone(huge_text.paired(file, huge, lambda k: k[1] == 64))

    def test_a_round(self) -> None:
        # Os half again as slow at net.tcp_rr @64 on the "huge" side: its
        # ratio to O2 there goes up by 1.5, nothing else moves.
        r = huge_text.analyse_round(docs(None), docs(('net.tcp_rr', 64, 'Os', 1.5)))
        above = r['ratios']['32-64']
        self.assertEqual((above['pairs'], above['huge_lower']), (4, 0))
        self.assertAlmostEqual(above['geomean'], 1.5 ** 0.25, places=2)
        self.assertEqual(r['ratios']['0']['geomean'], 1.0)
        self.assertAlmostEqual(r['times']['32-64']['Os']['geomean'], math.sqrt(1.5), places=2)
        self.assertEqual(r['times']['32-64']['O2']['geomean'], 1.0)
        self.assertEqual(r['huge_bytes'], [None, None, None])
        json.dumps(r)       # what huge_text.json holds

    def test_option_errors(self) -> None:
        for args in (['--repeat', '1'], ['--rounds', '0']):
            res = subprocess.run([sys.executable, str(PROBE), *args], capture_output=True,
                                 text=True, timeout=60)
            self.assertEqual(res.returncode, 2, args)
        with tempfile.TemporaryDirectory() as tmp:
            res = subprocess.run([sys.executable, str(PROBE), '--from', tmp],
                                 capture_output=True, text=True, timeout=60)
            self.assertEqual(res.returncode, 2)
            self.assertIn('no round-N-file and round-N-huge folders', res.stderr)


if __name__ == '__main__':
    unittest.main()
