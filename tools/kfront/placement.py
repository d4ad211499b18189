# SPDX-License-Identifier: GPL-2.0-or-later
"""Where a host program's code lands in physical memory, and a fresh
place for every timing process.

A program's code runs from the page cache's pages of its file. Every
process of one file runs from the same physical pages until the file is
replaced or its pages are evicted, so processes run back to back share
one placement, and a run hours later, after a rebuild, has another. The
caches beyond the L1i are indexed by physical address, and under a
hypervisor the host maps the guest's pages once more. On the
development VM one copy of the host program made the hybrid 1.22 to 1.52
times as slow as O2 at footprint 64 in each of the three processes run
from it, where six processes of the build's own file gave 0.94 to 1.16;
other copies slowed it at other footprints, and at other times the
copies did not differ. Why is not known (docs/statistics.md, "Where the
code lands").

So before each timing process the built program is replaced by a
byte-identical copy of itself: a new file, whose pages the kernel places
anew. The path stays the same, so the process's arguments and auxiliary
vector, and with them its stack's layout, do not change.
"""
from __future__ import annotations

import ctypes
import mmap
import os
import shutil
import struct
import tempfile
from pathlib import Path
from typing import Any

from kfront import paths

# What extra.host.placement says (docs/results-schema.md).
FRESH = 'fresh copy'
KEPT = 'file as it stood'
PAGE = 4096
PFN_MASK = (1 << 55) - 1          # /proc/PID/pagemap: bits 0-54 the frame,
PRESENT = 1 << 63                 # bit 63 the page is present


def recorded(extra: Any) -> str | None:
    """A results document's extra.host.placement (FRESH or KEPT); None
    for documents from before it was recorded."""
    host = extra.get('host') if isinstance(extra, dict) else None
    value = host.get('placement') if isinstance(host, dict) else None
    return value if isinstance(value, str) else None


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
        return f'could not copy {exe} afresh ({e.strerror}); it runs as it stands'
    finally:
        # gone after the replace; left by a failure or a ^C during the copy
        Path(tmp).unlink(missing_ok=True)
    return ''


def frames(path: Path) -> dict[str, Any]:
    """The physical frames that hold path's pages in the page cache, as
    runs of consecutive frames: {"runs": [[first frame, pages], ...],
    "pages": N}, or {"unavailable": why}. Read by mapping the file and
    looking its pages up in /proc/self/pagemap, which gives frame numbers
    only to a process with CAP_SYS_ADMIN (docs/statistics.md, "Where the
    code lands"). Under a hypervisor these are the guest's frames, not
    the host's."""
    try:
        size = path.stat().st_size
        with open(path, 'rb') as fh, open('/proc/self/pagemap', 'rb') as pagemap:
            # a private mapping is writable, so ctypes can take its address;
            # reading it maps the page cache's own pages (nothing is written)
            view = mmap.mmap(fh.fileno(), size, flags=mmap.MAP_PRIVATE,
                             prot=mmap.PROT_READ | mmap.PROT_WRITE)
            try:
                anchor = ctypes.c_char.from_buffer(view)
                first = ctypes.addressof(anchor) // PAGE
                del anchor
                pages = (size + PAGE - 1) // PAGE
                for i in range(pages):
                    view[i * PAGE]                  # fault each page in
                pagemap.seek(first * 8)
                entries = struct.unpack(f'<{pages}Q', pagemap.read(8 * pages))
            finally:
                view.close()
    except (OSError, ValueError) as e:
        return {'unavailable': f'could not read the frames of {path}: {e}'}
    pfns = [e & PFN_MASK if e & PRESENT else 0 for e in entries]
    if not any(pfns):
        return {'unavailable': '/proc/self/pagemap gives no frame numbers to this '
                'process (it needs CAP_SYS_ADMIN)'}
    runs: list[list[int]] = []
    for pfn in pfns:
        if runs and pfn and runs[-1][0] and runs[-1][0] + runs[-1][1] == pfn:
            runs[-1][1] += 1
        else:
            runs.append([pfn, 1])
    return {'runs': runs, 'pages': len(pfns)}
