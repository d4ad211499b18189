# SPDX-License-Identifier: GPL-2.0-or-later
"""shift = N in a variant table: the variant's code starts N bytes into
its page (tools/build/variants.py, build_variant.py's linker script), so
the same code can be measured at other offsets (docs/measurement.md,
"Where each variant's code lies")."""
from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

from kfront import flags, paths, report
from tests.py.test_report import build as report_fixture

sys.path.insert(0, str(paths.ROOT / 'tools' / 'build'))
import build_variant  # noqa: E402
import variants  # noqa: E402


class VariantShift(unittest.TestCase):
    def setUp(self) -> None:
        self.tmp = tempfile.TemporaryDirectory()
        self.dir = Path(self.tmp.name)

    def tearDown(self) -> None:
        self.tmp.cleanup()

    def table(self, body: str) -> list[variants.Variant]:
        ini = self.dir / 'v.ini'
        ini.write_text(body)
        return variants.load(ini)

    def test_read_and_passed_to_meson(self) -> None:
        table = self.table('[O2]\nflags = -O2\n[O2.s64]\nflags = -O2\nshift = 64\n'
                           '[O2.s4032]\nflags = -O2\nshift = 0xfc0\n')
        self.assertEqual([v.shift for v in table], [0, 64, 4032])
        lines = variants.meson_lines(table, self.dir / 'build')
        self.assertEqual([ln.split('\t')[5] for ln in lines], ['0', '64', '4032'])

    def test_bad_shifts(self) -> None:
        for value in ('63', '4096', '-64', 'x', ''):
            with self.subTest(value=value), \
                    self.assertRaisesRegex(variants.VariantError,
                                           r'shift = .*: expected a multiple of 64 '
                                           r'from 0 to 4032'):
                self.table(f'[a]\nflags = -O2\nshift = {value}\n')

    def test_kfront_flags_keeps_it(self) -> None:
        """A candidate table written by kfront flags reads back the same."""
        table = self.table('[a]\nflags = -O2\nshift = 128\n[b]\nflags = -Os\n')
        out = self.dir / 'batch.ini'
        flags.write_table(table, out)
        self.assertEqual([(v.name, v.shift) for v in variants.load(out)],
                         [('a', 128), ('b', 0)])

    def test_recorded_in_the_descriptor(self) -> None:
        """The descriptor carries it, so suite_begin's variants list says
        `shift` for a shifted variant (bench/harness/suite.c) and a
        report's variant table says so beside the flags."""
        entry = self.dir / 'entry.c'
        build_variant.write_entry(entry, 'O2.s64', 'gcc 12', '-O2', [], 64)
        self.assertIn('\t.shift = 64,\n', entry.read_text())
        build_variant.write_entry(entry, 'O2', 'gcc 12', '-O2', [])
        self.assertIn('\t.shift = 0,\n', entry.read_text())
        doc = report_fixture('clean')
        doc.variants = [{'name': 'O2', 'cc': 'gcc', 'flags': '-O2'},
                        {'name': 'b', 'cc': 'gcc', 'flags': '-O2', 'shift': 64}]
        table = report._variant_table(doc)
        cells = [[c.text for c in row] for row in table.rows]
        self.assertEqual(cells[0][2], '-O2')
        self.assertEqual(cells[1][2], '-O2 (code shifted 64 bytes: shift =)')

    def test_no_shift_links_as_before(self) -> None:
        self.assertNotIn('. +=', build_variant.linker_script('v00_O2'))
        self.assertIn('. += 192;', build_variant.linker_script('v00_O2', 192))

    @unittest.skipUnless(shutil.which('gcc') and shutil.which('ld'), 'needs gcc and ld')
    def test_the_code_starts_that_far_in(self) -> None:
        """Linked with the variant's script, the code's start symbol lies
        `shift` bytes into the variant's text section, the code unchanged."""
        src = self.dir / 'f.c'
        src.write_text('int f(int x) { return x * 3 + 1; }\n')
        obj = self.dir / 'f.o'
        subprocess.run(['gcc', '-O2', '-c', str(src), '-o', str(obj)], check=True)
        starts = {}
        for shift in (0, 320):
            script = self.dir / f'v{shift}.ld'
            script.write_text(build_variant.linker_script('v00_x', shift))
            out = self.dir / f'v{shift}.o'
            subprocess.run(['ld', '-r', '-T', str(script), '-o', str(out), str(obj)],
                           check=True)
            nm = subprocess.run(['nm', str(out)], capture_output=True, text=True,
                                check=True).stdout
            syms = {p[2]: int(p[0], 16) for p in (ln.split() for ln in nm.splitlines())
                    if len(p) == 3}
            starts[shift] = (syms['__kfv_text_start'], syms['f'] - syms['__kfv_text_start'])
        self.assertEqual(starts[0][0], 0)
        self.assertEqual(starts[320][0], 320)
        self.assertEqual(starts[0][1], starts[320][1])


if __name__ == '__main__':
    unittest.main()
