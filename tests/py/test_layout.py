# SPDX-License-Identifier: GPL-2.0-or-later
"""C3 function ordering (tools/kfront/layout.py) on hand-made call graphs,
the order file's staleness rules (pgo_profile.load_layout), and the
section renames that apply an order (build_variant.ordered_renames)."""
from __future__ import annotations

import json
import shutil
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

from kfront import layout, paths, pgo_layout, sim

sys.path.insert(0, str(paths.ROOT / 'tools' / 'build'))
import build_variant  # noqa: E402
import pgo_profile  # noqa: E402
import variants  # noqa: E402


def chain_graph() -> layout.Graph:
    """main calls f once; f calls g 10 times and h 3 times; g calls k
    each time; cold is never run. Original order puts cold in between."""
    g = layout.Graph()
    for name in ('main', 'h', 'cold', 'k', 'f', 'g'):
        g.sizes[name] = 100
    g.heat = {'main': 5, 'f': 50, 'g': 100, 'h': 20, 'k': 80}
    g.calls = {('main', 'f'): 1, ('f', 'g'): 10, ('f', 'h'): 3, ('g', 'k'): 10}
    return g


class C3Order(unittest.TestCase):
    def test_callers_before_callees(self) -> None:
        # g joins f (its caller), k joins g's cluster, f's cluster joins
        # main's, h joins the same: one chain in call order, cold last
        self.assertEqual(layout.c3(chain_graph()),
                         ['main', 'f', 'g', 'k', 'h', 'cold'])

    def test_size_limit(self) -> None:
        # at most 250 bytes per cluster: only f+g merge; clusters then go
        # densest first: k 0.8, f+g 0.75, h 0.2, main 0.05; cold last
        self.assertEqual(layout.c3(chain_graph(), max_cluster=250),
                         ['k', 'f', 'g', 'h', 'main', 'cold'])

    def test_cold_last_even_when_called_in_zero_runs(self) -> None:
        g = chain_graph()
        g.calls[('f', 'cold')] = 0
        order = layout.c3(g)
        self.assertEqual(order[-1], 'cold')
        self.assertEqual(sorted(order), sorted(g.sizes))

    def test_density_guard(self) -> None:
        # a hot small caller does not take in a big, nearly cold callee:
        # the merged cluster (1001 / 2010 B) would be under 1/8 of p's density
        g = layout.Graph(sizes={'p': 10, 'q': 10, 'big': 2000},
                         heat={'p': 1000, 'q': 50, 'big': 1},
                         calls={('p', 'big'): 1})
        self.assertEqual(layout.c3(g), ['p', 'q', 'big'])
        # without the guard they merge, and the diluted cluster goes after q
        self.assertEqual(layout.c3(g, degrade=10 ** 9), ['q', 'p', 'big'])

    def test_most_frequent_caller_wins_and_self_calls_ignored(self) -> None:
        g = layout.Graph(sizes={'a': 10, 'b': 10, 'c': 10},
                         heat={'a': 10, 'b': 10, 'c': 100},
                         calls={('a', 'c'): 2, ('b', 'c'): 5, ('c', 'c'): 99})
        self.assertEqual(layout.c3(g), ['b', 'c', 'a'])

    def test_deterministic_ties(self) -> None:
        g = layout.Graph(sizes={'x': 10, 'y': 10}, heat={'x': 1, 'y': 1})
        self.assertEqual(layout.c3(g), ['x', 'y'])


class FromSim(unittest.TestCase):
    def test_variant_functions_only(self) -> None:
        out = sim.SimOutput(models=[], func_columns=['func', 'insns', 'bytes'])
        out.funcs = {1: ('f', 100), 2: ('g', 200), 3: ('g', 900),  # 3: other variant
                     4: ('region_begin', 300)}
        out.calls = [(1, 2, 7), (1, 3, 5), (1, 4, 2)]
        out.regions = {0: {'funcs': [[1, 40, 0], [2, 30, 0], [3, 99, 0]]},
                       1: {'funcs': [[1, 2, 0]]}}
        g = layout.from_sim(out, {'f': 16, 'g': 32}, (0, 500))
        self.assertEqual(g.heat, {'f': 42, 'g': 30})
        self.assertEqual(g.calls, {('f', 'g'): 7})
        self.assertEqual(list(g.sizes), ['f', 'g'])


