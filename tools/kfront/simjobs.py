# SPDX-License-Identifier: GPL-2.0-or-later
"""Several simulator settings over parallel boots (`kfront run --sim-jobs`).

The plugin's cost is per setting (docs/fesim.md, "Budgets": nine settings
cost about what nine boots of one setting each do), and one QEMU runs on
one core. The settings of a run
are therefore dealt out over N boots of the same image with the same kernel
arguments, run at once, and their outputs merged into the one fesim.jsonl
a single boot would have written. That is exact because the regions are
repeatable: boot to boot, every region's instructions, classes and
footprint are the same (docs/fesim.md, "Whole-boot totals"), and each
setting's caches see only its own boot's stream, the same as in a shared
boot. The merge checks that: a region, function or call edge whose
model-independent figures differ between the boots is an error, and the
boots' own outputs stay on disk.

What is not repeatable is said so: the whole-boot total keeps the first
boot's model-independent counts and each setting's counts from the boot
that ran it (whole-boot totals differ between boots anyway), and the loops
and speed lines add up the boots' replay work.
"""
from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from . import dealing, sim
from .sim import SimError


def jobs_for(n_settings: int, requested: int | None) -> int:
    """Boots to run: as asked (at most one per setting), else one per free
    core up to one per setting."""
    if requested is not None:
        return max(1, min(requested, n_settings))
    return max(1, min(n_settings, len(os.sched_getaffinity(0))))


def cost(setting: str) -> int:
    """A setting's relative cost, by its replacement policy: on the quick
    suite a boot's plugin time was about the same for the three presets
    under one policy, and tree-PLRU took about 1.3 times LRU, random about
    1.8 times (docs/fesim.md, "Parallel boots"): 3, 4 and 5."""
    _, policy = sim.split_setting(setting)
    return {'plru': 4, 'random': 5}.get(policy, 3)


def split(models: list[str], jobs: int) -> list[list[str]]:
    """The settings over at most `jobs` boots by cost, each boot's in the
    run's order; one boot, empty, without settings."""
    return dealing.deal_by_cost(models, jobs, cost) or [[]]


def read_output(path: Path) -> list[dict[str, Any]]:
    objs = sim.read_objects(path)
    if not objs or objs[0].get('type') != 'fesim':
        raise SimError(f'{path}: no fesim header line')
    return objs


# Header fields each boot has its own of: its settings, their function
# columns, and the TB runs skip_boot left unmodelled (firmware and boot
# before the first marker, which differ from boot to boot; the first
# boot's is kept, as its whole-boot total is).
PER_BOOT = ('models', 'func_columns', 'idle_tb_runs')


def of_type(objs: list[dict[str, Any]], kind: str) -> list[dict[str, Any]]:
    return [o for o in objs if o.get('type') == kind]


def added_up(objs: list[Any]) -> Any:
    """The boots' figures added up, number by number, nested objects too;
    anything else (the type, a name) is the first boot's."""
    first = objs[0]
    if isinstance(first, dict):
        return {k: added_up([o.get(k, 0) if isinstance(o, dict) else 0 for o in objs])
                if k != 'type' else v for k, v in first.items()}
    if isinstance(first, int) and not isinstance(first, bool):
        return sum(o for o in objs if isinstance(o, int))
    return first


def _same(what: str, a: Any, b: Any, paths: tuple[Path, Path]) -> None:
    if a != b:
        raise SimError(f'{what} differs between the boots ({paths[0].name}, '
                       f'{paths[1].name}): the boots did not run the same regions; '
                       f'their outputs are kept')


def _common(obj: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in obj.items() if k not in ('models', 'funcs')}


