# SPDX-License-Identifier: GPL-2.0-or-later
"""The report's line on Linux's string helpers (tools/kfront/stringhelpers.py):
which bodies memcpy and memset ran, from each machine record's CPU
features, for a run whose variants hold -DKFRONT_ASM_STRING; nothing for
the others."""
from __future__ import annotations

import json
import tempfile
import unittest
from pathlib import Path
from types import SimpleNamespace

from tests.py import FIXTURES
from kfront import model, report, stringhelpers

ASM = [{'name': 'O2', 'flags': '-O2 -DKFRONT_ASM_STRING'},
       {'name': 'Os', 'flags': '-Os -DKFRONT_ASM_STRING'},
       {'name': 'O2-c', 'flags': '-O2'}]
TCG = {'hypervisor': 'TCGTCGTCGTCG', 'features': ['tsc', 'erms']}
ZEN5 = {'hypervisor': 'KVMKVMKVM', 'features': ['erms', 'fsrm']}


def results(variants, machine, context='kernel', host=None, benches=('net.udp_rr',)):
    return SimpleNamespace(variants=variants, machine=machine, context=context, host=host,
                           results=[SimpleNamespace(bench=b) for b in benches])


class Bodies(unittest.TestCase):
    def test_each_feature_picks_its_own_helper(self) -> None:
        self.assertEqual(stringhelpers.bodies({'features': ['erms']}),
                         'memcpy was a loop of moves and memset a loop of moves (CPUID: fsrm no, fsrs no)')
        self.assertEqual(stringhelpers.bodies({'features': ['fsrm']}),
                         'memcpy was a rep movsb and memset a loop of moves (CPUID: fsrm yes, fsrs no)')
        self.assertEqual(stringhelpers.bodies({'features': ['fsrm', 'fsrs']}),
                         'memcpy was a rep movsb and memset a rep stosb (CPUID: fsrm yes, fsrs yes)')

    def test_the_record_says_what_ran(self) -> None:
        # what the kernel recorded wins over what its features suggest
        forced = {'features': ['erms'], 'hypervisor': 'TCGTCGTCGTCG',
                  'string_helpers': {'memcpy': 'rep movsb', 'memset': 'rep stosb', 'by': 'rep'}}
        self.assertEqual(stringhelpers.bodies(forced),
                         'memcpy was a rep movsb and memset a rep stosb (rep_string=rep)')
        line = stringhelpers.note(results(ASM, forced))
        self.assertNotIn("the simulator's figures are of the loops", line)
        by_cpuid = {'features': ['fsrm'],
                    'string_helpers': {'memcpy': 'rep movsb', 'memset': 'loop', 'by': 'cpuid'}}
        self.assertEqual(stringhelpers.bodies(by_cpuid),
                         'memcpy was a rep movsb and memset a loop of moves (CPUID: fsrm yes, fsrs no)')

    def test_a_record_without_features(self) -> None:
        self.assertIn('what memcpy and memset ran is not known', stringhelpers.bodies({}))
        line = stringhelpers.note(results(ASM, {'hypervisor': 'TCGTCGTCGTCG'}))
        self.assertIn('in the booted kernel what memcpy and memset ran is not known', line)
        self.assertNotIn('simulator', line)


class Note(unittest.TestCase):
    def test_c_helpers_noted_with_a_stream_workload(self) -> None:
        self.assertIsNone(stringhelpers.note(results(ASM[2:], TCG)))
        line = stringhelpers.note(results(ASM[2:], TCG, benches=('net.udp_rr', 'net.tcp_stream')))
        self.assertEqual(line, stringhelpers.C_HELPERS)
        self.assertIn('bench/variants-asm-string.ini', line)

    def test_simulated_boot_and_host(self) -> None:
        line = stringhelpers.note(results(ASM, TCG, host=results(ASM, ZEN5, 'user')))
        self.assertTrue(line.startswith("Linux's string helpers (-DKFRONT_ASM_STRING: O2, Os): "))
        self.assertIn('in the booted kernel memcpy was a loop of moves', line)
        self.assertIn('in the host harness memcpy was a rep movsb', line)
        self.assertIn("the simulator's figures are of the loops", line)

    def test_host_harness_alone(self) -> None:
        line = stringhelpers.note(results(ASM, ZEN5, 'user'))
        self.assertIn('in the host harness memcpy was a rep movsb', line)
        self.assertNotIn('booted kernel', line)
        self.assertNotIn('simulator', line)


class InTheReport(unittest.TestCase):
    """A real run's results (a simulated boot under QEMU TCG, with
    net.udp_stream) with its variants' flags given the define: the line
    on what ran is in the terminal summary and in report.md; without the
    define, the line on the C helpers."""

    def load(self, define: bool) -> model.Results:
        doc = json.loads((FIXTURES / 'real_sweep_sim.json').read_text())
        doc['machine']['features'] = ['tsc', 'erms']    # as QEMU 7.2's TCG reports
        if define:
            for v in doc['variants']:
                v['flags'] += ' -DKFRONT_ASM_STRING'
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / 'results.json'
            path.write_text(json.dumps(doc))
            return model.load(path)

    def test_terminal_and_markdown(self) -> None:
        for define in (True, False):
            res = self.load(define)
            text = report.terminal_table(res, color=False)
            with tempfile.TemporaryDirectory() as tmp:
                report.write_all(res, Path(tmp))
                md = (Path(tmp) / 'report.md').read_text()
            for where in (text, md):
                self.assertEqual("Linux's string helpers (-DKFRONT_ASM_STRING" in where, define)
                self.assertEqual("String helpers: each variant compiles" in where, not define)
            if define:
                self.assertIn('in the booted kernel memcpy was a loop of moves', text)
                self.assertIn("the simulator's figures are of the loops", text)


if __name__ == '__main__':
    unittest.main()
