# SPDX-License-Identifier: GPL-2.0-or-later
"""tools/fesim/pgo_build.py: when the training cannot run, the plugin is
still built (without a profile) and the reason is printed. The trained
build itself is what every build of the tree makes, and the fesim suite
runs against it."""
from __future__ import annotations

import mmap
import os
import shutil
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

from fesim import pgo_build
from fesim.sources import plugin_sources

ROOT = Path(__file__).resolve().parents[2]
FESIM = ROOT / 'tools' / 'fesim'
CFLAGS = ['-O2', '-fvisibility=hidden', '-D_GNU_SOURCE', '-DKFRONT_HOST=1',
          '-Wno-unused-parameter', '-fPIC', f'-I{FESIM}', f'-I{ROOT / "include"}',
          f'-I{ROOT / "arch" / "x86" / "include"}']


@unittest.skipUnless(shutil.which('gcc') and shutil.which('nm'), 'needs gcc and nm')
class Fallback(unittest.TestCase):
    def test_no_qemu_builds_without_profile(self):
        with tempfile.TemporaryDirectory() as tmp:
            out = Path(tmp) / 'libfesim.so'
            cmd = [sys.executable, str(FESIM / 'pgo_build.py'), str(out),
                   str(Path(tmp) / 'no-such-qemu'), '/bin/true', 'gcc', '--'] + CFLAGS + \
                  ['--'] + [str(s) for s in plugin_sources()] + \
                  ['--', str(FESIM / 'pgo_train.c')]
            res = subprocess.run(cmd, capture_output=True, text=True, check=False)
            self.assertEqual(res.returncode, 0, res.stderr)
            self.assertIn('profile-guided build failed', res.stderr)
            self.assertIn('no-such-qemu', res.stderr)
            self.assertIn('building the plugin without a profile', res.stderr)
            syms = subprocess.run(['nm', '-D', '--defined-only', str(out)],
                                  capture_output=True, text=True, check=True).stdout
            self.assertIn('qemu_plugin_install', syms)
            # the instrumented build's dump hook is not in the plugin
            self.assertNotIn('fesim_pgo_dump', syms)

    def test_usage(self):
        res = subprocess.run([sys.executable, str(FESIM / 'pgo_build.py'), 'x'],
                             capture_output=True, text=True, check=False)
        self.assertEqual(res.returncode, 2)
        self.assertIn('usage', res.stderr)


if __name__ == '__main__':
    unittest.main()


class Install(unittest.TestCase):
    def test_a_running_qemus_plugin_is_not_written_over(self):
        # QEMU maps the plugin it loaded; the build must leave that file
        # alone and put a new one in its place (the old, copied in place,
        # killed a `kfront run --sim` with SIGBUS during a rebuild)
        with tempfile.TemporaryDirectory() as tmp:
            out, built = Path(tmp) / 'libfesim.so', Path(tmp) / 'built.so'
            out.write_bytes(b'old' * 4096)
            built.write_bytes(b'new' * 4096)
            before = out.stat().st_ino
            with open(out, 'rb') as f, mmap.mmap(f.fileno(), 0, prot=mmap.PROT_READ) as m:
                pgo_build.install(built, out)
                self.assertEqual(m[:3], b'old')
            self.assertNotEqual(out.stat().st_ino, before)
            self.assertEqual(out.read_bytes(), b'new' * 4096)
            self.assertTrue(os.access(out, os.X_OK))
            self.assertEqual(sorted(p.name for p in Path(tmp).iterdir()),
                             ['built.so', 'libfesim.so'])
