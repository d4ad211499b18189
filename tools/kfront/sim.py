# SPDX-License-Identifier: GPL-2.0-or-later
"""Front-end simulation: run the kernel under the fesim QEMU plugin and
merge its per-region figures into the result records.

The harness numbers its measured regions in execution order, exactly as
the plugin does (docs/fesim.md), and each result record lists the region
of every run (`regions`) and its calibration regions (`calib_region`,
`calib_regions`). Per run, a simulated counter follows the harness's
overhead rule (tools/kfront/regions.py). Names: sim.instructions, sim.footprint_bytes, sim.taken_branches
(the same for every model), the instruction classes (sim.rep_movs,
sim.div, sim.calls, ...: CLASSES), and sim.MODEL.l1i_misses,
sim.MODEL.uop_misses, sim.MODEL.itlb_misses (page walks),
sim.MODEL.l1i_prefetches, sim.MODEL.itlb_l1_misses, and
sim.MODEL.uops_dsb and sim.MODEL.uops_mite (the uops the uop cache and the
legacy decoders delivered: the plugin's uop_hit_uops and uop_miss_uops,
named as the PMU counters they model) per simulated model setting (MODEL or
MODEL@POLICY).

The footprint counters are per region, not per operation: they are listed
in the record's `per_region` and results.json does not divide them.

Given the kernel's symbol table (`syms=`, written by write_symbols()), the
plugin also reports per-function rows for every region; each result
record gets a flat table of its top functions (`sim_functions`,
docs/results-schema.md).
"""
from __future__ import annotations

import json
import re
import subprocess
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable

from . import functable, regions
from .records import Run

MODEL_RE = re.compile(r'^[a-z0-9_]+$')
KNOWN_MODELS = ('skylake', 'skylake-nojcc', 'goldencove', 'zen4', 'small')
# MODEL@POLICY settings (docs/fesim.md, "Replacement and prefetch"); a bare
# MODEL is the preset's default, LRU. POLICIES are the replacement
# policies (sim-speed's nine settings are three presets under them);
# SETTINGS adds noprefetch: LRU without the next-line prefetch.
POLICIES = ('lru', 'plru', 'random')
NO_PREFETCH = 'noprefetch'
SETTINGS = POLICIES + (NO_PREFETCH,)
MAX_SETTINGS = 16       # FESIM_MAX_MODELS in tools/fesim/fesim.h
COMMON = {'instructions': 'insns', 'footprint_bytes': 'footprint_bytes',
          'taken_branches': 'taken_branches'}
PER_MODEL = ('l1i_misses', 'uop_misses', 'itlb_misses')
# counters a plugin before issue 18 (items 2, 3) does not write: optional
PER_MODEL_NEW = ('l1i_prefetches', 'itlb_l1_misses', 'uops_dsb', 'uops_mite')
# the plugin's names of the counters named as the PMU's (docs/fesim.md)
PLUGIN_NAMES = {'uops_dsb': 'uop_hit_uops', 'uops_mite': 'uop_miss_uops'}
# Instruction classes (docs/fesim.md, "Instruction classes"), same names
# as the plugin's "classes" object.
CLASSES = ('rep_movs', 'rep_movs_iters', 'rep_stos', 'rep_stos_iters', 'div',
           'lcp', 'calls', 'rets', 'indirect_branches', 'cross16', 'cross64',
           'unaligned_targets')
# A footprint is a property of a region, not a rate: never divided per op.
PER_REGION = ('sim.footprint_bytes',)


class SimError(Exception):
    """The simulator's output is missing or unreadable (one-line message)."""


@dataclass
class SimOutput:
    models: list[str]
    regions: dict[int, dict[str, Any]] = field(default_factory=dict)
    header: dict[str, Any] = field(default_factory=dict)
    total: dict[str, Any] = field(default_factory=dict)
    # per-function rows (syms=): id -> (name, address), the row columns
    funcs: dict[int, tuple[str, int]] = field(default_factory=dict)
    func_columns: list[str] = field(default_factory=list)
    # call edges (syms=): (caller id, callee id, count), docs/fesim.md
    calls: list[tuple[int, int, int]] = field(default_factory=list)


def parse_models(text: str) -> list[str]:
    """--sim MODEL[@POLICY],...: the settings in order, validated."""
    models = [m for m in text.split(',') if m]
    bad = [m for m in models
           if m.partition('@')[0] not in KNOWN_MODELS or
           ('@' in m and m.partition('@')[2] not in SETTINGS)]
    if not models or bad:
        raise SimError(f'unknown simulator model or policy {", ".join(bad) or "(none)"}; '
                       f'syntax MODEL[@POLICY], models: {", ".join(KNOWN_MODELS)}; '
                       f'policies: {", ".join(SETTINGS)}')
    dup = sorted({m for m in models if models.count(m) > 1})
    if dup:
        raise SimError(f'simulator setting given twice: {", ".join(dup)}')
    if len(models) > MAX_SETTINGS:
        raise SimError(f'{len(models)} simulator settings; at most {MAX_SETTINGS}')
    return models


