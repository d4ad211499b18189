# SPDX-License-Identifier: GPL-2.0-or-later
"""The x86 model table the kernel is built with (arch/x86/cpu_model_table.h),
read by the host tool, so that the preset it chooses for a CPU and the
kernel's PMU table for that CPU come from the same lines."""
from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from pathlib import Path

from .paths import ROOT

TABLE = ROOT / 'arch' / 'x86' / 'cpu_model_table.h'
VENDORS = {'INTEL': 'GenuineIntel', 'AMD': 'AuthenticAMD'}

_COMMENT = re.compile(r'/\*.*?\*/', re.S)
_ENTRY = re.compile(r'CPU_MODEL\((INTEL|AMD), (0x[0-9a-f]{2}), (0x[0-9a-f]{2}), '
                    r'(0x[0-9a-f]{2}), ([A-Z0-9]+), "([^"\\]+)"\)')


@dataclass(frozen=True)
class CpuModel:
    vendor: str          # as /proc/cpuinfo's vendor_id
    family: int
    first: int
    last: int
    core: str            # the kernel's uarch name: 'skylake', 'zen5', ...
    name: str            # the part, as the truth line names it


def parse(text: str, where: str = 'cpu_model_table.h') -> list[CpuModel]:
    """Every entry of the table; anything outside comments that is not an
    entry in the one documented form is an error, not skipped."""
    models = []
    for n, line in enumerate(_COMMENT.sub(lambda m: '\n' * m.group(0).count('\n'), text)
                             .splitlines(), 1):
        line = line.strip()
        if not line:
            continue
        m = _ENTRY.fullmatch(line)
        if not m:
            raise ValueError(f'{where}:{n}: not a CPU_MODEL(...) entry: {line}')
        vendor, family, first, last, core, name = m.groups()
        if int(first, 16) > int(last, 16):
            raise ValueError(f'{where}:{n}: first model above last: {line}')
        models.append(CpuModel(VENDORS[vendor], int(family, 16), int(first, 16),
                               int(last, 16), core.lower(), name))
    return models


@functools.cache
def table(path: Path = TABLE) -> tuple[CpuModel, ...]:
    return tuple(parse(path.read_text(encoding='utf-8'), str(path)))


def lookup(vendor: str, family: int, model: int) -> CpuModel | None:
    """The table's entry for a CPU, as the kernel's cpu_uarch_lookup() finds
    it (the first that matches), or None."""
    for m in table():
        if m.vendor == vendor and m.family == family and m.first <= model <= m.last:
            return m
    return None
