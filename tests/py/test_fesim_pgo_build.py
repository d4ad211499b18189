# SPDX-License-Identifier: GPL-2.0-or-later
"""tools/fesim/pgo_build.py: when the training cannot run, the plugin is
still built (without a profile) and the reason is printed. The trained
build itself is what every build of the tree makes, and the fesim suite
runs against it."""
from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

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
