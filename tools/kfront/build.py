# SPDX-License-Identifier: GPL-2.0-or-later
"""Configure (once) and build the tree with Meson and Ninja."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from kfront import paths


# Set by `kfront test` for its worker processes: this tree is built.
BUILT_ENV = 'KFRONT_TREE_BUILT'


def configure(build: Path = paths.BUILD, options: list[str] | None = None) -> bool:
    opts = options or []
    if (build / 'build.ninja').exists():
        if opts:
            res = subprocess.run(['meson', 'configure', str(build), *opts])
            return res.returncode == 0
        return True
    cmd = ['meson', 'setup', str(build), str(paths.ROOT),
           '--cross-file', str(paths.CROSS_FILE), *opts]
    res = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if res.returncode != 0:
        sys.stdout.write(res.stdout)
        print('kfront: meson setup failed', file=sys.stderr)
        return False
    return True


def build(build: Path = paths.BUILD, targets: list[str] | None = None,
          quiet: bool = True, options: list[str] | None = None) -> bool:
    """Build; on failure print the compiler output and return False."""
    # Parallel test workers start after `kfront test` built the tree: two
    # ninja runs at once in one build directory would race on its logs.
    if os.environ.get(BUILT_ENV) == str(build) and not options:
        return True
    if not configure(build, options):
        return False
    cmd = ['ninja', '-C', str(build), *(targets or [])]
    res = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if res.returncode != 0 or not quiet:
        sys.stdout.write(res.stdout)
    if res.returncode != 0:
        print('kfront: build failed', file=sys.stderr)
        return False
    return True
