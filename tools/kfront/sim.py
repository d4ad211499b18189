# SPDX-License-Identifier: GPL-2.0-or-later
"""Front-end simulation: run the kernel under the fesim QEMU plugin and
merge its per-region figures into the result records.

The harness numbers its measured regions in execution order, exactly as
the plugin does (docs/fesim.md), and each result record lists the region
of every run (`regions`) and its calibration regions (`calib_region`,
`calib_regions`). Per run, a simulated counter follows the harness's
overhead rule (tools/kfront/regions.py). Names: sim.instructions, sim.footprint_bytes, sim.taken_branches
(the same for every model) and sim.MODEL.l1i_misses, sim.MODEL.uop_misses,
sim.MODEL.itlb_misses per simulated model.
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from . import regions
from .records import Run

MODEL_RE = re.compile(r'^[a-z0-9_]+$')
KNOWN_MODELS = ('skylake', 'skylake-nojcc', 'goldencove', 'zen4', 'small')
COMMON = {'instructions': 'insns', 'footprint_bytes': 'footprint_bytes',
          'taken_branches': 'taken_branches'}
PER_MODEL = ('l1i_misses', 'uop_misses', 'itlb_misses')


class SimError(Exception):
    """The simulator's output is missing or unreadable (one-line message)."""


@dataclass
class SimOutput:
    models: list[str]
    regions: dict[int, dict[str, Any]] = field(default_factory=dict)
    header: dict[str, Any] = field(default_factory=dict)
    total: dict[str, Any] = field(default_factory=dict)


def parse_models(text: str) -> list[str]:
    models = [m for m in text.split(',') if m]
    bad = [m for m in models if m not in KNOWN_MODELS]
    if not models or bad:
        raise SimError(f'unknown simulator model(s) {", ".join(bad) or "(none)"}; '
                       f'known: {", ".join(KNOWN_MODELS)}')
    return models


def plugin_args(plugin: Path, models: list[str], out: Path) -> list[str]:
    # Models are joined with ':' since QEMU splits plugin arguments at ','.
    return ['-plugin', f'{plugin},model={":".join(models)},out={out}']


def load(path: Path) -> SimOutput:
    try:
        lines = path.read_text(encoding='utf-8').splitlines()
    except OSError as exc:
        raise SimError(f'{path}: {exc.strerror}') from exc
    out = SimOutput(models=[])
    for n, line in enumerate(lines, 1):
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as exc:
            raise SimError(f'{path}:{n}: not JSON ({exc.msg})') from exc
        kind = obj.get('type')
        if kind == 'fesim':
            out.header = obj
            out.models = list(obj.get('models', []))
        elif kind == 'region':
            out.regions[int(obj['seq'])] = obj
        elif kind == 'total':
            out.total = obj
    if not out.header:
        raise SimError(f'{path}: no fesim header line')
    return out


def _value(region: dict[str, Any], name: str, model: str | None) -> int:
    if model is None:
        return int(region[COMMON[name]])
    return int(region['models'][model][name])


def _series(sim: SimOutput, p: dict[str, Any], name: str,
            model: str | None) -> list[int] | None:
    return regions.per_run(p, lambda seq: _value(sim.regions[seq], name, model))


def merge_into_run(run: Run, sim: SimOutput) -> int:
    """Add sim.* samples to every result record of run; returns how many
    records got them (a record whose regions are missing gets none)."""
    merged = 0
    for rec in run.of_type('result'):
        p = rec.payload
        samples = p.setdefault('samples', {})
        ok = True
        for name in COMMON:
            vals = _series(sim, p, name, None)
            ok &= vals is not None
            if vals is not None:
                samples[f'sim.{name}'] = vals
        for model in sim.models:
            for name in PER_MODEL:
                vals = _series(sim, p, name, model)
                ok &= vals is not None
                if vals is not None:
                    samples[f'sim.{model}.{name}'] = vals
        merged += ok
    return merged


def describe(sim: SimOutput) -> dict[str, Any]:
    """What results.json records about the simulation."""
    return {'models': sim.models, 'regions': len(sim.regions),
            'header': sim.header}
