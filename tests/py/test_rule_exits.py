# SPDX-License-Identifier: GPL-2.0-or-later
"""tools/probes/rule_exits.py: callgrind's per-instruction counts read
back, each rule call's exit placed against the next rule's entry line,
and its option errors."""
from __future__ import annotations

import contextlib
import importlib.util
import io
import json
import shutil
import sys
import unittest
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PROBE = ROOT / 'tools' / 'probes' / 'rule_exits.py'
spec = importlib.util.spec_from_file_location('rule_exits', PROBE)
rule_exits = importlib.util.module_from_spec(spec)
sys.modules['rule_exits'] = rule_exits     # its dataclass looks itself up there
spec.loader.exec_module(rule_exits)
Function = rule_exits.Function

# Two parts of one combined callgrind file: names compressed, addresses
# relative, the line after calls= being a call's inclusive cost.
CALLGRIND = """\
version: 1
positions: instr
events: Ir
part: 1
fn=(1) nf_rule_0000
0x1000 10
+4 10
calls=10 0x2000
* 500
+2 10
fn=(2) other
0x5000 7
part: 2
fn=(1)
0x1000 5
+6 5
"""


def rule(name: str, start: int, end: int, insns: list[tuple[int, str, str]]) -> Function:
    return Function(name, start, end, insns)


class RuleExits(unittest.TestCase):
    def test_callgrind_counts_per_instruction(self) -> None:
        counts = rule_exits.parse_callgrind(CALLGRIND, rule_exits.RULE)
        # 0x1004 is the call (10, its inclusive 500 left out), 0x1006 after it
        self.assertEqual(counts, {'nf_rule_0000': {0x1000: 15, 0x1004: 10,
                                                   0x1006: 15}})

    def test_what_leaves_a_function(self) -> None:
        f = rule('nf_rule_0000', 0x1000, 0x1100, [])
        self.assertTrue(rule_exits.is_exit(f, 'ret', ''))
        self.assertTrue(rule_exits.is_exit(f, 'jmp', '*%rax'))
        self.assertTrue(rule_exits.is_exit(f, 'jmp', '2000 <helper>'))
        self.assertFalse(rule_exits.is_exit(f, 'jmp', '1040 <nf_rule_0000+0x40>'))
        self.assertFalse(rule_exits.is_exit(f, 'jne', '2000 <helper>'))

    def test_exits_against_the_next_entry(self) -> None:
        """A rule that returns from its last line is followed by a covered
        entry; one that keeps two lines of blocks after its return is
        not, and the instructions run in those blocks are counted."""
        # rule 0: ret at 0x103f (line 0x1000), next rule at 0x1040: covered
        r0 = rule('nf_rule_0000', 0x1000, 0x1040,
                  [(0x1000, 'mov', ''), (0x103f, 'ret', '')])
        # rule 1: ret at 0x1050 (line 0x1040); blocks after it to 0x10c0;
        # rule 2 starts at 0x10c0, two lines after the ret's
        r1 = rule('nf_rule_0001', 0x1040, 0x10c0,
                  [(0x1040, 'mov', ''), (0x1050, 'ret', ''),
                   (0x1080, 'xor', ''), (0x1088, 'jmp', '1048 <nf_rule_0001+0x8>')])
        r2 = rule('nf_rule_0002', 0x10c0, 0x1100, [(0x10c0, 'ret', '')])
        counts = {'nf_rule_0000': {0x1000: 4, 0x103f: 4},
                  'nf_rule_0001': {0x1040: 4, 0x1050: 4, 0x1080: 1, 0x1088: 1}}
        got = rule_exits.exits_of([r0, r1, r2], counts)
        self.assertEqual(got, {'calls': 8, 'covered': 4, 'covered_share': 0.5,
                               'far': {'2': 4}, 'insns_past_busiest_exit_per_call': 0.25,
                               'insns_per_call': 2.25})
        self.assertEqual(rule_exits.far_words({'-40': 3, '2': 4, '3': 1, '90': 2}),
                         ['2 lines before: 4', '3 lines before: 1',
                          'next rule elsewhere: 5'])

    def test_option_errors(self) -> None:
        for argv, message in ((['no-such-variant'], 'kfront-host-no-such-variant'),
                              (['O2', '--rules', '1'], '--rules: 2 to 1024')):
            err = io.StringIO()
            with self.subTest(argv=argv), contextlib.redirect_stderr(err):
                self.assertEqual(rule_exits.main(argv), 2)
                self.assertIn(message, err.getvalue())

    @unittest.skipUnless(shutil.which('valgrind') and
                         (ROOT / 'build' / 'host' / 'kfront-host-O2').exists(),
                         'needs valgrind and the built O2 host program')
    def test_a_real_run(self) -> None:
        """Every rule call of a short run is placed, once."""
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            self.assertEqual(rule_exits.main(['O2', '--rules', '8', '--iters', '20',
                                              '--json']), 0)
        f = json.loads(out.getvalue())['O2']
        self.assertGreater(f['calls'], 0)
        self.assertEqual(f['covered'] + sum(f['far'].values()), f['calls'])


if __name__ == '__main__':
    unittest.main()
