# SPDX-License-Identifier: GPL-2.0-or-later
"""`kfront explain` logic on synthetic per-function tables: ranking and
shares of a difference, the excerpt naming the pattern one variant has and
the other lacks (an injected div, a rep movs), and clear errors."""
from __future__ import annotations

import io
import json
import tempfile
import unittest
from unittest import mock
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

from kfront import cli, explain, paths

COLUMNS = ['instructions', 'div', 'rep_movs']


def table(rows: dict[str, tuple[float, float, float, int]], other: float) -> dict:
    return {'per': 'run', 'columns': COLUMNS,
            'top': [{'function': n, 'addr': f'0x{addr:x}', 'instructions': i,
                     'div': d, 'rep_movs': r}
                    for n, (i, d, r, addr) in rows.items()],
            'other': {'functions': 3, 'instructions': other, 'div': 0, 'rep_movs': 0}}


DATA = {'results': [
    {'bench': 'calib.x', 'variant': 'O2', 'footprint': None, 'sim_functions': table(
        {'hot': (100, 0, 0, 0x1000), 'scale': (20, 0, 0, 0x1100),
         'same': (50, 0, 0, 0x1200)}, 10)},
    {'bench': 'calib.x', 'variant': 'Os', 'footprint': None, 'sim_functions': table(
        {'hot': (103, 0, 1, 0x2000), 'scale': (60, 1, 0, 0x2100),
         'same': (50, 0, 0, 0x2200)}, 12)},
]}


class Differences(unittest.TestCase):
    def test_ranking_and_shares(self) -> None:
        total, funcs = explain.differences(DATA, 'calib.x', ('O2', 'Os'),
                                           'sim.instructions')
        self.assertEqual(total, 40 + 3 + 2)
        self.assertEqual([f.name for f in funcs[:3]], ['scale', 'hot', '(other)'])
        self.assertEqual((funcs[0].addr_a, funcs[0].addr_b), (0x1100, 0x2100))
        text = explain.render('calib.x', ('O2', 'Os'), 'sim.instructions', total,
                              funcs, 3)
        self.assertIn('scale', text)
        self.assertIn('89%', text)       # 40 of 45

    def test_other_counter(self) -> None:
        total, funcs = explain.differences(DATA, 'calib.x', ('O2', 'Os'), 'sim.div')
        self.assertEqual((total, funcs[0].name), (1, 'scale'))

    def test_errors_name_the_valid_choices(self) -> None:
        with self.assertRaisesRegex(explain.ExplainError, 'variants: O2, Os'):
            explain.differences(DATA, 'calib.x', ('O2', 'O3'), 'sim.instructions')
        with self.assertRaisesRegex(explain.ExplainError, 'sim.rep_movs'):
            explain.differences(DATA, 'calib.x', ('O2', 'Os'), 'sim.cycles')


# 'listed' is in O2's table only; Os ran it too, but below the functions its
# table lists: its figure is inside Os's (other) row. 'gone' is in O2's
# table only and Os's (other) has no counts: a known 0.
PARTIAL = {'results': [
    {'bench': 'calib.y', 'variant': 'O2', 'footprint': None, 'sim_functions': table(
        {'big': (500, 0, 0, 0x1000), 'listed': (300, 0, 0, 0x1100),
         'small': (10, 0, 0, 0x1200)}, 50)},
    {'bench': 'calib.y', 'variant': 'Os', 'footprint': None, 'sim_functions': table(
        {'big': (420, 0, 0, 0x2000), 'small': (12, 0, 0, 0x2200)}, 290)},
    {'bench': 'calib.z', 'variant': 'O2', 'footprint': None, 'sim_functions': table(
        {'gone': (300, 0, 0, 0x1000)}, 0)},
    {'bench': 'calib.z', 'variant': 'Os', 'footprint': None, 'sim_functions': table(
        {'kept': (100, 0, 0, 0x2000)}, 0)},
]}


