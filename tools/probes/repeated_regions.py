#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""How much of a simulated run lies in regions that repeat an earlier one.

An upper bound on what replaying a whole benchmark call could save
(docs/fesim-speed-log.md, "Whole calls replayed"): a counted run could
take an earlier run's counts only if it ran the same code from the same
cache state, and then its figures are the earlier run's. So the regions
whose figures under a setting equal an earlier region's of the same run
(instructions, taken branches and every counter of that setting) hold all
the work such a replay could skip, and more (equal figures need not mean
an equal start). The work is counted in uop-cache look-ups, the bulk of a
setting's cost; the denominator is the setting's whole-run total.

  tools/probes/repeated_regions.py OUT/fesim.jsonl

OUT: a `kfront run --sim ...` output folder (the merged fesim.jsonl).
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from kfront import sim  # noqa: E402  (tools/kfront/sim.py)


def repeated_lookups(regions, model):
    """(regions repeating an earlier one, their look-ups, all regions'
    look-ups) under @model."""
    seen = set()
    n_rep = rep = inside = 0
    for r in regions:
        figures = r['models'][model]
        key = (r['insns'], r['taken_branches'],
               tuple(sorted(figures.items())))
        inside += figures['uop_lookups']
        if key in seen:
            n_rep += 1
            rep += figures['uop_lookups']
        seen.add(key)
    return n_rep, rep, inside


def main(argv):
    if len(argv) != 2:
        sys.exit(__doc__.strip())
    try:
        out = sim.load(Path(argv[1]))
    except sim.SimError as e:
        sys.exit(str(e))
    regions = [out.regions[seq] for seq in sorted(out.regions)]
    if not regions or not out.total:
        sys.exit(f'{argv[1]}: no regions or no total line: '
                 'not a whole fesim output')
    for model in out.models:
        n_rep, rep, inside = repeated_lookups(regions, model)
        whole = out.total['models'][model]['uop_lookups']
        print(f'{model}: {len(regions)} regions, {n_rep} repeat an earlier '
              f'one; uop-cache look-ups {whole}: in regions {inside} '
              f'({inside / whole:.1%}), in repeating regions {rep} '
              f'({rep / whole:.1%})')

if __name__ == '__main__':
    main(sys.argv)
