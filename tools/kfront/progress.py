# SPDX-License-Identifier: GPL-2.0-or-later
"""The suite's progress lines, echoed while a boot or a host run goes on.

Shared by `kfront run` and `kfront host`: both read the same record stream
and show the same lines.
"""
from __future__ import annotations

import re
import time

PROGRESS_RE = re.compile(rb'^kfront: (\[\d+/\d+\].*|error.*|warning.*|timeout.*|exit status.*)$')


class Progress:
    """Prints the kernel's progress lines with the elapsed time."""

    def __init__(self) -> None:
        self.start = time.monotonic()
        self.buf = b''

    def __call__(self, chunk: bytes) -> None:
        self.buf += chunk
        *lines, self.buf = self.buf.split(b'\n')
        for raw in lines:
            line = raw.rstrip(b'\r')
            if PROGRESS_RE.match(line):
                elapsed = time.monotonic() - self.start
                print(f'  {elapsed:6.1f} s  {line[8:].decode(errors="replace")}', flush=True)
