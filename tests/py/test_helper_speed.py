# SPDX-License-Identifier: GPL-2.0-or-later
"""tools/probes/helper_speed.py: which objects it times for a variant (the
host objects build.ninja names), how it reads the timing program and
prints its table, its option errors, and one real run on the build's O2
objects."""
from __future__ import annotations

import importlib.util
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PROBE = ROOT / 'tools' / 'probes' / 'helper_speed.py'

spec = importlib.util.spec_from_file_location('helper_speed', PROBE)
helper_speed = importlib.util.module_from_spec(spec)
spec.loader.exec_module(helper_speed)

NINJA = """\
build bench/host_variant_0.o: CUSTOM_COMMAND_DEP ../lib/string.c
 COMMAND = /usr/bin/python3 ../tools/build/build_variant.py --name O2 --index 0 --cc gcc \
--flags=-O2 '--cflags=-ffreestanding$ -Ifoo' --target host --profile-dir=- --layout=- \
--out bench/host_variant_0.o --private-dir bench/host_variant_0.o.p ../lib/string.c
build bench/variant_1.o: CUSTOM_COMMAND_DEP ../lib/string.c
 COMMAND = /usr/bin/python3 ../tools/build/build_variant.py --name Os --index 1 --cc gcc \
--flags=-Os '--cflags=-ffreestanding$ -Ifoo' --target kernel --profile-dir=- --layout=- \
--out bench/variant_1.o --private-dir bench/variant_1.o.p ../lib/string.c
build bench/host_variant_2.o: CUSTOM_COMMAND_DEP ../lib/string.c
 COMMAND = /usr/bin/python3 ../tools/build/build_variant.py --name clang-O2 --index 2 \
--cc clang '--flags=-O2 -funroll-loops' '--cflags=-ffreestanding$ -Ifoo' --target host \
--profile-dir=- --layout=- --out bench/host_variant_2.o --private-dir bench/host_variant_2.o.p x.c
"""


def samples(ticks: dict[str, list[float]]) -> dict:
    """Rounds of one size (64) whose three helpers all took `ticks`."""
    return {name: [{(h, 64): t for h in helper_speed.HELPERS} for t in runs]
            for name, runs in ticks.items()}


class Objects(unittest.TestCase):
    def test_host_variants_only(self) -> None:
        found = helper_speed.host_variants(NINJA, Path('/b'))
        self.assertEqual(list(found), ['O2', 'clang-O2'])   # Os: a kernel object
        self.assertEqual(found['clang-O2'],
                         ('bench/host_variant_2.o', Path('/b/bench/host_variant_2.o.p')))

    def test_helper_objects(self) -> None:
        with tempfile.TemporaryDirectory() as tmp:
            priv = Path(tmp)
            for name in ('000_arp.o', '001_checksum.o', '041_string.o', '041_string.d',
                         '042_stringx.o', '040_string_asm.o'):
                (priv / name).write_bytes(b'')
            self.assertEqual([p.name for p in helper_speed.helper_objects(priv)],
                             ['041_string.o', '040_string_asm.o', '001_checksum.o'])
            (priv / '001_checksum.o').unlink()
            with self.assertRaisesRegex(LookupError, r'no checksum\.o in'):
                helper_speed.helper_objects(priv)


class Output(unittest.TestCase):
    def test_parse(self) -> None:
        self.assertEqual(helper_speed.parse_output('memcpy 20 5.50\ncsum 20 6.25\n'),
                         {('memcpy', 20): 5.5, ('csum', 20): 6.25})

    def test_table_ratio_and_interval(self) -> None:
        lines = helper_speed.table(samples({'O2': [10.0, 10.0, 10.0, 10.0, 10.0],
                                            'fast': [5.0, 5.0, 5.0, 5.0, 5.0]}), [64])
        text = '\n'.join(lines)
        self.assertIn('memcpy (out of line: lib/string.c or arch/x86/string_asm.c):', lines)
        memcpy_row = lines[lines.index('memcpy (out of line: lib/string.c or arch/x86/string_asm.c):') + 2]
        self.assertEqual(memcpy_row.split(), ['64', '10.0', '5.0', '(0.50', '[0.50,', '0.50])'])
        # the in-line rep movsb: one column, no ratio
        rep = lines.index(helper_speed.HELPER_TEXT['repmovsb'] + ':')
        self.assertEqual(lines[rep + 1].split(), ['bytes', 'ticks'])
        self.assertEqual(lines[rep + 2].split(), ['64', '10.0'])
        self.assertEqual(text.count('(0.50'), 2)

    def test_table_no_interval_from_one_round(self) -> None:
        lines = helper_speed.table(samples({'O2': [8.0], 'x': [6.0]}), [64])
        self.assertIn('6.0 (0.75)', ' '.join(lines))
        self.assertNotIn('[', ' '.join(lines))