def _merge_rows(rows: list[list[list[int]]], n_common: int,
                per_boot: list[list[str]], order: list[str], width: int,
                what: str, paths: list[Path]) -> list[list[int]]:
    """Function rows of one region from every boot: the common columns
    (checked equal), then each setting's columns in the run's order."""
    by_boot = [{row[0]: row for row in boot_rows} for boot_rows in rows]
    for k, boot in enumerate(by_boot):
        _same(f'{what}: the functions', sorted(boot), sorted(by_boot[0]),
              (paths[0], paths[k]))
    merged = []
    for fid in [row[0] for row in rows[0]]:
        first = by_boot[0][fid]
        cols: dict[str, list[int]] = {}
        for k, boot in enumerate(by_boot):
            row = boot[fid]
            _same(f'{what}: function {fid}', first[:n_common], row[:n_common],
                  (paths[0], paths[k]))
            for m, model in enumerate(per_boot[k]):
                start = n_common + m * width
                cols[model] = row[start:start + width]
        merged.append(first[:n_common] + [v for model in order for v in cols[model]])
    return merged


def merge(paths: list[Path], per_boot: list[list[str]], order: list[str],
          out: Path) -> None:
    """Write to out the fesim output of one boot running every setting of
    `order`, from the outputs (paths) of boots that ran `per_boot` each."""
    boots = [read_output(p) for p in paths]
    heads = [b[0] for b in boots]
    for k, head in enumerate(heads):
        if head.get('models') != per_boot[k]:
            raise SimError(f'{paths[k]}: settings {head.get("models")}, '
                           f'expected {per_boot[k]}')
        _same('the header', {x: y for x, y in head.items() if x not in PER_BOOT},
              {x: y for x, y in heads[0].items() if x not in PER_BOOT},
              (paths[0], paths[k]))
    header = dict(heads[0], models=order)
    cols0 = heads[0].get('func_columns')
    n_common = width = 0
    if cols0:
        n_common = len([c for c in cols0 if '.' not in c])
        width = (len(cols0) - n_common) // max(1, len(per_boot[0]))
        header['func_columns'] = cols0[:n_common] + [
            f'{model}.{c.split(".", 1)[1]}' for model in order
            for c in cols0[n_common:n_common + width]]
    lines: list[dict[str, Any]] = [header]
    models = {o.get('name'): o for b in boots for o in of_type(b, 'model')}
    missing = [m for m in order if m not in models]
    if missing:
        raise SimError(f'no model record for {", ".join(missing)} in '
                       f'{", ".join(p.name for p in paths)}')
    lines += [models[m] for m in order]
    for kind in ('func', 'call'):
        for k, b in enumerate(boots):
            _same(f'the {kind} records', of_type(b, kind), of_type(boots[0], kind),
                  (paths[0], paths[k]))
        lines += of_type(boots[0], kind)
    regions = [of_type(b, 'region') for b in boots]
    for k, regs in enumerate(regions):
        _same('the number of regions', len(regs), len(regions[0]), (paths[0], paths[k]))
    for i, first in enumerate(regions[0]):
        what = f'region {first.get("seq")}'
        merged = dict(first)
        models_of: dict[str, Any] = {}
        for k, regs in enumerate(regions):
            _same(what, _common(regs[i]), _common(first), (paths[0], paths[k]))
            models_of.update(regs[i].get('models') or {})
        if 'funcs' in first:
            merged['funcs'] = _merge_rows([regs[i].get('funcs') or [] for regs in regions],
                                          n_common, per_boot, order, width, what, paths)
        merged['models'] = {m: models_of[m] for m in order}
        lines.append(merged)
    totals = [of_type(b, 'total') for b in boots]
    if all(totals):
        total = dict(totals[0][0])
        models_of = {}
        for t in totals:
            models_of.update(t[0].get('models') or {})
        total['models'] = {m: models_of[m] for m in order}
        lines.append(total)
    for kind in ('loops', 'speed'):     # speed figures: each boot's work, summed
        figs = [of_type(b, kind) for b in boots]
        if all(figs):
            lines.append(added_up([fg[0] for fg in figs]))
    tmp = out.with_name(out.name + '.tmp')
    tmp.write_text(''.join(json.dumps(o, separators=(',', ':')) + '\n' for o in lines),
                   encoding='utf-8')
    tmp.replace(out)
