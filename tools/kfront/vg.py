# SPDX-License-Identifier: GPL-2.0-or-later
"""Valgrind figures for the host harness: callgrind runs and their merge.

Each variant's host program runs once under callgrind with its cache
simulator on (the simulator cachegrind uses, with the L1i geometry stated
below). The program zeroes the counts at the start of every measured region
and dumps them at its end as one part named "kfront-region-SEQ"
(host/vg.c), so a part holds exactly one region. Result records list their
regions per run (and the empty calibration regions), exactly as for the
fesim simulator (sim.py), so vg.instructions and vg.i1_misses are formed
the same way: region minus the median calibration region, or the 2N
region minus the N region with method "diff". vg.i1_misses leaves out the
harness's bracketing functions, as the simulator's miss counters do
(regions.bracket()).
"""
from __future__ import annotations

import re
import subprocess
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from . import functable, regions
from .records import Run

# Stated cache geometry (size, associativity, line): an L1i of 32 KiB,
# 8-way, 64-byte lines, as on Skylake and Zen 4. D1 and LL are stated too,
# so no run depends on what valgrind guesses from CPUID.
I1 = '32768,8,64'
D1 = '32768,8,64'
LL = '1048576,16,64'
CALLGRIND_ARGS = ['--tool=callgrind', '--cache-sim=yes', f'--I1={I1}', f'--D1={D1}',
                  f'--LL={LL}', '--combine-dumps=yes', '--dump-instr=no', '--dump-line=no']
# results.json counter name -> callgrind event.
EVENTS = {'vg.instructions': 'Ir', 'vg.i1_misses': 'I1mr'}
REGION_RE = re.compile(r'^desc: Trigger: Client Request: kfront-region-(\d+)$')
# Name compression: "fn=(12) name" defines id 12, "fn=(12)" refers to it.
NAME_RE = re.compile(r'^c?fn=(?:\((\d+)\))?\s*(.*)$')
# Per-function table columns (results.json vg_functions), from EVENTS.
FUNC_COLUMNS = [name[3:] for name in EVENTS]


class VgError(Exception):
    """Callgrind output that cannot be used (one-line message)."""


@dataclass
class VgOutput:
    """Event counts per region number, from one callgrind run."""

    regions: dict[int, dict[str, int]] = field(default_factory=dict)
    # region -> function name -> self cost per event of EVENTS, in order
    functions: dict[int, dict[str, list[int]]] = field(default_factory=dict)


def command(exe: Path, out_file: Path, args: list[str]) -> list[str]:
    """The valgrind command line for one host program run."""
    return ['valgrind', *CALLGRIND_ARGS, f'--callgrind-out-file={out_file}',
            str(exe), '--no-pin', *args]


