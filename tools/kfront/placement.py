# SPDX-License-Identifier: GPL-2.0-or-later
"""Where a host program's code lands in physical memory, and a fresh
place for every timing process.

A program's code runs from the page cache's pages of its file. Every
process of one file runs from the same physical pages until the file is
replaced or its pages are evicted, so processes run back to back share
one placement, and a run hours later, after a rebuild, has another. The
L2 and the caches beyond it are indexed by physical address, so the
placement decides which code lines compete for a set once the code no
longer fits the L1i. On the development VM one copy of the host
program made the hybrid 1.22 to 1.52 times as slow as O2 at footprint 64
in each of the three processes run from it, where six processes of the
build's own file gave 0.94 to 1.16; at other times the copies did not
differ (docs/statistics.md, "Where the code lands").

So before each timing process the built program is replaced by a
byte-identical copy of itself: a new file, whose pages the kernel places
anew. The path stays the same, so the process's arguments and auxiliary
vector, and with them its stack's layout, do not change.
"""
from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

from kfront import paths

# What extra.host.placement says (docs/results-schema.md).
FRESH = 'fresh copy'
KEPT = 'file as it stood'


def built_by_kfront(exe: Path) -> bool:
    """Whether exe lies in one of kfront's build directories: build/, or
    build-NAME/ (kfront flags builds its batches in build-flags/)."""
    try:
        top = exe.resolve().relative_to(paths.ROOT.resolve()).parts[0]
    except (ValueError, IndexError):
        return False
    return top == paths.BUILD.name or top.startswith(f'{paths.BUILD.name}-')


def refresh(exe: Path) -> str:
    """Replace exe, a program kfront built, by a fresh byte-identical copy
    (same path, mode and times, so ninja sees nothing to rebuild). Returns
    '' or why not; exe is left as it was on failure. Programs outside
    kfront's build directories are never touched."""
    if not built_by_kfront(exe):
        return f'{exe} is not a program kfront built; it runs as it stands'
    fd, tmp = tempfile.mkstemp(dir=exe.parent, prefix=f'.{exe.name}.')
    os.close(fd)
    try:
        shutil.copy2(exe, tmp)
        os.replace(tmp, exe)
    except OSError as e:
        Path(tmp).unlink(missing_ok=True)
        return f'could not copy {exe} afresh ({e.strerror}); it runs as it stands'
    return ''
