# SPDX-License-Identifier: GPL-2.0-or-later
"""The suite's progress lines, echoed while a boot or a host run goes on.

Shared by `kfront run` and `kfront host`: both read the same record stream
and show the same lines, on stderr (stdout is kept for the results, e.g.
`--json`), each with the elapsed time and, from the second benchmark on,
an estimate of the time left: the kernel prints `[i/N] NAME` as benchmark
i starts, so i-1 benchmarks took the time since `[1/N]`, and the N-i+1
still to come are assumed to take as long each on average.
"""
from __future__ import annotations

import re
import sys
import time
from typing import Callable, TextIO

PROGRESS_RE = re.compile(rb'^kfront: (\[\d+/\d+\].*|error.*|warning.*|timeout.*|exit status.*)$')
STEP_RE = re.compile(r'^\[(\d+)/(\d+)\]')


def remaining_s(first: float, now: float, pos: int, total: int) -> float | None:
    """Seconds left when benchmark pos of total starts at now, the first
    having started at first; None before any benchmark finished."""
    done = pos - 1
    if done < 1 or total < pos or now <= first:
        return None
    return (now - first) / done * (total - done)


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
        self.buf = b''

    def __call__(self, chunk: bytes) -> None:
        self.buf += chunk
        *lines, self.buf = self.buf.split(b'\n')
        for raw in lines:
            line = raw.rstrip(b'\r')
            if PROGRESS_RE.match(line):
                self.show(line[8:].decode(errors='replace'))

    def show(self, text: str) -> None:
        now = self.clock()
        left = ''
        m = STEP_RE.match(text)
        if m:
            pos, total = int(m.group(1)), int(m.group(2))
            if pos == 1 or self.first is None:
                self.first = now
            est = remaining_s(self.first, now, pos, total)
            if est is not None:
                left = f'  (about {duration_text(est)} left)'
        print(f'  {now - self.start:6.1f} s  {text}{left}', file=self.stream, flush=True)