class NotListed(unittest.TestCase):
    """A function missing from one variant's listed rows is not a 0 there
    when that variant's (other) row holds counts."""

    def test_unknown_side(self) -> None:
        total, funcs = explain.differences(PARTIAL, 'calib.y', ('O2', 'Os'),
                                           'sim.instructions')
        self.assertEqual(total, (420 + 12 + 290) - (500 + 300 + 10 + 50))
        by = {f.name: f for f in funcs}
        self.assertEqual(by['listed'].unknown, 'Os')
        self.assertIsNone(by['big'].unknown)
        # ranked by its one known figure, 300: ahead of (other)'s +240 and big's -80
        self.assertEqual([f.name for f in funcs], ['listed', '(other)', 'big', 'small'])
        text = explain.render('calib.y', ('O2', 'Os'), 'sim.instructions', total, funcs, 4)
        row = next(line for line in text.splitlines() if line.startswith('listed'))
        # Os lists fewer than ten: only its (other) row bounds the figure
        self.assertEqual(row.split()[:4], ['listed', '300.0', '<=', '290.0'])
        self.assertIn('?', row)
        self.assertNotIn('%', row)
        self.assertIn("<= X: not among that variant's listed functions", text)

    def test_bound_of_an_unlisted_function(self) -> None:
        """Above the n-th listed figure of a column every function is
        listed (ten by the first column, three by each other), so an
        unlisted one has at most that figure, and at most the (other) sum."""
        rows = {f'f{i}': (100 - i, 9 - i if i < 4 else 0, 0, 0x1000 + i) for i in range(12)}
        t = table(rows, 500)
        t['other']['div'] = 20
        self.assertEqual(explain.unlisted_bound(t, 'instructions'), 91)   # the 10th
        self.assertEqual(explain.unlisted_bound(t, 'div'), 7)             # the 3rd
        self.assertEqual(explain.unlisted_bound(table(rows, 50), 'instructions'), 50)
        self.assertEqual(explain.unlisted_bound(table({'a': (5, 0, 0, 1)}, 50),
                                                'instructions'), 50)

    def test_known_zero(self) -> None:
        _, funcs = explain.differences(PARTIAL, 'calib.z', ('O2', 'Os'), 'sim.instructions')
        self.assertEqual({f.name: f.unknown for f in funcs},
                         {'gone': None, 'kept': None, '(other)': None})
        text = explain.render('calib.z', ('O2', 'Os'), 'sim.instructions', -200, funcs, 3)
        self.assertNotIn('in other', text)

    def test_absent_from_the_program(self) -> None:
        """A variant's own program that does not define the function at all
        makes its figure a known 0 (inlined there); one that defines it
        leaves it unknown."""
        _, funcs = explain.differences(PARTIAL, 'calib.y', ('O2', 'Os'), 'sim.instructions')
        o2 = explain.Symbols({0x1000: 8, 0x1100: 8, 0x1200: 8},
                             {'big': (0x1000, 8), 'listed': (0x1100, 8), 'small': (0x1200, 8)})
        without = explain.Symbols({0x2000: 8, 0x2200: 8}, {'big': (0x2000, 8),
                                                           'small': (0x2200, 8)})
        with_it = explain.Symbols({0x2000: 8, 0x2100: 8, 0x2200: 8},
                                  {'big': (0x2000, 8), 'listed': (0x2100, 8),
                                   'small': (0x2200, 8)})
        progs = (Path('/o2'), Path('/os'))
        for os_syms, unknown in ((with_it, 'Os'), (without, None)):
            for f in funcs:
                f.unknown = 'Os' if f.name == 'listed' else None
            with mock.patch.object(explain, '_readable_symbols',
                                   side_effect=lambda e, s=os_syms: o2 if e == progs[0] else s), \
                    mock.patch.object(explain, 'disassemble', return_value=[]):
                explain.annotate(funcs, progs, ('O2', 'Os'), 4)
            listed = next(f for f in funcs if f.name == 'listed')
            self.assertEqual(listed.unknown, unknown)
        # a known 0 now: ranked by its difference, -300, still first
        self.assertEqual([f.name for f in funcs], ['listed', '(other)', 'big', 'small'])


