# SPDX-License-Identifier: GPL-2.0-or-later
"""tools/build/mkiso.py puts a new image in place of the old one, never
writes over it: a QEMU booting the old image keeps its own file, and a
failed grub-mkrescue leaves the old image whole. grub-mkrescue is a stub
here (the real one is run by every build)."""
from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

MKISO = Path(__file__).resolve().parents[2] / 'tools' / 'build' / 'mkiso.py'

# writes "new image" to the path after -o, or fails when told to
STUB = '''#!/bin/sh
[ -n "$STUB_FAIL" ] && { echo "stub: no space" >&2; exit 1; }
while [ "$1" != "-o" ]; do shift; done
printf 'new image' > "$2"
'''


class MkIso(unittest.TestCase):
    def setUp(self) -> None:
        self._tmp = tempfile.TemporaryDirectory()
        self.tmp = Path(self._tmp.name)
        bin_dir = self.tmp / 'bin'
        bin_dir.mkdir()
        stub = bin_dir / 'grub-mkrescue'
        stub.write_text(STUB)
        stub.chmod(0o755)
        self.env = dict(os.environ, PATH=f'{bin_dir}:{os.environ["PATH"]}')
        (self.tmp / 'kfront.elf').write_bytes(b'\x7fELF')
        (self.tmp / 'grub.cfg').write_text('menuentry x {}\n')
        self.out = self.tmp / 'kfront.iso'
        self.out.write_text('old image')

    def tearDown(self) -> None:
        self._tmp.cleanup()

    def mkiso(self, **env: str) -> subprocess.CompletedProcess:
        return subprocess.run(
            [sys.executable, str(MKISO), str(self.tmp / 'kfront.elf'),
             str(self.tmp / 'grub.cfg'), str(self.out), str(self.tmp / 'work')],
            capture_output=True, text=True, env=dict(self.env, **env), check=False)

    def test_new_file_in_place_of_the_old(self) -> None:
        with open(self.out, 'rb') as booting:       # a QEMU reading it
            res = self.mkiso()
            self.assertEqual(res.returncode, 0, res.stderr)
            self.assertEqual(booting.read(), b'old image')
        self.assertEqual(self.out.read_text(), 'new image')
        self.assertFalse(self.out.with_name('kfront.iso.new').exists())

    def test_failure_keeps_the_old_image(self) -> None:
        res = self.mkiso(STUB_FAIL='1')
        self.assertEqual(res.returncode, 1)
        self.assertIn('stub: no space', res.stderr)
        self.assertEqual(self.out.read_text(), 'old image')
        self.assertFalse(self.out.with_name('kfront.iso.new').exists())


if __name__ == '__main__':
    unittest.main()