def split_setting(setting: str) -> tuple[str, str]:
    """MODEL[@POLICY] as (MODEL, POLICY); a bare MODEL is its preset's
    default, LRU."""
    model, _, policy = setting.partition('@')
    return model, policy or 'lru'


# Whole-boot totals (firmware, boot path, idle) are NOT repeatable: their
# interrupts and timer loops follow the host clock. Under `-icount` with a
# fixed shift the ISO boot reaches the kernel (since GRUB no longer waits
# for serial keys), but two identical boots' totals still differ (by about
# 30,000 of 384 M instructions: the CD's reads complete in host time), and
# shift=auto follows the host clock again. Region figures are repeatable
# (interrupts masked). docs/fesim.md, "Whole-boot totals".
WHOLE_BOOT_REPEATABLE = False
WHOLE_BOOT_NOTE = ('whole-boot totals are NOT repeatable (firmware and idle '
                   'code run by the host clock); region figures are')


def models_of(names: Iterable[str]) -> list[str]:
    """The simulator settings (MODEL[@POLICY]) that per-model counter
    names (sim.SETTING.COUNTER) name, sorted."""
    return sorted({n.split('.')[1] for n in names
                   if n.startswith('sim.') and n.count('.') == 2})


def plugin_args(plugin: Path, models: list[str], out: Path,
                syms: Path | None = None, skip_boot: bool = False,
                pages: str = '4k') -> list[str]:
    """skip_boot: model nothing before the kernel's first marker (its
    harness flushes before any region, so no region figure changes; the
    whole-boot totals then leave out the firmware and boot: docs/fesim.md,
    "Whole-boot totals"). pages: the iTLB's page size, the kernel's
    textpages= (kargs.text_pages(): an API v1 plugin cannot read the
    guest's page tables); the plugin's default, 4k, is not named."""
    # Models are joined with ':' since QEMU splits plugin arguments at ','.
    extra = f',syms={syms}' if syms is not None else ''
    extra += ',skip_boot=on' if skip_boot else ''
    extra += f',pages={pages}' if pages != '4k' else ''
    return ['-plugin', f'{plugin},model={":".join(models)},out={out}{extra}']


def plugin_path() -> Path:
    """Where `kfront build` puts the plugin."""
    from . import paths
    return paths.BUILD / 'tools' / 'fesim' / 'libfesim.so'


def whole_boot_lines(sim: SimOutput) -> list[str]:
    """Whole-boot totals per model setting, one line each, for `kfront
    boot --sim`."""
    tot = sim.total
    lines = [f'fesim: {tot.get("insns", 0)} instructions, '
             f'{len(sim.regions)} regions, footprint '
             f'{tot.get("footprint_bytes", 0)} bytes (whole boot; '
             f'{WHOLE_BOOT_NOTE})']
    for model in sim.models:
        m = (tot.get('models') or {}).get(model, {})
        lines.append(f'fesim: {model}: l1i {m.get("l1i_misses", "?")} misses '
                     f'{m.get("l1i_prefetches", "?")} prefetches, uop '
                     f'{m.get("uop_misses", "?")} misses, itlb '
                     f'{m.get("itlb_l1_misses", "?")} L1 misses '
                     f'{m.get("itlb_misses", "?")} walks')
    return lines


def write_symbols(elf: Path, out: Path) -> Path:
    """The kernel's symbol table as `nm -n` prints it, for syms=."""
    try:
        res = subprocess.run(['nm', '-n', '--defined-only', str(elf)],
                             capture_output=True, text=True, check=False)
    except OSError as exc:
        raise SimError(f'nm: {exc.strerror}') from exc
    if res.returncode != 0:
        raise SimError(f'nm {elf}: {res.stderr.strip() or "failed"}')
    out.write_text(res.stdout, encoding='utf-8')
    return out


def read_objects(path: Path) -> list[dict[str, Any]]:
    """The plugin's output file as its JSON objects, in order."""
    try:
        lines = path.read_text(encoding='utf-8').splitlines()
    except OSError as exc:
        raise SimError(f'{path}: {exc.strerror}') from exc
    objs = []
    for n, line in enumerate(lines, 1):
        try:
            objs.append(json.loads(line))
        except json.JSONDecodeError as exc:
            raise SimError(f'{path}:{n}: not JSON ({exc.msg})') from exc
    return objs


