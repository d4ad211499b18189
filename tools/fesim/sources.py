# SPDX-License-Identifier: GPL-2.0-or-later
"""The plugin's C sources as tools/fesim/meson.build lists them: one list
for the build and for the tests that compile the plugin themselves."""
from __future__ import annotations

import re
from pathlib import Path

HERE = Path(__file__).resolve().parent


def plugin_sources() -> list[Path]:
    """The files of `fesim_sources = files(...)`, in their order."""
    text = (HERE / 'meson.build').read_text(encoding='utf-8')
    m = re.search(r'^fesim_sources = files\(([^)]*)\)', text, re.M)
    if not m:
        raise RuntimeError(f'{HERE / "meson.build"}: no "fesim_sources = files(...)"')
    return [HERE / name for name in re.findall(r"'([^']+\.c)'", m.group(1))]
