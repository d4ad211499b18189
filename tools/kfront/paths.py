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


# What a run leaves in its folder; a folder holding one is never written
# over (its figures would be replaced, and what only some commands write,
# such as run's truth and sizes, lost).
RUN_FILES = ('results.json', 'serial.log')


def out_problem(out: Path, files: tuple[str, ...] = RUN_FILES) -> str | None:
    """Why --out cannot take a new run: a file where a folder is wanted, or
    a folder that already holds one of `files`; None when it can."""
    if out.exists() and not out.is_dir():
        return f'--out {out}: a file, not a folder'
    held = [f for f in files if (out / f).exists()]
    if held:
        return (f'--out {out} already holds a run ({held[0]}); '
                'give another folder (nothing was written)')
    return None
