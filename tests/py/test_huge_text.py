# SPDX-License-Identifier: GPL-2.0-or-later
"""kfront-host --huge-text: the program's code moves onto an anonymous
2 MiB page at the same addresses (host/text_pages.c), does the same work
there, and the suite_begin record says what the kernel gave."""
from __future__ import annotations

import argparse
import platform
import subprocess
import tempfile
import unittest
from pathlib import Path
from unittest import mock

from kfront import build, cmd_host, kargs, report, runhost
from tests.py.elf_segments import executable_segment
from tests.py.test_host_harness import records

HUGE = 2 << 20
ARGS = ['bench=net.udp_rr,sched.ctxsw', 'variant=O2,Os', 'runs=3', 'warmup=1',
        'iters=200', 'footprint=0,64']


def code_segment(exe: Path) -> tuple[int, int]:
    """(address, size) of the program's executable PT_LOAD."""
    vaddr, _paddr, size = executable_segment(exe)
    return vaddr, size


def digests(recs: list[dict]) -> dict:
    return {(r['bench'], r['variant'], r.get('footprint')): r['digest']
            for r in recs if r['t'] == 'result'}


@unittest.skipUnless(platform.system() == 'Linux' and platform.machine() == 'x86_64',
                     'the host harness runs on x86_64 Linux')
class HugeText(unittest.TestCase):
    @classmethod
    def setUpClass(cls) -> None:
        if not build.build(targets=['host']):
            raise RuntimeError('build of the host programs failed')

    def test_linked_for_it(self) -> None:
        """Every host program's code starts on a 2 MiB boundary with its
        2 MiB pages to itself (host/meson.build)."""
        for exe in (cmd_host.host_exe(), cmd_host.host_exe('O2')):
            at, size = code_segment(exe)
            self.assertEqual(at % HUGE, 0, exe)
            self.assertLessEqual(size, HUGE, exe)

    def test_same_work_on_a_huge_page(self) -> None:
        exe = cmd_host.host_exe()
        status, plain = records(exe, ARGS)
        self.assertEqual(status, 0)
        self.assertEqual(plain[0]['config']['text_pages'], {'asked': 'file'})
        status, huge = records(exe, ['--huge-text', *ARGS])
        self.assertEqual(status, 0)
        pages = huge[0]['config']['text_pages']
        self.assertEqual(pages['asked'], 'huge')
        self.assertEqual(pages['text_bytes'], code_segment(exe)[1])
        # A huge page, or the reason there is none (THP off on the machine).
        if pages['huge_bytes']:
            self.assertEqual(pages['huge_bytes'], HUGE)
        else:
            self.assertTrue(pages.get('note'), pages)
        self.assertEqual(len(digests(huge)), 6)
        self.assertEqual(digests(huge), digests(plain))
        self.assertEqual(huge[-1]['t'], 'suite_end')

    def test_refused_under_valgrind(self) -> None:
        if subprocess.run(['which', 'valgrind'], capture_output=True).returncode:
            self.skipTest('valgrind is not installed')
        res = subprocess.run(['valgrind', '--tool=none', '-q', str(cmd_host.host_exe()),
                              '--no-pin', '--huge-text', 'bench=none'],
                             capture_output=True, text=True, timeout=120)
        self.assertEqual(res.returncode, 2, res.stderr)
        self.assertIn('--huge-text under valgrind', res.stderr)

    def test_report_line(self) -> None:
        self.assertIsNone(report.text_pages_line(None))
        self.assertIn("file's 4 KiB page-cache pages",
                      report.text_pages_line({'asked': 'file'}))
        self.assertIn('(1.47 MiB) ran from 2 MiB of anonymous huge pages',
                      report.text_pages_line({'asked': 'huge', 'text_bytes': 1536625,
                                              'huge_bytes': HUGE}))
        self.assertIn('ran from 4 KiB pages: madvise(MADV_HUGEPAGE): Invalid argument',
                      report.text_pages_line({'asked': 'huge', 'text_bytes': 1536625,
                                              'huge_bytes': 0,
                                              'note': 'madvise(MADV_HUGEPAGE): Invalid argument'}))

    def test_kfront_run_follows_the_kernels_pages(self) -> None:
        """kfront run -- textpages=2m: the host harness's code goes onto a
        2 MiB page too (the key itself is the kernel's, not passed on)."""
        seen = []

        def program(cmd, *_args, **_kw):
            seen.append(cmd)
            return None, {}, 1
        sel = kargs.Selection(quick=True, bench='calib.empty')
        with tempfile.TemporaryDirectory() as tmp, \
                mock.patch.object(runhost, 'run_suite_program', program):
            for extra, huge in ((['textpages=2m'], True), ([], False),
                                (['textpages=2m', 'textpages=4k'], False)):
                runhost.run_host(argparse.Namespace(extra=extra, timeout=60),
                                 Path(tmp), sel)
                self.assertEqual('--huge-text' in seen[-1], huge, seen[-1])
                self.assertNotIn('textpages=2m', seen[-1])


if __name__ == '__main__':
    unittest.main()
