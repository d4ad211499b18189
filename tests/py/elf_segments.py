# SPDX-License-Identifier: GPL-2.0-or-later
"""The loadable segments of an ELF64 file, read with struct: what the
placement tests compare the kernel's and the host programs' records with
(tests/boot/test_kernel_placement.py, tests/py/test_huge_text.py)."""
from __future__ import annotations

import struct
from pathlib import Path

PT_LOAD = 1
PF_X = 1


def load_segments(path: Path) -> list[tuple[int, int, int, int]]:
    """(flags, virtual address, physical address, size in memory) of
    every PT_LOAD, in file order."""
    data = path.read_bytes()
    phoff, = struct.unpack_from('<Q', data, 0x20)
    phentsize, phnum = struct.unpack_from('<HH', data, 0x36)
    out = []
    for i in range(phnum):
        p_type, p_flags, _off, vaddr, paddr, _filesz, memsz, _align = struct.unpack_from(
            '<IIQQQQQQ', data, phoff + i * phentsize)
        if p_type == PT_LOAD:
            out.append((p_flags, vaddr, paddr, memsz))
    return out


def executable_segment(path: Path, min_vaddr: int = 0) -> tuple[int, int, int]:
    """(virtual address, physical address, size in memory) of the first
    executable PT_LOAD at or above min_vaddr."""
    for flags, vaddr, paddr, memsz in load_segments(path):
        if flags & PF_X and vaddr >= min_vaddr:
            return vaddr, paddr, memsz
    raise AssertionError(f'{path}: no executable segment at or above {min_vaddr:#x}')
