# SPDX-License-Identifier: GPL-2.0-or-later
"""Per-run samples from per-region figures (the fesim plugin's, callgrind's):
the one overhead rule both apply, the same as the harness's.

A result record lists the region of each counted run (`regions`) and its
calibration regions (`calib_region`, `calib_regions`). A run's sample is
its region's figure minus the median calibration region's; with method
"diff", the 2N region minus the N region. A sample below zero is 0.
"""
from __future__ import annotations

from typing import Any, Callable

from . import stats


def per_run(p: dict[str, Any], value: Callable[[int], int]) -> list[int] | None:
    """Samples of one figure for result payload p; `value(seq)` reads the
    figure of region seq. None when a region is missing or unreadable."""
    regions = p.get('regions')
    if not isinstance(regions, list):
        return None
    try:
        if p.get('method') == 'diff':
            return [max(0, value(s + 1) - value(s)) for s in regions]
        first, count = int(p['calib_region']), int(p['calib_regions'])
        base = int(stats.median([value(s) for s in range(first, first + count)]))
        return [max(0, value(s) - base) for s in regions]
    except (KeyError, TypeError, ValueError, AttributeError):
        return None
