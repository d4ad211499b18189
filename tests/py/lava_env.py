# SPDX-License-Identifier: GPL-2.0-or-later
"""Where LAVA's own code is: a Python interpreter that imports it.

Debian's lava-common and lava-dispatcher install into the system Python
(/usr/bin/python3); the tests may run under another one (a pyenv shim), so
LAVA's validator and pexpect run in a child process of an interpreter that
has them. Tests skip, saying why, when none has.
"""
from __future__ import annotations

import functools
import subprocess
import sys

CANDIDATES = (sys.executable, '/usr/bin/python3')


@functools.lru_cache(maxsize=None)
def python_with(module: str) -> str | None:
    """The first interpreter that can import `module`, or None."""
    for exe in CANDIDATES:
        try:
            res = subprocess.run([exe, '-c', f'import {module}'],
                                 capture_output=True, timeout=60)
        except (OSError, subprocess.TimeoutExpired):
            continue
        if res.returncode == 0:
            return exe
    return None


def run_python(exe: str, code: str, stdin: str = '', timeout: float = 120
               ) -> subprocess.CompletedProcess:
    return subprocess.run([exe, '-c', code], input=stdin, capture_output=True,
                          text=True, timeout=timeout)


SKIP_VALIDATOR = ('LAVA job schema not installed: apt-get install lava-common '
                  '(kfront setup installs it)')
SKIP_PEXPECT = 'pexpect not installed (python3-pexpect, pulled in by lava-dispatcher)'
