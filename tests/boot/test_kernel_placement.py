# SPDX-License-Identifier: GPL-2.0-or-later
"""placement=: the kernel's code runs from a copy at the asked page of a
2 MiB-aligned physical region, at the same virtual addresses, and the
suite_begin record says where it ran. textpages=2m: the code is mapped
with 2 MiB pages, as Linux maps its text. The old copy is filled with int3
by the kernel, so a boot that ran any instruction from it would stop
with a #BP panic: a clean boot with a placement is itself the check that
every fetch moved."""
from __future__ import annotations

import functools
import subprocess
import unittest

from kfront import build, paths, qemu
from tests.boot.test_boot import USAGE_TIMEOUT, boot, records
from tests.py.elf_segments import PF_X, executable_segment, load_segments

REGION = 2 << 20
PAGE = 4096
# A few benchmarks of each kind, both footprints' code paths.
ARGS = ('bench=net.udp_rr,sched.ctxsw,mix.tcp_rr_wakeup', 'variant=O2,Os',
        'quick', 'runs=3', 'warmup=1', 'footprint=0,64')


def setUpModule() -> None:
    if not build.build():
        raise RuntimeError('build failed')


def text_segment() -> tuple[int, int]:
    """(physical address, size in bytes) of the kernel ELF's executable
    higher-half segment: what the boot loader loads the text from."""
    _vaddr, paddr, size = executable_segment(paths.kernel_path(), 0xffffffff80000000)
    return paddr, size


def placement_of(res: qemu.BootResult) -> dict:
    begin = records(res)[0]
    assert begin['t'] == 'suite_begin', begin
    return begin['config']['placement']


@functools.cache
def loaded_boot() -> qemu.BootResult:
    """The suite's selection as loaded, 4 KiB pages: what the placed and
    the 2 MiB boots are compared with (one boot for both classes)."""
    return boot(*ARGS)


def digests(res: qemu.BootResult) -> dict:
    return {(r['bench'], r['variant'], r.get('footprint')): r['digest']
            for r in records(res) if r['t'] == 'result'}