class Spread(unittest.TestCase):
    def test_named_above_the_limit(self) -> None:
        notes = helper_speed.spread_notes(samples({'O2': [130.0, 172.0, 131.0],
                                                   'x': [60.0, 62.0, 61.0]}), [64])
        self.assertIn('differ by more than 15%', notes[0])
        # every helper of O2 (the timing program's three), none of x
        self.assertEqual(notes[1:], [f'{h} 64 B, O2: rounds from 130.0 to 172.0 ticks (3 rounds)'
                                     for h in helper_speed.HELPERS])

    def test_none_within(self) -> None:
        self.assertEqual(helper_speed.spread_notes(samples({'O2': [100.0, 114.0]}), [64]), [])


class Options(unittest.TestCase):
    def fails(self, *argv: str) -> str:
        r = subprocess.run([sys.executable, str(PROBE), *argv], capture_output=True,
                           text=True, check=False)
        self.assertEqual(r.returncode, 2, r.stderr)
        self.assertEqual(r.stdout, '')
        return r.stderr

    def test_errors(self) -> None:
        self.assertIn('--rounds 0 is not 1 to 100', self.fails('--rounds', '0'))
        self.assertIn('every size must be 1 to 4096', self.fails('--sizes', '20,5000'))
        self.assertIn('is not a comma-separated list', self.fails('--sizes', '20,abc'))
        self.assertIn('one or more distinct names', self.fails('--variants', 'O2,O2'))
        self.assertIn('not one of the CPUs allowed', self.fails('--cpu', '4096'))
        self.assertIn("invalid choice: 'odd'", self.fails('--dst', 'odd'))


class RealRun(unittest.TestCase):
    def test_o2_helpers(self) -> None:
        """The build's own O2 host objects, linked and timed once."""
        try:
            built = helper_speed.host_variants((helper_speed.BUILD / 'build.ninja').read_text())
        except OSError:
            self.skipTest('no build/build.ninja')
        if 'O2' not in built:
            self.skipTest('the configured table has no O2')
        for dst, said in (('mixed', '0 to 7 bytes past an 8-byte boundary'),
                          ('aligned', 'destinations 8-byte aligned')):
            r = subprocess.run([sys.executable, str(PROBE), '--variants', 'O2', '--rounds', '1',
                                '--sizes', '64,1460', '--dst', dst],
                               capture_output=True, text=True, check=False)
            self.assertEqual(r.returncode, 0, r.stderr)
            lines = r.stdout.splitlines()
            self.assertIn('the median over 1 round of the best', lines[0])
            self.assertIn(said, lines[0])
            self.assertNotIn('in brackets', lines[0])
            rows = [line.split() for line in lines if line.strip()[:1].isdigit()]
            self.assertEqual([row[0] for row in rows], ['64', '1460'] * 3)
            for row in rows:
                self.assertGreater(float(row[1]), 0.0, row)
            # a copy of 1460 bytes takes longer than one of 64, in every helper
            for k in range(0, 6, 2):
                self.assertGreater(float(rows[k + 1][1]), float(rows[k][1]))

    def test_unknown_variant(self) -> None:
        r = subprocess.run([sys.executable, str(PROBE), '--variants', 'O2,no-such'],
                           capture_output=True, text=True, check=False)
        if 'build.ninja' in r.stderr:
            self.skipTest('no build')
        self.assertEqual(r.returncode, 1)
        self.assertIn(f'no host objects for no-such in {helper_speed.BUILD} ', r.stderr)
        self.assertIn('(built: O2', r.stderr)

    def test_other_build_dir(self) -> None:
        with tempfile.TemporaryDirectory() as tmp:
            r = subprocess.run([sys.executable, str(PROBE), '--build', tmp],
                               capture_output=True, text=True, check=False)
            self.assertEqual(r.returncode, 1)
            self.assertIn(f'no {Path(tmp).resolve()}/build.ninja', r.stderr)
            self.assertEqual(r.stdout, '')


if __name__ == '__main__':
    unittest.main()