def version() -> str:
    try:
        return subprocess.run(['valgrind', '--version'], capture_output=True, text=True,
                              check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return 'unknown'


class _Functions:
    """Self cost per function of one part of a callgrind file: the cost
    lines under `fn=`, leaving out the line after `calls=` (the inclusive
    cost of a call, which belongs to the callee)."""

    def __init__(self) -> None:
        self.names: dict[str, str] = {}     # compressed id -> name, file-wide
        self.reset([])

    def reset(self, events: list[str]) -> None:
        self.columns = [events.index(e) if e in events else None
                        for e in EVENTS.values()]
        self.costs: dict[str, list[int]] = {}
        self.current: str | None = None
        self.skip = False

    def _name(self, line: str) -> str:
        m = NAME_RE.match(line)
        assert m is not None
        ident, name = m.group(1), m.group(2)
        if ident is None:
            return name
        if name:
            self.names[ident] = name
        return self.names.get(ident, f'({ident})')

    def line(self, line: str) -> None:
        if line.startswith(('fn=', 'cfn=')):
            name = self._name(line)
            if line.startswith('fn='):
                # "f'2": callgrind's second recursion level of f (a task
                # switch looks like recursion to it): the same code
                self.current = name.split("'", 1)[0]
        elif line.startswith('calls='):
            self.skip = True
        elif line[:1].isdigit() or line[:1] in '+-*':
            if self.skip:
                self.skip = False
                return
            if self.current is None:
                return
            values = line.split()[1:]
            cost = self.costs.setdefault(self.current, [0] * len(self.columns))
            for i, col in enumerate(self.columns):
                if col is not None and col < len(values):
                    cost[i] += int(values[col])


def parse(path: Path) -> VgOutput:
    """Region counts, and self cost per function, from a combined
    callgrind output file (VgError)."""
    out = VgOutput()
    try:
        text = path.read_text(errors='replace')
    except OSError as exc:
        raise VgError(f'cannot read {path}: {exc.strerror or exc}') from None
    seq: int | None = None
    events: list[str] = []
    funcs = _Functions()
    for line in text.splitlines():
        m = REGION_RE.match(line)
        if m:
            seq = int(m.group(1))
        elif line.startswith('events:'):
            events = line.split()[1:]
            funcs.reset(events)
        elif seq is not None and not line.startswith('totals:'):
            funcs.line(line)
        elif line.startswith('totals:') and seq is not None:
            out.functions[seq] = funcs.costs
            values = [int(v) for v in line.split()[1:]]
            # callgrind leaves out trailing zero counts
            out.regions[seq] = {e: values[i] if i < len(values) else 0
                                for i, e in enumerate(events)}
            seq = None
            funcs.reset(events)
    if not out.regions:
        raise VgError(f'{path}: no kfront regions (was the program built with host/vg.c?)')
    return out


# Events that count misses: the harness's bracketing functions are left
# out of them (regions.bracket()), as from the simulator's model misses.
MISS_EVENTS = ('I1mr',)


def series(vg: VgOutput, p: dict[str, Any], event: str) -> list[int] | None:
    """Per-run counts of one event for a result payload, overhead removed
    (tools/kfront/regions.py); a miss event counts the measured code alone."""
    bracket = regions.bracket(p, lambda seq: set(vg.functions[seq])) \
        if event in MISS_EVENTS and vg.functions else None
    col = list(EVENTS.values()).index(event)

    def value(seq: int) -> int:
        harness = sum(cost[col] for name, cost in vg.functions[seq].items()
                      if name in bracket) if bracket else 0
        return vg.regions[seq][event] - harness
    return regions.per_run(p, value)


def _key(p: dict[str, Any]) -> tuple[Any, ...]:
    return (p.get('bench'), p.get('variant'), p.get('footprint'))


def merge_into_run(run: Run, vg_run: Run, vg: VgOutput) -> tuple[int, list[str]]:
    """Add vg.* samples to the result records of run that vg_run measured.

    Returns how many records got them and notes on those that did not.
    A valgrind run with other iterations per run is scaled to run's.
    """
    vg_results = {_key(r.payload): r.payload for r in vg_run.of_type('result')
                  if r.payload.get('group') == 0}
    merged, notes = 0, []
    for rec in run.of_type('result'):
        p = rec.payload
        if p.get('group') != 0:
            continue
        src = vg_results.get(_key(p))
        if src is None:
            continue
        scale = p['iters'] / src['iters'] if src.get('iters') else 1.0
        if scale != 1.0:
            notes.append(f"{p['bench']} {p['variant']}: valgrind ran {src['iters']} "
                         f"operations per run, scaled to {p['iters']}")
        ok = True
        for name, event in EVENTS.items():
            vals = series(vg, src, event)
            if vals is None:
                ok = False
                continue
            p.setdefault('samples', {})[name] = [round(v * scale) for v in vals]
        table = function_table(vg, src, scale)
        if table is not None:
            p['vg_functions'] = table
        merged += ok
        if not ok:
            notes.append(f"{p['bench']} {p['variant']}: callgrind output lacks its regions")
    return merged, notes


def function_table(vg: VgOutput, p: dict[str, Any], scale: float = 1.0
                   ) -> dict[str, Any] | None:
    """The flat per-function table of result payload p (results.json
    `vg_functions`): self cost per function, from callgrind's own
    attribution, scaled like the counters when the valgrind run did
    another number of operations per run."""
    if not vg.functions:
        return None

    def rows_of(seq: int) -> dict[Any, list[float]]:
        return {name: [v * scale for v in cost]
                for name, cost in vg.functions[seq].items()}
    return functable.build(p, rows_of, FUNC_COLUMNS, lambda name: {'function': name})