class Excerpt(unittest.TestCase):
    def test_injected_div_is_found(self) -> None:
        o2 = ['1100: mov %edi,%eax', '1102: imul $0x2aaaaaab,%rax,%rax', '1109: ret']
        os_ = ['2100: mov %edi,%eax', '2102: xor %edx,%edx', '2104: div %ecx',
               '2106: ret']
        lines = explain.excerpt(o2, os_, ('O2', 'Os'))
        self.assertIn('div: 0 in O2, 1 in Os; in Os:', lines)
        self.assertIn('    2104: div %ecx', lines)
        self.assertFalse(any(line.startswith('call') for line in lines))

    def test_rep_movs_against_moves(self) -> None:
        o2 = ['1000: movdqu (%rsi),%xmm0', '1004: movups %xmm0,(%rdi)', '1008: ret']
        os_ = ['2000: mov $0x5,%ecx', '2005: rep movsl %ds:(%rsi),%es:(%rdi)',
               '2007: ret']
        lines = explain.excerpt(o2, os_, ('O2', 'Os'))
        self.assertIn('rep movs: 0 in O2, 1 in Os; in Os:', lines)

    def test_cold_block_in_line(self) -> None:
        # check_hdr as GCC 12 builds it: -O2 falls through to the return and
        # keeps the error path past it; -Os jumps around the error path
        o2 = ['190: cmp $0xdeadbeef,%esi', '196: je 1c0 <check_hdr+0x30>',
              '198: and $0x1,%eax', '1a0: ja 1c0 <check_hdr+0x30>',
              '1a2: pop %rbx', '1a3: ret', '1c0: call 170 <report_bad_hdr>',
              '1c5: mov $0xffffffb9,%eax', '1ca: pop %rbx', '1cb: ret']
        os_ = ['cf8: cmp $0xdeadbeef,%esi', 'cfe: je d0e <check_hdr+0x23>',
               'd00: and $0x1,%eax', 'd0c: jbe d2d <check_hdr+0x42>',
               'd13: call ccf <report_bad_hdr>', 'd28: mov $0xffffffb9,%eax',
               'd2d: pop %rbx', 'd31: ret']
        self.assertEqual(explain.inline_cold_blocks(o2), [])
        # a jump out of the function (to its .cold part) is not in line
        self.assertEqual(explain.inline_cold_blocks(
            ['100: jne 900 <f.cold>', '106: call 170 <g>', '10b: ret']), [])
        self.assertEqual(explain.inline_cold_blocks(os_), ['d0c: jbe d2d <check_hdr+0x42>'])
        lines = explain.excerpt(o2, os_, ('O2', 'Os'))
        self.assertIn('branch around a call: 0 in O2, 1 in Os; in Os:', lines)

    def test_copy_not_found(self) -> None:
        """A side whose copy could not be found is not a copy with no
        instructions: no pattern is compared against it."""
        self.assertEqual(explain.excerpt(['1: div %ecx', '3: ret'], None, ('O2', 'Os')),
                         ["2 instructions in O2; Os's copy not found"])
        self.assertEqual(explain.excerpt(None, ['1: ret'], ('O2', 'Os')),
                         ["1 instructions in Os; O2's copy not found"])

    def test_objdump_lines(self) -> None:
        m = explain.INSN_RE.match('ffffffff8022b1c5:\tcall   ffffffff8022b170 <f>')
        self.assertEqual(m.groups(), ('ffffffff8022b1c5', 'call   ffffffff8022b170 <f>'))


class Command(unittest.TestCase):
    def run_cli(self, *argv: str) -> tuple[int, str, str]:
        out, err = io.StringIO(), io.StringIO()
        with redirect_stdout(out), redirect_stderr(err):
            status = cli.main(list(argv))
        return status, out.getvalue(), err.getvalue()

    def test_command(self) -> None:
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / 'results.json'
            path.write_text(json.dumps(DATA))
            none = Path(tmp) / 'none.elf'
            with mock.patch.object(paths, 'kernel_path', return_value=none):
                status, out, _ = self.run_cli('explain', str(path), '--bench', 'calib.x')
            self.assertEqual(status, 0)
            self.assertIn('calib.x: sim.instructions per run, Os - O2 = +45.0', out)
            self.assertIn(f'(sizes and disassembly unavailable: no symbols in {none})', out)
            for elf, why in ((none, 'No such file'), (path, 'not an ELF program')):
                status, _, err = self.run_cli('explain', str(path), '--bench', 'calib.x',
                                              '--elf', str(elf))
                self.assertEqual(status, 2)
                self.assertIn(why, err)
            status, _, err = self.run_cli('explain', str(path), '--bench', 'calib.x',
                                          '--variants', 'O2')
            self.assertEqual(status, 2)
            self.assertIn('two different variants', err)
            status, _, err = self.run_cli('explain', str(path), '--bench', 'nope')
            self.assertEqual(status, 2)
            self.assertIn('benches: calib.x', err)


if __name__ == '__main__':
    unittest.main()
