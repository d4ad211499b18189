# SPDX-License-Identifier: GPL-2.0-or-later
"""A fresh place for each timing process (tools/kfront/placement.py): the
built program is replaced by a byte-identical copy of itself, a new file
whose page-cache pages are new, at the same path with the same mode and
times; programs outside the build directory are never touched, and a
failed copy leaves the program as it was."""
from __future__ import annotations

import os
import shutil
import tempfile
import unittest
from pathlib import Path
from unittest import mock

from kfront import paths, placement


class RefreshTest(unittest.TestCase):
    def setUp(self) -> None:
        self.tmp = Path(tempfile.mkdtemp(prefix='kfront-placement-'))
        self.root = self.tmp / 'root'
        self.build = self.root / 'build'
        (self.build / 'host').mkdir(parents=True)
        self.exe = self.build / 'host' / 'prog'
        self.exe.write_bytes(bytes(range(256)) * 64)
        self.exe.chmod(0o755)
        os.utime(self.exe, (1_000_000_000, 1_000_000_000))
        for name, value in (('ROOT', self.root), ('BUILD', self.build)):
            patcher = mock.patch.object(paths, name, value)
            patcher.start()
            self.addCleanup(patcher.stop)
        self.addCleanup(shutil.rmtree, self.tmp)

    def test_a_new_file_with_the_same_bytes_mode_and_times(self) -> None:
        before = self.exe.stat()
        self.assertEqual(placement.refresh(self.exe), '')
        after = self.exe.stat()
        self.assertNotEqual(before.st_ino, after.st_ino)
        self.assertEqual(self.exe.read_bytes(), bytes(range(256)) * 64)
        self.assertEqual(after.st_mode, before.st_mode)
        self.assertEqual(after.st_mtime_ns, before.st_mtime_ns)   # ninja rebuilds nothing
        self.assertEqual(sorted(p.name for p in self.exe.parent.iterdir()), ['prog'])

    def test_a_running_copy_keeps_its_file(self) -> None:
        # a process still running the old file keeps it: the copy replaces
        # the name, not the inode (no "text file busy")
        with open(self.exe, 'rb') as held:
            self.assertEqual(placement.refresh(self.exe), '')
            self.assertEqual(held.read(4), bytes(range(4)))

    def test_outside_the_build_directories_nothing_is_touched(self) -> None:
        (self.root / 'tools').mkdir()
        (self.root / 'buildx').mkdir()
        for other in (self.tmp / 'elsewhere', self.root / 'tools' / 'prog',
                      self.root / 'buildx' / 'prog'):
            other.write_bytes(b'x')
            ino = other.stat().st_ino
            problem = placement.refresh(other)
            self.assertIn('not a program kfront built', problem)
            self.assertEqual(other.stat().st_ino, ino)

    def test_the_flag_explorers_build_directory_too(self) -> None:
        # kfront flags times its batches from build-flags/host/kfront-host
        flags_exe = self.root / 'build-flags' / 'host' / 'kfront-host'
        flags_exe.parent.mkdir(parents=True)
        shutil.copy2(self.exe, flags_exe)
        ino = flags_exe.stat().st_ino
        self.assertEqual(placement.refresh(flags_exe), '')
        self.assertNotEqual(flags_exe.stat().st_ino, ino)

    def test_a_failed_copy_leaves_the_program_and_no_litter(self) -> None:
        ino = self.exe.stat().st_ino
        with mock.patch.object(shutil, 'copy2', side_effect=OSError(28, 'No space left')):
            problem = placement.refresh(self.exe)
        self.assertIn('could not copy', problem)
        self.assertIn('No space left', problem)
        self.assertEqual(self.exe.stat().st_ino, ino)
        self.assertEqual(sorted(p.name for p in self.exe.parent.iterdir()), ['prog'])

    def test_a_copy_stopped_by_ctrl_c_leaves_no_litter(self) -> None:
        ino = self.exe.stat().st_ino
        with mock.patch.object(shutil, 'copy2', side_effect=KeyboardInterrupt):
            with self.assertRaises(KeyboardInterrupt):
                placement.refresh(self.exe)
        self.assertEqual(self.exe.stat().st_ino, ino)
        self.assertEqual(sorted(p.name for p in self.exe.parent.iterdir()), ['prog'])


class RecordedTest(unittest.TestCase):
    def test_what_a_document_says(self) -> None:
        self.assertEqual(placement.recorded({'host': {'placement': placement.FRESH}}),
                         placement.FRESH)
        for extra in (None, {}, {'host': None}, {'host': {}}, {'host': {'placement': 3}}):
            self.assertIsNone(placement.recorded(extra))


class FramesTest(unittest.TestCase):
    def test_the_frames_of_a_file_or_why_not(self) -> None:
        with tempfile.NamedTemporaryFile(prefix='kfront-frames-') as fh:
            fh.write(b'k' * (3 * placement.PAGE + 1))
            fh.flush()
            got = placement.frames(Path(fh.name))
        if 'unavailable' in got:            # without CAP_SYS_ADMIN: says so
            self.assertIn('CAP_SYS_ADMIN', got['unavailable'])
            return
        self.assertEqual(got['pages'], 4)
        self.assertEqual(sum(n for _, n in got['runs']), 4)
        self.assertTrue(all(first > 0 for first, _ in got['runs']))

    def test_a_missing_file(self) -> None:
        got = placement.frames(Path('/nonexistent/kfront-program'))
        self.assertIn('could not read the frames', got['unavailable'])


if __name__ == '__main__':
    unittest.main()
