# SPDX-License-Identifier: GPL-2.0-or-later
"""Progress: the build shows ninja's [n/N] on one redrawn line of a
terminal (nothing on a log, everything with -v or on failure); the suite's
lines carry the elapsed time and an estimate of the time left."""

import io
import os
import sys
import unittest
from unittest import mock

from kfront import build
from kfront.progress import Progress, done_fraction, duration_text, remaining_s


class FakeTty(io.StringIO):
    def isatty(self) -> bool:
        return True


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


class TestSuiteProgress(unittest.TestCase):
    def test_estimate(self) -> None:
        self.assertIsNone(remaining_s(0.0, 5.0, 0.0))
        # two of four done in 20 s: two to go, 20 s
        self.assertAlmostEqual(done_fraction(3, 4, None, []), 0.5)
        self.assertAlmostEqual(remaining_s(0.0, 20.0, 0.5) or 0, 20.0)
        # bench 2 of 2 at the third of four sweep points: 6/8 done
        self.assertAlmostEqual(done_fraction(2, 2, 64, [0, 32, 64, 128]), 0.75)
        self.assertAlmostEqual(done_fraction(1, 2, 0, [0, 32, 64, 128]), 0.0)
        self.assertEqual(duration_text(20), '20 s')
        self.assertEqual(duration_text(600), '10 min')

    def test_sweep_points_from_the_suite_record(self) -> None:
        out, clock = io.StringIO(), Clock()
        p = Progress(out, clock)
        p(b'#KF2 0 9e5bb53f {"t":"suite_begin","cmdline":"exit=qemu quick '
          b'bench=net.udp_stream,mix.* footprint=0,32,64,128 runs=5"}\n')
        clock.now = 110.0
        p(b'kfront: [1/2] net.udp_stream footprint=0\n')
        clock.now = 140.0
        p(b'kfront: [1/2] net.udp_stream footprint=128\n')
        self.assertEqual(p.sweep, [0, 32, 64, 128])
        # 3/8 done in 30 s: 5/8 to go, 50 s
        self.assertIn('(about 50 s left)', out.getvalue().splitlines()[1])

    def test_lines_with_elapsed_and_time_left(self) -> None:
        out, clock = io.StringIO(), Clock()
        p = Progress(out, clock)
        clock.now = 103.0
        p(b'kfront 0.1.0 booting\r\nkfront: [1/4] sched.ctxsw\r\n')
        clock.now = 113.0
        p(b'#KF1 0 00 {}\nkfront: [2/4] sched.pipe\n')
        clock.now = 123.0
        p(b'kfront: [3/4] net.tcp')
        p(b'_rr\nkfront: warning: something\n')
        lines = out.getvalue().splitlines()
        self.assertEqual(len(lines), 4)
        self.assertRegex(lines[0], r'^\s+3\.0 s  \[1/4\] sched\.ctxsw$')
        self.assertRegex(lines[1], r'^\s+13\.0 s  \[2/4\] sched\.pipe  \(about 30 s left\)$')
        self.assertRegex(lines[2], r'\[3/4\] net\.tcp_rr  \(about 20 s left\)$')
        self.assertRegex(lines[3], r'warning: something$')

    def test_default_stream_is_stderr(self) -> None:
        err = io.StringIO()
        with mock.patch.object(sys, 'stderr', err):
            Progress()(b'kfront: [1/2] a\n')
        self.assertIn('[1/2] a', err.getvalue())


NINJA_LINES = ['[1/3] Compiling C object a.o\n', 'warning: something\n',
               '[2/3] Compiling C object b.o\n', '[3/3] Linking target kfront.elf\n']


class TestBuildStatus(unittest.TestCase):
    def feed(self, stream: io.StringIO, verbose: bool = False) -> build.BuildStatus:
        st = build.BuildStatus(stream, verbose)
        for line in NINJA_LINES:
            st.line(line)
        st.done()
        return st

    def test_terminal_one_line(self) -> None:
        out = FakeTty()
        with mock.patch.dict(os.environ, {'TERM': 'xterm'}):
            st = self.feed(out)
        text = out.getvalue()
        self.assertNotIn('\n', text)
        self.assertIn('\rkfront: building [2/3] Compiling C object b.o', text)
        self.assertTrue(text.endswith('\r'))
        self.assertEqual(st.steps, 3)

    def test_log_or_dumb_terminal_gets_nothing(self) -> None:
        out = io.StringIO()
        self.feed(out)
        self.assertEqual(out.getvalue(), '')
        tty = FakeTty()
        with mock.patch.dict(os.environ, {'TERM': 'dumb'}):
            self.feed(tty)
        self.assertEqual(tty.getvalue(), '')

    def test_verbose_everything(self) -> None:
        out = FakeTty()
        self.feed(out, verbose=True)
        self.assertEqual(out.getvalue(), ''.join(NINJA_LINES))

    def test_run_ninja_streams_and_keeps_the_output(self) -> None:
        out = FakeTty()
        script = 'printf "%s" "$NINJA_STATUS"; echo x; echo "[1/2] a"; echo "[2/2] b"; exit 3'
        with mock.patch.dict(os.environ, {'TERM': 'xterm'}):
            rc, text = build.run_ninja(['sh', '-c', script], build.BuildStatus(out))
        self.assertEqual(rc, 3)
        self.assertEqual(text, f'{build.NINJA_STATUS}x\n[1/2] a\n[2/2] b\n')
        self.assertIn('building [2/2] b', out.getvalue())

    def test_failure_prints_the_whole_output(self) -> None:
        err = io.StringIO()
        with mock.patch.object(build, 'configure', return_value=True), \
                mock.patch.object(build, 'run_ninja', return_value=(1, 'cc: error: x\n')), \
                mock.patch.object(sys, 'stderr', err), \
                mock.patch.dict(os.environ, {build.BUILT_ENV: ''}):
            self.assertFalse(build.build())
        self.assertIn('cc: error: x', err.getvalue())
        self.assertIn('build failed', err.getvalue())


if __name__ == '__main__':
    unittest.main()
