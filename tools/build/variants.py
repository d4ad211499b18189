#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Read the variant table (bench/variants.ini): name, compiler, flags.

Used by Meson at configure time (`variants.py meson FILE` prints one
variant per line, fields separated by tabs) and by the kfront tool.
"""
from __future__ import annotations

import configparser
import re
import shlex
import sys
from dataclasses import dataclass
from pathlib import Path

NAME_RE = re.compile(r'^[A-Za-z0-9][A-Za-z0-9_.-]{0,31}$')


@dataclass(frozen=True)
class Variant:
    name: str
    cc: str
    flags: tuple[str, ...]
    about: str


class VariantError(Exception):
    pass


def load(path: Path) -> list[Variant]:
    cp = configparser.ConfigParser(interpolation=None)
    try:
        with open(path, encoding='utf-8') as f:
            cp.read_file(f)
    except (OSError, configparser.Error) as exc:
        raise VariantError(f'{path}: {exc}') from exc
    out = []
    for name in cp.sections():
        sec = cp[name]
        if not NAME_RE.match(name):
            raise VariantError(f'{path}: bad variant name {name!r} '
                               '(letters, digits, "-", "_", "."; at most 32)')
        unknown = set(sec) - {'cc', 'flags', 'about'}
        if unknown:
            raise VariantError(f'{path}: [{name}]: unknown keys {sorted(unknown)}; '
                               'valid: cc, flags, about')
        flags = tuple(shlex.split(sec.get('flags', '')))
        if not flags:
            raise VariantError(f'{path}: [{name}]: flags missing')
        out.append(Variant(name, sec.get('cc', 'gcc').strip(), flags,
                           ' '.join(sec.get('about', '').split())))
    if not out:
        raise VariantError(f'{path}: no variants defined')
    return out


def main() -> int:
    if len(sys.argv) != 3 or sys.argv[1] != 'meson':
        print('usage: variants.py meson FILE', file=sys.stderr)
        return 2
    try:
        variants = load(Path(sys.argv[2]))
    except VariantError as exc:
        print(f'error: {exc}', file=sys.stderr)
        return 1
    for v in variants:
        print('\t'.join([v.name, v.cc, ' '.join(v.flags)]))
    return 0


if __name__ == '__main__':
    sys.exit(main())
