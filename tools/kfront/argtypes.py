# SPDX-License-Identifier: GPL-2.0-or-later
"""Validating argparse types shared by the kfront commands.

float() accepts "nan", "inf" and "-0"; a timeout of nan makes every
comparison false (the boot loop would never time out), so every numeric
option goes through one of these and a bad value is an argparse error
(exit 2) that names the valid range.
"""
from __future__ import annotations

import argparse
import math
import re

from kfront import names
from kfront.repeats import MAX_PROCESSES
from kfront.sim import MAX_SETTINGS

# QEMU's -m takes mebibytes by default, or a number with a suffix.
_SIZE_RE = re.compile(r'^([0-9]+)([MmGg]?)$')
_SIZE_UNIT_MB = {'': 1, 'm': 1, 'g': 1024}
# The kernel needs a few MiB for itself and the benchmarks' buffers; above
# 16 GiB nothing changes for the suite while QEMU's host memory use grows.
MEMORY_MIN_MB = 32
MEMORY_MAX_MB = 16384
# q35 with TCG boots up to this many vCPUs in reasonable time; the kernel
# runs on the first one.
SMP_MAX = 64


def positive_seconds(text: str) -> float:
    """A finite number of seconds greater than zero."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f'{text!r} is not a number of seconds') from None
    if not math.isfinite(value) or value <= 0:
        raise argparse.ArgumentTypeError(
            f'{text!r}: want a finite number of seconds greater than 0')
    return value


def sim_jobs(text: str) -> int:
    """A number of parallel simulator boots: as many settings as a run can
    have (sim.MAX_SETTINGS) at most; a run uses at most one boot per
    setting, or with one setting one per benchmark."""
    if not re.fullmatch(r'[0-9]+', text) or not 1 <= int(text) <= MAX_SETTINGS:
        raise argparse.ArgumentTypeError(
            f'{text!r}: want a whole number of boots from 1 to {MAX_SETTINGS}')
    return int(text)


# kfront sim-speed: each round is a plain and a simulated quick suite or
# more, minutes each; fifty is most of a day.
ROUNDS_MAX = 50


def rounds(text: str) -> int:
    """A number of measuring rounds, 1 to ROUNDS_MAX."""
    if not re.fullmatch(r'[0-9]+', text) or not 1 <= int(text) <= ROUNDS_MAX:
        raise argparse.ArgumentTypeError(
            f'{text!r}: want a whole number of rounds from 1 to {ROUNDS_MAX}')
    return int(text)


def processes(text: str) -> int:
    """A number of host-harness processes, 1 to repeats.MAX_PROCESSES."""
    if not re.fullmatch(r'[0-9]+', text) or not 1 <= int(text) <= MAX_PROCESSES:
        raise argparse.ArgumentTypeError(
            f'{text!r}: want a whole number of processes from 1 to {MAX_PROCESSES}')
    return int(text)


def memory_mb(text: str) -> int:
    """A guest memory size as QEMU's -m reads it (64M, 1G, 512), in MiB."""
    match = _SIZE_RE.match(text.strip())
    if not match:
        raise argparse.ArgumentTypeError(
            f'{text!r}: want a size such as 64M, 512M or 2G (plain numbers are MiB)')
    size = int(match.group(1)) * _SIZE_UNIT_MB[match.group(2).lower()]
    if not MEMORY_MIN_MB <= size <= MEMORY_MAX_MB:
        raise argparse.ArgumentTypeError(
            f'{text!r}: want {MEMORY_MIN_MB}M to {MEMORY_MAX_MB // 1024}G')
    return size


def vcpu_count(text: str) -> int:
    """A number of virtual CPUs, 1 to SMP_MAX."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f'{text!r} is not a whole number of CPUs') from None
    if not 1 <= value <= SMP_MAX:
        raise argparse.ArgumentTypeError(f'{text!r}: want 1 to {SMP_MAX} CPUs')
    return value


def footprint_point(text: str) -> int:
    """One footprint: a number of packet-filter rules the kernel takes
    (names.footprint_problem)."""
    value = text.strip()
    if not re.fullmatch(r'[0-9]+', value):
        raise argparse.ArgumentTypeError(
            f'{text!r}: want a whole number of packet-filter rules, e.g. 0 or 128')
    problem = names.footprint_problem(str(int(value)))
    if problem:
        raise argparse.ArgumentTypeError(f'{text!r}: {problem}')
    return int(value)
