# SPDX-License-Identifier: GPL-2.0-or-later
"""Per-run samples from per-region figures (the fesim plugin's, callgrind's):
the one overhead rule both apply, the same as the harness's.

A result record lists the region of each counted run (`regions`) and its
calibration regions (`calib_region`, `calib_regions`). A run's sample is
its region's figure minus the median calibration region's; with method
"diff", the 2N region minus the N region. A sample below zero is 0.
"""
from __future__ import annotations

from typing import Any, Callable, Hashable

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


# What a miss counter counts (extra.sim.misses_of, extra.valgrind.misses_of):
# with per-function figures, the measured code's own misses, the harness's
# bracketing functions (bracket()) left out: at footprint 0 their one miss
# a run was all there was to rank; without them, the whole region.
MISSES_MEASURED = "measured code (the harness's bracketing functions left out)"
MISSES_WHOLE_REGION = 'whole region (no per-function rows)'


def bracket(p: dict[str, Any], keys_of: Callable[[int], set[Hashable]]
            ) -> set[Hashable] | None:
    """The harness's bracketing code of result payload p: the functions
    (as `keys_of(seq)` names those of region seq) that ran in every one of
    its calibration regions, the empty region's marker, counter reads and
    call. A miss counter leaves their misses out (docs/fesim.md, "Misses of
    the measured code"): their instructions are the same in every run, but
    they miss in a counted run and not in the warm calibration. None
    without calibration regions or functions."""
    try:
        first, count = int(p['calib_region']), int(p['calib_regions'])
        sets = [keys_of(s) for s in range(first, first + count)]
    except (KeyError, TypeError, ValueError, AttributeError, IndexError):
        return None
    if not sets or not all(sets):
        return None
    return set.intersection(*sets)