def load(path: Path) -> SimOutput:
    out = SimOutput(models=[])
    for obj in read_objects(path):
        kind = obj.get('type')
        if kind == 'fesim':
            out.header = obj
            out.models = list(obj.get('models', []))
            out.func_columns = list(obj.get('func_columns', []))
        elif kind == 'func':
            out.funcs[int(obj['id'])] = (str(obj['name']), int(obj['addr']))
        elif kind == 'call':
            out.calls.append((int(obj['caller']), int(obj['callee']),
                              int(obj['count'])))
        elif kind == 'region':
            out.regions[int(obj['seq'])] = obj
        elif kind == 'total':
            out.total = obj
    if not out.header:
        raise SimError(f'{path}: no fesim header line')
    return out


def _value(region: dict[str, Any], name: str, model: str | None) -> int:
    if model is None:
        if name in CLASSES:
            return int(region['classes'][name])
        return int(region[COMMON[name]])
    return int(region['models'][model][PLUGIN_NAMES.get(name, name)])


def _series(sim: SimOutput, p: dict[str, Any], name: str,
            model: str | None) -> list[int] | None:
    return regions.per_run(p, lambda seq: _value(sim.regions[seq], name, model))


def bracket_functions(sim: SimOutput, p: dict[str, Any]) -> set[int] | None:
    """The harness's bracketing functions of result payload p as plugin
    function ids (regions.bracket()); None without per-function rows."""
    if not sim.funcs:
        return None
    return regions.bracket(
        p, lambda s: {int(row[0]) for row in sim.regions[s].get('funcs', [])})


def _measured_misses(sim: SimOutput, p: dict[str, Any], name: str, model: str,
                     bracket: set[int]) -> list[int] | None:
    """Per-run samples of a model's misses in the measured code alone: each
    region's figure minus the rows of the harness's bracketing functions
    (docs/fesim.md, "Misses of the measured code"). None when the plugin's
    rows have no column for the counter, or a region is missing."""
    try:
        col = sim.func_columns.index(f'{model}.{name}')
    except ValueError:
        return None

    def value(seq: int) -> int:
        region = sim.regions[seq]
        harness = sum(int(row[col]) for row in region.get('funcs', [])
                      if int(row[0]) in bracket)
        return _value(region, name, model) - harness
    return regions.per_run(p, value)


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
        # output of a plugin before issue 19 has no classes: not an error
        for name in CLASSES:
            vals = _series(sim, p, name, None)
            if vals is not None:
                samples[f'sim.{name}'] = vals
        p['per_region'] = sorted(set(p.get('per_region') or []) |
                                 set(PER_REGION))
        table = function_table(sim, p)
        if table is not None:
            p['sim_functions'] = table
        bracket = bracket_functions(sim, p)
        for model in sim.models:
            for name in PER_MODEL + PER_MODEL_NEW:
                vals = None
                if bracket is not None:
                    vals = _measured_misses(sim, p, name, model, bracket)
                if vals is None:
                    vals = _series(sim, p, name, model)
                ok &= vals is not None or name in PER_MODEL_NEW
                if vals is not None:
                    samples[f'sim.{model}.{name}'] = vals
        merged += ok
    return merged


def _column_name(col: str) -> str:
    """A plugin row column as the sim.* counter it splits, minus 'sim.'."""
    return 'instructions' if col == 'insns' else col


def function_rows(sim: SimOutput, seq: int) -> dict[Any, list[float]]:
    """Region seq's per-function rows: function id -> the columns after
    the id (func_columns[1:]); KeyError for a region not in the output."""
    region = sim.regions.get(seq)
    if region is None:
        raise KeyError(seq)
    return {int(row[0]): row[1:] for row in region.get('funcs', [])}


def function_table(sim: SimOutput, p: dict[str, Any]) -> dict[str, Any] | None:
    """The flat per-function table of result payload p (results.json
    `sim_functions`), or None without per-function rows."""
    if not sim.funcs or len(sim.func_columns) < 2:
        return None

    def label(fid: Any) -> dict[str, Any]:
        name, addr = sim.funcs.get(fid, ('(unknown)', 0))
        return {'function': name, 'addr': f'0x{addr:x}'}
    return functable.build(p, lambda seq: function_rows(sim, seq),
                           [_column_name(c) for c in sim.func_columns[1:]], label)


def describe(sim: SimOutput) -> dict[str, Any]:
    """What results.json records about the simulation."""
    return {'models': sim.models, 'regions': len(sim.regions),
            'header': sim.header,
            'whole_boot_repeatable': WHOLE_BOOT_REPEATABLE,
            # what the model counters with function rows count (a plugin
            # before their columns: l1i_prefetches, itlb_l1_misses whole)
            'misses_of': (regions.MISSES_MEASURED if sim.funcs and
                          any(c.endswith('.l1i_misses') for c in sim.func_columns)
                          else regions.MISSES_WHOLE_REGION)}
