# SPDX-License-Identifier: GPL-2.0-or-later
"""What each compiler variant made of the measured code (issue 5): the
hybrid keeps small constant copies as plain moves and unlikely() paths out
of the hot path, and its text is smaller than O2's. Os is checked to show
the opposite, so the test can tell the difference at all.

Every variant also carries only code that can run (issue 16): the
variants are linked with section garbage collection, and a function no
benchmark reaches would skew the size comparison."""
from __future__ import annotations

import importlib.util
import re
import subprocess
import unittest
from pathlib import Path

from kfront import build, paths, size


def disassemble(obj: Path, function: str) -> list[str]:
    out = subprocess.run(['objdump', '-d', '--no-show-raw-insn', str(obj)],
                         check=True, capture_output=True, text=True).stdout
    lines, inside = [], False
    for line in out.splitlines():
        if re.match(rf'^[0-9a-f]+ <{re.escape(function)}>:$', line):
            inside = True
            continue
        if inside and not line.strip():
            break
        if inside:
            lines.append(line.split(':', 1)[1].strip() if ':' in line else line)
    return lines


def hot_path(lines: list[str]) -> list[str]:
    """Instructions up to and including the first ret."""
    for i, ins in enumerate(lines):
        if ins.startswith('ret'):
            return lines[:i + 1]
    return lines


class VariantCode(unittest.TestCase):
    objects: dict[str, Path] = {}
    sizes: dict[str, dict] = {}
    analyses: dict[str, size.VariantSize] = {}

    @classmethod
    def setUpClass(cls) -> None:
        if not build.build():
            raise RuntimeError('build failed')
        for obj in size.variant_objects():
            v = size.analyze(obj)
            cls.objects[v.name] = obj
            cls.analyses[v.name] = v
            cls.sizes[v.name] = v.to_dict()
        missing = {'O2', 'Os', 'hybrid'} - set(cls.objects)
        if missing:
            raise unittest.SkipTest(f'variants {missing} not in this build')

    def test_small_constant_copy(self) -> None:
        # calib.memcpy20's 20-byte copy: Linus's 2011 example
        self.assertTrue(any('rep movs' in i for i in disassemble(self.objects['Os'], 'copy_hdr')))
        for v in ('O2', 'hybrid'):
            code = disassemble(self.objects[v], 'copy_hdr')
            self.assertTrue(code, f'{v}: copy_hdr not found')
            self.assertFalse(any('rep movs' in i for i in code), f'{v}: {code}')
            self.assertFalse(any(i.startswith(('call', 'jmp')) for i in code), f'{v}: {code}')

    def test_hybrid_adds_no_rep_movs(self) -> None:
        # O2 itself keeps rep movsq for a few large struct copies; the
        # hybrid must add none, while Os adds many for small ones.
        self.assertLessEqual(self.sizes['hybrid']['rep_movs'], self.sizes['O2']['rep_movs'])
        self.assertGreater(self.sizes['Os']['rep_movs'], self.sizes['O2']['rep_movs'])

    def test_unlikely_path_out_of_line(self) -> None:
        # calib.unlikely's check_hdr: the hot path reaches ret with no call
        os_hot = hot_path(disassemble(self.objects['Os'], 'check_hdr'))
        self.assertTrue(any(i.startswith('call') for i in os_hot), os_hot)
        for v in ('O2', 'hybrid'):
            hot = hot_path(disassemble(self.objects[v], 'check_hdr'))
            self.assertTrue(hot and hot[-1].startswith('ret'), f'{v}: {hot}')
            self.assertFalse(any(i.startswith('call') for i in hot), f'{v}: {hot}')

    def test_hybrid_smaller_than_o2(self) -> None:
        self.assertLess(self.sizes['hybrid']['text'], self.sizes['O2']['text'])
        # no alignment padding to speak of (a few nops come from assembly)
        self.assertLess(self.sizes['hybrid']['padding_bytes'],
                        self.sizes['O2']['padding_bytes'] / 100)

    def test_no_unreachable_measured_function(self) -> None:
        for name, v in self.analyses.items():
            with self.subTest(variant=name):
                self.assertEqual(v.unreachable, [], f'{name}: functions no '
                                 'benchmark reaches are in the variant')
                self.assertEqual(self.sizes[name]['reachable_text'],
                                 sum(f.size for f in v.functions.values()))

    def test_run_functions_before_cold_code(self) -> None:
        # A benchmark's run() is normal code, never placed among the
        # cold parts (calib.unlikely's is unlikely_run, whose section
        # .text.unlikely_run only looks like .text.unlikely.*).
        for name, v in self.analyses.items():
            cold = [v.starts[f] for f in v.starts if f.endswith('.cold')]
            if not cold:
                continue
            with self.subTest(variant=name):
                late = sorted(fn for fn in v.bench_runs.values()
                              if v.starts[fn] > min(cold))
                self.assertEqual(late, [])

    def test_cold_parts_after_their_functions(self) -> None:
        # Function sections must not reorder the layout: the unlikely
        # parts (NAME.cold) still come after every normal function that
        # has one, hot code first and cold code last.
        for name, v in self.analyses.items():
            cold = [f for f in v.starts if f.endswith('.cold')]
            parents = [f[:-len('.cold')] for f in cold
                       if f[:-len('.cold')] in v.starts]
            if not cold or not parents:
                continue
            with self.subTest(variant=name):
                self.assertLess(max(v.starts[f] for f in parents),
                                min(v.starts[f] for f in cold))


class PlacedText(unittest.TestCase):
    """Which function sections build_variant.py leaves in place (hot,
    unlikely, startup) and which it returns to plain .text."""

    @classmethod
    def setUpClass(cls) -> None:
        path = paths.ROOT / 'tools' / 'build' / 'build_variant.py'
        spec = importlib.util.spec_from_file_location('build_variant', path)
        assert spec and spec.loader
        cls.bv = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(cls.bv)

    def test_placed_sections(self) -> None:
        for name in ('.text.hot', '.text.hot.f', '.text.unlikely',
                     '.text.unlikely.f', '.text.startup.main'):
            self.assertTrue(self.bv.is_placed_text(name), name)

    def test_functions_named_like_a_placement_are_normal(self) -> None:
        for name in ('.text.unlikely_run', '.text.hotplug', '.text.startup_x',
                     '.text.f'):
            self.assertFalse(self.bv.is_placed_text(name), name)


if __name__ == '__main__':
    unittest.main()