class KernelPlacement(unittest.TestCase):
    @classmethod
    def setUpClass(cls) -> None:
        cls.loaded = loaded_boot()
        cls.placed = boot(*ARGS, 'placement=7')

    def test_loaded_is_where_the_image_says(self) -> None:
        self.assertEqual(self.loaded.status, 0, self.loaded.text[-2000:])
        pa, size = text_segment()
        self.assertEqual(placement_of(self.loaded), {
            'how': 'loaded', 'text_pa': hex(pa), 'page': pa % REGION // PAGE,
            'text_bytes': -(-size // PAGE) * PAGE, 'page_bytes': PAGE})
        self.assertNotIn('kfront: placement:', self.loaded.text)

    def test_a_given_page(self) -> None:
        res = self.placed
        self.assertEqual(res.status, 0, res.text[-2000:])
        self.assertNotIn('KFRONT PANIC', res.text)
        p = placement_of(res)
        pa = int(p['text_pa'], 16)
        self.assertEqual((p['how'], p['page'], p['page_bytes']), ('given', 7, PAGE))
        self.assertEqual(pa % REGION, 7 * PAGE)
        self.assertNotEqual(pa, text_segment()[0])
        self.assertEqual(p['text_bytes'], placement_of(self.loaded)['text_bytes'])
        self.assertIn(f'kfront: placement: code copied to physical {p["text_pa"]} '
                      '(page 7 of a 2 MiB region, given)', res.text)

    def test_the_same_work_is_done(self) -> None:
        """Every benchmark computes the same digests from either copy."""
        d = digests(self.placed)
        # two variants; net and mix at two footprints, sched at none
        self.assertEqual(len(d), 2 * (2 + 2 + 1))
        self.assertEqual(d, digests(self.loaded))

    def test_under_uefi(self) -> None:
        """OVMF's memory map, not SeaBIOS's: the copy still finds room."""
        res = boot('bench=none', 'placement=5', firmware='uefi')
        self.assertEqual(res.status, 0, res.text[-2000:])
        p = placement_of(res)
        self.assertEqual((p['how'], int(p['text_pa'], 16) % REGION), ('given', 5 * PAGE))

    def test_random_is_recorded(self) -> None:
        res = boot('bench=none', 'placement=random', timeout=USAGE_TIMEOUT)
        self.assertEqual(res.status, 0, res.text[-2000:])
        p = placement_of(res)
        self.assertEqual(p['how'], 'random')
        self.assertIn(p['page'], range(REGION // PAGE))
        self.assertEqual(int(p['text_pa'], 16) % REGION, p['page'] * PAGE)

    def test_permissions_and_symbols_survive(self) -> None:
        """The copy is mapped as the text was: a write to it faults
        (write, present), and the panic still names the function."""
        res = boot('crash=wtext', 'placement=300')
        self.assertEqual(res.status, 1, res.text[-2000:])
        self.assertRegex(res.text, r'exception: vector 14, page fault \(#PF\), error code 0x3')
        self.assertRegex(res.text, r'RIP: ffffffff[0-9a-f]{8} <arch_crash\+0x[0-9a-f]+>')

    def test_bad_values_are_refused(self) -> None:
        for value in ('512', 'abc', '-1', '0x200'):
            with self.subTest(value=value):
                res = boot(f'placement={value}', timeout=USAGE_TIMEOUT)
                self.assertEqual(res.status, 2, res.text[-2000:])
                self.assertIn(f'placement={value}: expected loaded, random or a '
                              'page number 0-511', res.text)
                self.assertNotIn('#KF2 ', res.text)

    def test_the_host_harness_refuses_them(self) -> None:
        """Its code's placement is the fresh copy's (kfront host), its
        pages' size --huge-text's."""
        exe = paths.BUILD / 'host' / 'kfront-host'
        for arg in ('placement=3', 'textpages=2m'):
            with self.subTest(arg=arg):
                res = subprocess.run([str(exe), arg], capture_output=True,
                                     text=True, timeout=60)
                self.assertEqual(res.returncode, 2, res.stderr)
                self.assertIn(f'{arg.split("=")[0]}= is for the kernel only', res.stderr)


class TextPages(unittest.TestCase):
    """textpages=2m: the same image, its text in 2 MiB pages."""

    @classmethod
    def setUpClass(cls) -> None:
        cls.loaded = loaded_boot()
        cls.large = boot(*ARGS, 'textpages=2m')

    def test_the_image_gives_the_text_whole_large_pages(self) -> None:
        """The text starts on a 2 MiB boundary and the next segment on the
        next one after its end: its 2 MiB pages hold nothing else."""
        segs = [s for s in load_segments(paths.kernel_path()) if s[1] >= 0xffffffff80000000]
        text = next(i for i, s in enumerate(segs) if s[0] & PF_X)
        _flags, vaddr, paddr, size = segs[text]
        self.assertEqual((vaddr % REGION, paddr % REGION), (0, 0))
        after = segs[text + 1][1]
        self.assertEqual(after % REGION, 0)
        self.assertEqual(after, vaddr + -(-size // REGION) * REGION)

    def test_recorded_and_said(self) -> None:
        res = self.large
        self.assertEqual(res.status, 0, res.text[-2000:])
        pa, size = text_segment()
        self.assertEqual(placement_of(res), {
            'how': 'loaded', 'text_pa': hex(pa), 'page': 0,
            'text_bytes': -(-size // PAGE) * PAGE, 'page_bytes': REGION})
        self.assertIn('kfront: textpages: code mapped with 2 MiB pages', res.text)
        self.assertNotIn('textpages:', self.loaded.text)

    def test_the_same_work_is_done(self) -> None:
        self.assertEqual(digests(self.large), digests(self.loaded))

    def test_the_text_stays_read_only(self) -> None:
        """A 2 MiB page of text is R-X like its 4 KiB pages: a write
        faults (write, present) and the panic names the function."""
        res = boot('crash=wtext', 'textpages=2m')
        self.assertEqual(res.status, 1, res.text[-2000:])
        self.assertRegex(res.text, r'exception: vector 14, page fault \(#PF\), error code 0x3')
        self.assertRegex(res.text, r'RIP: ffffffff[0-9a-f]{8} <arch_crash\+0x[0-9a-f]+>')

    def test_under_uefi(self) -> None:
        res = boot('bench=none', 'textpages=2m', firmware='uefi')
        self.assertEqual(res.status, 0, res.text[-2000:])
        self.assertEqual(placement_of(res)['page_bytes'], REGION)

    def test_refused_with_a_placement_and_bad_values(self) -> None:
        cases = {('textpages=2m', 'placement=5'):
                 'placement=5 needs textpages=4k: with 2 MiB pages the code\'s physical '
                 'page offsets are fixed by its addresses',
                 ('placement=random', 'textpages=2m'): 'placement=random needs textpages=4k',
                 ('textpages=1g',): "bad value '1g' for 'textpages': expected one of 4k|2m"}
        for args, message in cases.items():
            with self.subTest(args=args):
                res = boot(*args, timeout=USAGE_TIMEOUT)
                self.assertEqual(res.status, 2, res.text[-2000:])
                self.assertIn(message, res.text)
                self.assertNotIn('#KF2 ', res.text)


if __name__ == '__main__':
    unittest.main()
