# SPDX-License-Identifier: GPL-2.0-or-later
"""The suite's progress lines, echoed while a boot or a host run goes on.

Shared by `kfront run` and `kfront host`: both read the same record stream
and show the same lines, on stderr (stdout is kept for the results, e.g.
`--json`), each with the elapsed time and, once a benchmark finished, an
estimate of the time left. The kernel prints `[i/N] NAME` as benchmark i
starts, `[i/N] NAME footprint=F` as each point of a footprint sweep starts
(the sweep's points come from the command line the kernel echoes at boot),
so the fraction done is (i-1 + the sweep points done of i) / N, and the
rest is assumed to go at the rate so far, counted from `[1/N]`.
"""
from __future__ import annotations

import re
import sys
import time
from typing import Callable, TextIO

PROGRESS_RE = re.compile(rb'^kfront: (\[\d+/\d+\].*|error.*|warning.*|timeout.*|exit status.*)$')
STEP_RE = re.compile(r'^\[(\d+)/(\d+)\]\s*\S+(?:\s+footprint=(\d+))?')
# The boot banner's echo of the command line: the footprint sweep's points.
SWEEP_RE = re.compile(rb'cmdline"?: ?"?[^"]*?\bfootprint=([0-9,]+)')


def done_fraction(pos: int, total: int, footprint: int | None, sweep: list[int]) -> float:
    """The share of the suite done when benchmark pos of total (at this
    sweep point) starts."""
    within = 0.0
    if footprint is not None and footprint in sweep:
        within = sweep.index(footprint) / len(sweep)
    return (pos - 1 + within) / total if total > 0 else 0.0


def remaining_s(first: float, now: float, done: float) -> float | None:
    """Seconds left when the share done of the work took now - first;
    None before anything finished."""
    if done <= 0 or done > 1 or now <= first:
        return None
    return (now - first) * (1 - done) / done


def duration_text(seconds: float) -> str:
    if seconds < 90:
        return f'{seconds:.0f} s'
    return f'{seconds / 60:.0f} min' if seconds < 5400 else f'{seconds / 3600:.1f} h'


class Progress:
    """Prints the kernel's progress lines with the elapsed time and the
    estimated time left."""

    def __init__(self, stream: TextIO | None = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.stream = stream or sys.stderr
        self.clock = clock
        self.start = clock()
        self.first: float | None = None
        self.sweep: list[int] = []
        self.buf = b''

    def __call__(self, chunk: bytes) -> None:
        self.buf += chunk
        *lines, self.buf = self.buf.split(b'\n')
        for raw in lines:
            line = raw.rstrip(b'\r')
            m = SWEEP_RE.search(line)
            if m:
                self.sweep = [int(x) for x in m.group(1).split(b',') if x]
            if PROGRESS_RE.match(line):
                self.show(line[8:].decode(errors='replace'))

    def show(self, text: str) -> None:
        now = self.clock()
        left = ''
        m = STEP_RE.match(text)
        if m:
            pos, total = int(m.group(1)), int(m.group(2))
            fp = int(m.group(3)) if m.group(3) else None
            done = done_fraction(pos, total, fp, self.sweep)
            if self.first is None or done == 0:
                self.first = now
            est = remaining_s(self.first, now, done)
            if est is not None:
                left = f'  (about {duration_text(est)} left)'
        print(f'  {now - self.start:6.1f} s  {text}{left}', file=self.stream, flush=True)