class OrderFile(unittest.TestCase):
    def setUp(self) -> None:
        self.tmp = tempfile.TemporaryDirectory()
        self.root = Path(self.tmp.name) / 'tree'
        (self.root / 'lib').mkdir(parents=True)
        (self.root / 'lib' / 'a.c').write_text('int a;\n')
        (self.root / 'tools' / 'build').mkdir(parents=True)
        (self.root / 'tools' / 'build' / 'build_variant.py').write_text('#\n')
        self.pdir = Path(self.tmp.name) / 'pgo' / 'net'
        (self.pdir / 'gcda').mkdir(parents=True)
        (self.pdir / 'gcda' / 'a.gcda').write_bytes(b'x')
        self.meta = {'train': 'net.*', 'tree': pgo_profile.tree_hash(self.root),
                     'checksum': pgo_profile.gcda_checksum(self.pdir / 'gcda')}
        (self.pdir / 'profile.json').write_text(json.dumps(self.meta))

    def tearDown(self) -> None:
        self.tmp.cleanup()

    def test_fresh_order_loads(self) -> None:
        info = layout.write(self.pdir, ['f', 'g'], chain_graph(), self.meta)
        self.assertEqual(pgo_profile.load_layout(self.pdir, self.root), ['f', 'g'])
        self.assertEqual(info['profile_checksum'], self.meta['checksum'])

    def test_missing_order(self) -> None:
        with self.assertRaisesRegex(pgo_profile.ProfileError,
                                    r"no function order.*kfront pgo --train 'net\.\*'"):
            pgo_profile.load_layout(self.pdir, self.root)

    def test_order_of_another_profile_is_stale(self) -> None:
        layout.write(self.pdir, ['f'], chain_graph(), self.meta)
        (self.pdir / 'gcda' / 'a.gcda').write_bytes(b'y')   # retrained
        meta = dict(self.meta, checksum=pgo_profile.gcda_checksum(self.pdir / 'gcda'))
        (self.pdir / 'profile.json').write_text(json.dumps(meta))
        with self.assertRaisesRegex(pgo_profile.ProfileError, 'another profile'):
            pgo_profile.load_layout(self.pdir, self.root)

    def test_edited_order_is_refused(self) -> None:
        layout.write(self.pdir, ['f', 'g'], chain_graph(), self.meta)
        (self.pdir / 'layout.txt').write_text('g\nf\n')
        with self.assertRaisesRegex(pgo_profile.ProfileError, 'changed'):
            pgo_profile.load_layout(self.pdir, self.root)

    def test_stale_tree(self) -> None:
        layout.write(self.pdir, ['f'], chain_graph(), self.meta)
        (self.root / 'lib' / 'a.c').write_text('int b;\n')
        with self.assertRaisesRegex(pgo_profile.ProfileError, 'another source tree'):
            pgo_profile.load_layout(self.pdir, self.root)


    def test_variant_table(self) -> None:
        """[pgo-layout] (layout = c3) is left out until its order exists,
        then built with it; an order gone stale leaves it out again."""
        ini = Path(self.tmp.name) / 'v.ini'
        ini.write_text('[O2]\nflags = -O2\n[pgo-layout]\nflags = -O2 -fprofile-use\n'
                       'profile = net.*\nlayout = c3\n')
        build = Path(self.tmp.name)
        table = variants.load(ini)
        lines = variants.meson_lines(table, build, self.root)
        self.assertRegex(lines[1], r"^#note\tvariant pgo-layout left out of the image: "
                         r"no function order.*kfront pgo --train 'net\.\*'")
        layout.write(self.pdir, ['f'], chain_graph(), self.meta)
        lines = variants.meson_lines(table, build, self.root)
        self.assertEqual(lines[1].split('\t')[3:], [str(self.pdir), str(self.pdir / 'layout.txt'), '0'])
        (self.pdir / 'layout.txt').write_text('g\n')
        self.assertIn('changed', variants.left_out(table, build, self.root)['pgo-layout'])

    def test_bad_layout_keys(self) -> None:
        ini = Path(self.tmp.name) / 'v.ini'
        for body, why in (('profile = net.*\nlayout = hfsort\n', 'valid: c3'),
                          ('layout = c3\n', 'needs a profile')):
            ini.write_text('[x]\nflags = -O2 -fprofile-use\n' + body)
            with self.assertRaisesRegex(variants.VariantError, why):
                variants.load(ini)


class Renames(unittest.TestCase):
    def test_bodies_numbered_cold_parts_placed_apart(self) -> None:
        secs = ['.text.f', '.text.hot.g', '.text.unlikely.g', '.text.unlikely.h',
                '.text.unlikely_run', '.text.other']
        got = build_variant.ordered_renames(secs, ['g', 'f', 'gone', 'h', 'g.cold'])
        self.assertEqual(got, {'.text.hot.g': ('.text.kfl.00000', 'g'),
                               '.text.f': ('.text.kfl.00001', 'f'),
                               '.text.unlikely.h': ('.text.kfl.00003', 'h'),
                               '.text.unlikely.g': ('.text.kfl.00004', 'g.cold')})
        # a function GCC made cold as a whole: that section is its body
        got = build_variant.ordered_renames(['.text.unlikely.d'], ['d'])
        self.assertEqual(got, {'.text.unlikely.d': ('.text.kfl.00000', 'd')})


