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

import pgo_profile  # tools/build/pgo_profile.py, beside this file

# Function orders a variant can be linked in (docs/pgo.md, "pgo-layout").
LAYOUTS = ('c3',)
# shift = N: the variant's code starts N bytes into its page (docs/
# measurement.md, "Where each variant's code lies"). Whole 64-byte lines,
# so no function loses the alignment its flags gave it, and less than a
# page, so the start stays on the variant's own page.
SHIFT_STEP, SHIFT_MAX = 64, 4096 - 64
NAME_RE = re.compile(r'^[A-Za-z0-9][A-Za-z0-9_.-]{0,31}$')


@dataclass(frozen=True)
class Variant:
    name: str
    cc: str
    flags: tuple[str, ...]
    about: str
    profile: str = ''   # training set (globs) of a profile-using variant
    layout: str = ''    # 'c3': functions in the order beside the profile
    shift: int = 0      # bytes of padding before the code (SHIFT_STEP)


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
        unknown = set(sec) - {'cc', 'flags', 'about', 'profile', 'layout', 'shift'}
        if unknown:
            raise VariantError(f'{path}: [{name}]: unknown keys {sorted(unknown)}; '
                               'valid: cc, flags, about, profile, layout, shift')
        flags = tuple(shlex.split(sec.get('flags', '')))
        if not flags:
            raise VariantError(f'{path}: [{name}]: flags missing')
        profile = ' '.join(sec.get('profile', '').split())
        if profile and '-fprofile-use' not in flags:
            raise VariantError(f'{path}: [{name}]: profile = {profile} needs '
                               '-fprofile-use in flags')
        layout = sec.get('layout', '').strip()
        if layout and layout not in LAYOUTS:
            raise VariantError(f'{path}: [{name}]: layout = {layout}: '
                               f'valid: {", ".join(LAYOUTS)}')
        if layout and not profile:
            raise VariantError(f'{path}: [{name}]: layout = {layout} needs a '
                               'profile = (the order is made beside it)')
        out.append(Variant(name, sec.get('cc', 'gcc').strip(), flags,
                           ' '.join(sec.get('about', '').split()), profile,
                           layout, parse_shift(path, name, sec.get('shift', '0'))))
    if not out:
        raise VariantError(f'{path}: no variants defined')
    return out


def parse_shift(path: Path, name: str, text: str) -> int:
    """shift = N: a multiple of SHIFT_STEP from 0 to SHIFT_MAX."""
    try:
        n = int(text.strip(), 0)
    except ValueError:
        n = -1
    if not 0 <= n <= SHIFT_MAX or n % SHIFT_STEP:
        raise VariantError(f'{path}: [{name}]: shift = {text.strip()}: expected a '
                           f'multiple of {SHIFT_STEP} from 0 to {SHIFT_MAX} (bytes)')
    return n


def meson_lines(variants: list[Variant], build: Path,
                root: Path = pgo_profile.ROOT) -> list[str]:
    """One line per variant for meson.build: name, cc, flags, profile
    directory, function order file ('-' for none: a blank field would be
    stripped), shift in bytes. A
    profile-using variant without a usable profile (none yet, or one
    trained on another source tree) is left out, with a note line ('#note'
    and the text) saying why and which command trains a new one: the other
    variants still build, and never silently with a stale profile."""
    lines = []
    for v in variants:
        pdir = order = '-'
        if v.profile:
            why = left_out_reason(v, build, root)
            if why:
                lines.append(f'#note\tvariant {v.name} left out of the image: {why}')
                continue
            pdir = str(pgo_profile.profile_dir(build, v.profile))
            if v.layout:
                order = str(Path(pdir) / 'layout.txt')
        lines.append('\t'.join([v.name, v.cc, ' '.join(v.flags), pdir, order, str(v.shift)]))
    return lines


def left_out_reason(v: Variant, build: Path, root: Path = pgo_profile.ROOT) -> str:
    """Why a profile-using variant cannot be built now ('' when it can)."""
    d = pgo_profile.profile_dir(build, v.profile)
    if not (d / 'profile.json').exists():
        return f"no profile for {v.profile} in {d} (run ./kfront pgo --train '{v.profile}')"
    try:
        if v.layout:
            pgo_profile.load_layout(d, root)
        else:
            pgo_profile.load(d, root)
    except pgo_profile.ProfileError as exc:
        return str(exc)
    return ''


def left_out(variants: list[Variant], build: Path,
             root: Path = pgo_profile.ROOT) -> dict[str, str]:
    """The variants the build leaves out, each with its reason."""
    out = {}
    for v in variants:
        why = left_out_reason(v, build, root) if v.profile else ''
        if why:
            out[v.name] = why
    return out


def main() -> int:
    if len(sys.argv) != 4 or sys.argv[1] != 'meson':
        print('usage: variants.py meson FILE BUILD_DIR', file=sys.stderr)
        return 2
    try:
        variants = load(Path(sys.argv[2]))
        lines = meson_lines(variants, Path(sys.argv[3]))
    except VariantError as exc:
        print(f'error: {exc}', file=sys.stderr)
        return 1
    if not any(not ln.startswith('#note') for ln in lines):
        print(f'error: {sys.argv[2]}: no variant can be built', file=sys.stderr)
        return 1
    print('\n'.join(lines))
    return 0


if __name__ == '__main__':
    sys.exit(main())
