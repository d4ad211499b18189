# SPDX-License-Identifier: GPL-2.0-or-later
"""Ending cleanly when told to stop: SIGINT, SIGTERM, SIGHUP, or the death
of the process that started kfront.

CI runners, `timeout` and LAVA stop a job with SIGTERM; a closed terminal
sends SIGHUP. Python's default for both ends the process at once, without
running `finally` blocks, so QEMU (started in its own session so that a
terminal's ^C reaches only kfront) would be left running with parent 1.
Here each of those signals raises `Stopped` in the main thread instead:
the `finally` blocks stop QEMU and the wire peer and remove temporary
directories, the partial serial log stays on disk, and the command prints
how to salvage it. kfront also asks the kernel for SIGTERM when its parent
dies, and every QEMU it starts for SIGKILL when kfront dies, so not even a
SIGKILL of kfront leaves QEMU behind.
"""
from __future__ import annotations

import ctypes
import signal
import sys
from types import FrameType

PR_SET_PDEATHSIG = 1    # linux/prctl.h
STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)

# Set by a command while it writes a serial log: how to collect it.
_salvage: list[str] = []


class Stopped(BaseException):
    """A stop signal arrived; unwinds like KeyboardInterrupt."""

    def __init__(self, signum: int) -> None:
        super().__init__(signal.Signals(signum).name)
        self.signum = signum

    @property
    def exit_status(self) -> int:
        return 128 + self.signum


def _raise_stopped(signum: int, frame: FrameType | None) -> None:
    # Ignore further stop signals while unwinding: a second SIGTERM from an
    # impatient runner must not cut the clean-up short.
    for sig in STOP_SIGNALS:
        signal.signal(sig, signal.SIG_IGN)
    raise Stopped(signum)


def _prctl_pdeathsig(sig: int) -> bool:
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        return libc.prctl(PR_SET_PDEATHSIG, sig, 0, 0, 0) == 0
    except (OSError, AttributeError):
        return False


def install() -> None:
    """Stop signals raise Stopped; the parent's death sends SIGTERM."""
    for sig in STOP_SIGNALS:
        signal.signal(sig, _raise_stopped)
    _prctl_pdeathsig(signal.SIGTERM)


def die_with_parent() -> None:
    """preexec_fn for children that must not outlive kfront (QEMU)."""
    _prctl_pdeathsig(signal.SIGKILL)


def salvage_hint(command: str) -> None:
    """Remember the command that collects what a stopped run left."""
    _salvage[:] = [command]


def clear_salvage_hint() -> None:
    _salvage.clear()


def report_stop(exc: BaseException) -> int:
    """Say what happened and how to salvage; the exit status to use."""
    name = exc.args[0] if isinstance(exc, Stopped) else 'SIGINT'
    print(f'kfront: stopped by {name}', file=sys.stderr)
    if _salvage:
        print(f'kfront: the partial serial log is kept; collect it with: '
              f'{_salvage[0]}', file=sys.stderr)
    return exc.exit_status if isinstance(exc, Stopped) else 130