SOURCE = """
__attribute__((noinline)) int a(int x) { return x * 3 + 1; }
__attribute__((noinline)) int b(int x) { return x ^ 0x55; }
__attribute__((noinline, hot)) int c(int x) { return x + 7; }
__attribute__((noinline, cold)) int d(int x) { return x - 9; }
__attribute__((noinline)) int e(int x) { return a(x) + b(x) + c(x) + d(x); }
int (*const kfront_variant[])(int) = { a, b, c, d, e };
"""


def text_order(obj: Path) -> list[str]:
    out = subprocess.run(['nm', '-n', str(obj)], capture_output=True, text=True,
                         check=True).stdout
    return [ln.split()[2] for ln in out.splitlines()
            if len(ln.split()) == 3 and ln.split()[1] in 'tT']


@unittest.skipUnless(shutil.which('gcc') and shutil.which('ld'), 'needs gcc and ld')
class LinkOrder(unittest.TestCase):
    """build_variant's two link passes put the ordered functions first, in
    the order (hot ones too), and the rest after them as before: normal,
    then cold."""

    def link(self, order: list[str]) -> list[str]:
        with tempfile.TemporaryDirectory() as tmp:
            work = Path(tmp)
            (work / 'v.c').write_text(SOURCE)
            subprocess.run(['gcc', '-O2', '-ffunction-sections', '-fdata-sections',
                            '-c', str(work / 'v.c'), '-o', str(work / 'v.o')], check=True)
            reached = build_variant.collect_garbage([str(work / 'v.o')], work, order)
            (work / 'v.ld').write_text(build_variant.linker_script('00.t'))
            subprocess.run(['ld', '-r', '-T', str(work / 'v.ld'), '-o',
                            str(work / 'out.o'), str(reached)], check=True)
            return [n for n in text_order(work / 'out.o') if not n.startswith('__kfv')]

    def test_order_applied(self) -> None:
        # e and d are whole cold functions (.text.unlikely.*): moved too
        self.assertEqual(self.link(['e', 'd', 'b', 'c', 'missing']), ['e', 'd', 'b', 'c', 'a'])

    def test_without_order(self) -> None:
        # hot first, then normal, cold last (the layout of every variant);
        # GCC makes e cold too, as it always calls the cold d
        self.assertEqual(self.link([]), ['c', 'a', 'b', 'd', 'e'])

    def test_built_image(self) -> None:
        """The built kernel image: pgo-layout's text starts with every
        function build_variant gave a numbered section, in the order of
        layout.txt (after `kfront pgo`; skipped before). Functions it
        cannot move are listed apart: assembly ones share .text."""
        elf = paths.kernel_path()
        orders = sorted((paths.BUILD / 'pgo').glob('*/layout.txt'))
        if not elf.exists() or not orders:
            self.skipTest('no pgo-layout build (run ./kfront pgo)')
        try:
            obj, index = pgo_layout.variant_object(paths.BUILD, 'pgo-layout')
        except pgo_layout.LayoutError as exc:
            self.skipTest(str(exc))
        lo, hi = pgo_layout.text_range(elf, index)
        out = subprocess.run(['nm', '-n', str(elf)], capture_output=True, text=True,
                             check=True).stdout
        placed = [p[2] for p in (ln.split() for ln in out.splitlines())
                  if len(p) == 3 and p[1] in 'tT' and lo <= int(p[0], 16) < hi
                  and not p[2].startswith('__kfv')]
        # a static name defined in two sources is one section: one entry
        placed = [f for i, f in enumerate(placed) if not i or placed[i - 1] != f]
        moved = {ln.split()[2] for ln in (obj.parent / f'{obj.name}.p' /
                                          'layout-sections.txt').read_text().splitlines()}
        order = [f for f in orders[0].read_text().splitlines() if f in moved]
        in_image = [f for f in orders[0].read_text().splitlines() if f in set(placed)]
        self.assertGreater(len(order), 0.95 * len(in_image))
        self.assertEqual(placed[:len(order)], order)


# The kernel's part of the measured path (__measured_path): what runs
# between a benchmark point's regions, besides the variants' own code.
MEASURED_PATH = {'arch_setjmp', 'counters_read_begin', 'counters_read_end',
                 'counters_delta', 'counters_tsc', 'counters_tsc_hz', 'watchdog_arm',
                 'watchdog_disarm', 'apic_write', 'native_wrmsr', 'pmu_delta',
                 'noop_run', 'measure', 'check_run', 'guarded', 'run_group',
                 'harness_run_order', 'harness_region_count'}
# The host harness's: the same harness, its own counters and watchdog
# (host/), and callgrind's region marks.
HOST_MEASURED_PATH = (MEASURED_PATH - {'apic_write', 'native_wrmsr', 'pmu_delta'}) | {
    'perf_read', 'vg_active', 'vg_region_begin', 'vg_region_end'}
