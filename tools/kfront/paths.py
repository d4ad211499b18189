# SPDX-License-Identifier: GPL-2.0-or-later
"""Where things are: the source tree, the build directory, the images."""
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
BUILD = ROOT / 'build'
CROSS_FILE = ROOT / 'cross' / 'x86_64-kernel.ini'


def iso_path(build: Path = BUILD) -> Path:
    return build / 'iso' / 'kfront.iso'


def kernel_path(build: Path = BUILD) -> Path:
    return build / 'kfront.elf'
