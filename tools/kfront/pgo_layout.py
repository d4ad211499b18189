# SPDX-License-Identifier: GPL-2.0-or-later
"""The pgo-layout variant's function order (docs/pgo.md, "pgo-layout"):
from a simulator run of the pgo variant on the training workloads to
build/pgo/<set>/layout.txt, and the figures that compare it with O2, Os
and pgo."""
from __future__ import annotations

import re
import subprocess
from pathlib import Path
from typing import Any

from kfront import layout, paths, pgo, sim, stats

BASE = 'pgo'            # the variant whose code is ordered
VARIANT = 'pgo-layout'


class LayoutError(Exception):
    pass


def _run(cmd: list[str]) -> str:
    res = subprocess.run(cmd, capture_output=True, text=True, check=False)
    if res.returncode != 0:
        raise LayoutError(f'{cmd[0]} {cmd[-1]}: {res.stderr.strip() or "failed"}')
    return res.stdout


def variant_object(build: Path, name: str) -> tuple[Path, int]:
    """The kernel object of variant NAME in build/bench and its index (its
    sections are .variant.NN.NAME.*)."""
    pat = re.compile(r'\.variant\.(\d+)\.' + re.escape(name) + r'\.text\b')
    for obj in sorted((build / 'bench').glob('variant_*.o')):
        m = pat.search(_run(['readelf', '-S', '-W', str(obj)]))
        if m:
            return obj, int(m.group(1))
    raise LayoutError(f'variant {name} is not in {build / "bench"} (was it built?)')


def functions(obj: Path) -> dict[str, int]:
    """Function name -> size of a variant object, in address order."""
    out: dict[str, int] = {}
    for line in _run(['nm', '-n', '-S', '--defined-only', str(obj)]).splitlines():
        parts = line.split()
        if len(parts) == 4 and parts[2] in 'tT':
            out.setdefault(parts[3], int(parts[1], 16))
    return out


def text_range(elf: Path, index: int) -> tuple[int, int]:
    """[start, end) of the text of the variant with that index in the
    image (text_range_of the image's symbol table)."""
    return text_range_of(_run(['nm', '-n', '--defined-only', str(elf)]), index, str(elf))


def text_range_of(nm_text: str, index: int, what: str) -> tuple[int, int]:
    """[start, end) of the variant with that index, from `nm -n` output:
    kernel.ld places the variants' text by section name, so it is the
    index-th __kfv_text_start/__kfv_text_end pair in address order."""
    starts, ends = [], []
    for line in nm_text.splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[2] in ('__kfv_text_start', '__kfv_text_end'):
            (starts if parts[2].endswith('start') else ends).append(int(parts[0], 16))
    if index >= len(starts) or len(starts) != len(ends):
        raise LayoutError(f'{what}: no text range for variant index {index}')
    return starts[index], ends[index]


def make(run_dir: Path, meta: dict[str, Any], build: Path = paths.BUILD) -> dict[str, Any]:
    """The order of the pgo variant's functions from the simulator run in
    run_dir (fesim.jsonl, made with syms=), written beside the profile."""
    try:
        out = sim.load(run_dir / 'fesim.jsonl')
    except sim.SimError as exc:
        raise LayoutError(str(exc)) from exc
    if not out.funcs:
        raise LayoutError(f'{run_dir / "fesim.jsonl"}: no function records (no syms=?)')
    obj, index = variant_object(build, BASE)
    # the symbol table of the image that ran (cmd_run writes it for syms=)
    syms = run_dir / 'kfront.syms'
    try:
        text = text_range_of(syms.read_text(encoding='utf-8'), index, str(syms))
    except OSError as exc:
        raise LayoutError(f'{syms}: {exc.strerror}') from exc
    g = layout.from_sim(out, functions(obj), text)
    if not g.calls:
        raise LayoutError(f'{run_dir / "fesim.jsonl"}: no call edges in variant {BASE}')
    order = layout.c3(g)
    return layout.write(pgo.pgo_profile.profile_dir(build, meta['train']), order, g, meta)


def _ratio(a: float | None, b: float | None) -> float | None:
    return round(a / b, 3) if a is not None and b else None


def compare(data: dict[str, Any], model: str = 'skylake') -> list[dict[str, Any]]:
    """Per workload point: L1i misses per operation of O2, Os, pgo and
    pgo-layout, instructions of each / O2, and (host results) TSC of
    pgo-layout / pgo and / best-of(O2, Os). Only figures the results hold."""
    points: dict[tuple[str, Any], dict[str, dict[str, Any]]] = {}
    for r in data.get('results', []):
        points.setdefault((r['bench'], r.get('footprint')), {})[r['variant']] = r
    rows = []
    for (bench, fp), by in sorted(points.items(), key=lambda kv: (kv[0][0], kv[0][1] or 0)):
        if VARIANT not in by:
            continue
        row: dict[str, Any] = {'bench': bench, 'footprint': fp}
        insns_o2 = pgo._median(by.get('O2', {}), 'sim.instructions')
        for v in ('O2', 'Os', BASE, VARIANT):
            miss = pgo._median(by.get(v, {}), f'sim.{model}.l1i_misses')
            if miss is not None:
                row[f'l1i_{v}'] = miss
            ins = _ratio(pgo._median(by.get(v, {}), 'sim.instructions'), insns_o2)
            if ins is not None:
                row[f'insns_{v}_vs_O2'] = ins
        tsc = {v: pgo._median(by.get(v, {}), 'tsc') for v in ('O2', 'Os', BASE, VARIANT)}
        if data.get('context') == 'user' and tsc[VARIANT]:
            if tsc[BASE]:
                row['tsc_vs_pgo'] = _ratio(tsc[VARIANT], tsc[BASE])
            if tsc['O2'] and tsc['Os']:
                row['tsc_vs_best'] = _ratio(tsc[VARIANT], min(tsc['O2'], tsc['Os']))
        rows.append(row)
    return rows


def compare_text(rows: list[dict[str, Any]], title: str) -> str:
    lines = [f'pgo-layout ({title}; L1i misses per operation; instructions / O2):',
             f'{"bench":22} {"fp":>4} {"L1i O2":>8} {"Os":>8} {"pgo":>8} {"layout":>8} '
             f'{"ins pgo":>7} {"layout":>7} {"tsc/pgo":>7} {"/best":>6}']
    for r in rows:
        def f(k: str, fmt: str = '.3f') -> str:
            return pgo.cell(r, k, fmt)
        fp = '-' if r['footprint'] is None else str(r['footprint'])
        lines.append(f'{r["bench"]:22} {fp:>4} {f("l1i_O2", ".4f"):>8} {f("l1i_Os", ".4f"):>8} '
                     f'{f("l1i_pgo", ".4f"):>8} {f("l1i_pgo-layout", ".4f"):>8} '
                     f'{f("insns_pgo_vs_O2"):>7} {f("insns_pgo-layout_vs_O2"):>7} '
                     f'{f("tsc_vs_pgo"):>7} {f("tsc_vs_best"):>6}')
    for key in ('tsc_vs_pgo', 'tsc_vs_best'):
        gm = stats.geomean([r[key] for r in rows if r.get(key)])
        if gm is not None:
            lines.append(f'geometric mean {key.replace("_", " ")}: {gm:.3f}')
    return '\n'.join(lines)