# What the measured path may call outside itself: the report of a failed
# run, which ends the variant's point (and in the host programs the C
# library, through the PLT: its code does not move with ours).
MEASURED_PATH_EXITS = {'emit_error'}


def built(test: unittest.TestCase, elf: Path) -> Path:
    if not elf.exists():
        test.skipTest(f'{elf.name} not built (./kfront build)')
    return elf


def nm_sorted(elf: Path) -> str:
    return subprocess.run(['nm', '-n', '--defined-only', str(elf)], capture_output=True,
                          text=True, check=True).stdout


def functions_in(nm: str, start: int, end: int) -> set[str]:
    return {p[2] for p in (ln.split() for ln in nm.splitlines())
            if len(p) == 3 and p[1] in 'tT' and start <= int(p[0], 16) < end
            and not p[2].startswith('__')}


def calls_out_of(test: unittest.TestCase, elf: Path, start: int, end: int) -> set[str]:
    """The targets of direct calls and jumps from [start, end) that lie
    outside it. A function the range calls that lies elsewhere, or one that
    GCC inlined into a caller outside it, would move with other code."""
    dis = subprocess.run(['objdump', '-d', '--no-show-raw-insn',
                          f'--start-address={start:#x}', f'--stop-address={end:#x}',
                          str(elf)], capture_output=True, text=True, check=True).stdout
    inside, outside = 0, set()
    for ln in dis.splitlines():
        parts = ln.split('\t')
        if len(parts) < 2 or parts[1].split()[:1] not in (['call'], ['jmp']) \
                or '<' not in parts[1]:
            continue        # not a direct call or jump
        target = int(parts[1].split()[1], 16)
        if start <= target < end:
            inside += 1
        else:
            outside.add(parts[1][parts[1].index('<') + 1:].split('+')[0].rstrip('>'))
    test.assertGreater(inside, 10)      # the disassembly was read
    return outside


class VariantPlacement(unittest.TestCase):
    """Every variant's code starts on a page of the built kernel, so its
    cache sets and pages follow from its own code, not from the size of
    what is linked before it; the kernel code that runs between a point's
    regions comes first, so that no other kernel code moves any of it
    (docs/measurement.md)."""

    def measured_range(self) -> tuple[Path, int, int]:
        elf = built(self, paths.kernel_path())
        nm = nm_sorted(elf)
        start = next(int(ln.split()[0], 16) for ln in nm.splitlines()
                     if ln.endswith(' __text_start'))
        return elf, start, pgo_layout.text_range_of(nm, 0, str(elf))[0]

    def test_measured_path_comes_first(self) -> None:
        elf, start, first_variant = self.measured_range()
        self.assertEqual(functions_in(nm_sorted(elf), start, first_variant), MEASURED_PATH)
        # on the page just before the variants: a larger measured path
        # would push every variant by a page, which this test should name
        self.assertEqual(first_variant - start, build_variant.VARIANT_TEXT_ALIGN)

    def test_measured_path_calls_nothing_else(self) -> None:
        elf, start, end = self.measured_range()
        self.assertEqual(calls_out_of(self, elf, start, end), MEASURED_PATH_EXITS)

    def test_host_measured_path_has_a_page(self) -> None:
        # host/measured.ld: the same in the host harness's programs
        for name in ('kfront-host', 'kfront-host-O2'):
            with self.subTest(program=name):
                elf = built(self, paths.BUILD / 'host' / name)
                sec = subprocess.run(['readelf', '-SW', str(elf)], capture_output=True,
                                     text=True, check=True).stdout
                row = next(ln.split() for ln in sec.splitlines() if ' .text.measured ' in ln)
                start = int(row[row.index('.text.measured') + 2], 16)
                end = start + int(row[row.index('.text.measured') + 4], 16)
                self.assertEqual(start % build_variant.VARIANT_TEXT_ALIGN, 0)
                self.assertEqual(functions_in(nm_sorted(elf), start, end), HOST_MEASURED_PATH)
                outside = calls_out_of(self, elf, start, end)
                self.assertEqual({t for t in outside if not t.endswith('@plt')},
                                 MEASURED_PATH_EXITS)

    def test_each_variant_starts_on_a_page(self) -> None:
        elf = built(self, paths.kernel_path())
        nm = nm_sorted(elf)
        starts = []
        while True:
            try:
                starts.append(pgo_layout.text_range_of(nm, len(starts), str(elf))[0])
            except pgo_layout.LayoutError:
                break
        self.assertGreaterEqual(len(starts), 3)     # O2, Os, hybrid at least
        self.assertEqual([hex(a % build_variant.VARIANT_TEXT_ALIGN) for a in starts],
                         ['0x0'] * len(starts))


if __name__ == '__main__':
    unittest.main()
