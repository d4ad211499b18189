#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Training profiles of the measured code (docs/pgo.md): where they live,
what they were trained on, and whether they still fit the source tree.

A profile is build/pgo/<set>/: gcda/ (one .gcda per measured source) and
profile.json (training set, checksum of the gcda set, source-tree hash).
Used by the build (variants.py, build_variant.py) and by `kfront pgo`.
"""
from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

# Everything that shapes the measured code's control flow: its sources,
# the headers it includes, the generators of its generated sources, and
# the variant build itself. A profile from another tree is refused.
TREE_DIRS = ('kernel/net', 'kernel/sched', 'lib', 'bench/workloads', 'include',
             'arch/x86/include')
TREE_FILES = ('tools/build/build_variant.py',)
TREE_SUFFIXES = ('.c', '.h', '.asm', '.S', '.py', '.in')
# What a training variant adds to its flags, and a use variant must not.
TRAIN_FLAGS = ('-fprofile-arcs', '-fprofile-update=single', '-fprofile-info-section')


class ProfileError(Exception):
    pass


def set_name(globs: str) -> str:
    """The directory name of a training set: 'net.*' -> 'net',
    'sched.*,mix.*' -> 'sched+mix'."""
    parts = []
    for g in globs.split(','):
        g = g.strip().rstrip('*').rstrip('.')
        g = re.sub(r'[^A-Za-z0-9_.-]', '_', g)
        if g:
            parts.append(g)
    if not parts:
        raise ProfileError(f'training set {globs!r} names no workloads')
    return '+'.join(parts)


def profile_dir(build: Path, globs: str) -> Path:
    return build / 'pgo' / set_name(globs)


def tree_hash(root: Path = ROOT) -> str:
    h = hashlib.sha256()
    files: list[Path] = [root / f for f in TREE_FILES]
    for d in TREE_DIRS:
        files += [p for p in (root / d).rglob('*')
                  if p.is_file() and p.suffix in TREE_SUFFIXES]
    for p in sorted(set(files)):
        rel = p.relative_to(root).as_posix()
        h.update(rel.encode() + b'\0' + hashlib.sha256(p.read_bytes()).digest())
    return h.hexdigest()[:16]


def gcda_checksum(gcda_dir: Path) -> str:
    h = hashlib.sha256()
    for p in sorted(gcda_dir.glob('*.gcda')):
        h.update(p.name.encode() + b'\0' + hashlib.sha256(p.read_bytes()).digest())
    return h.hexdigest()[:16]


def load(pdir: Path, root: Path = ROOT) -> dict:
    """The profile's metadata, checked against its gcda files and the
    source tree; ProfileError says what is wrong and what to run."""
    meta_path = pdir / 'profile.json'
    try:
        meta = json.loads(meta_path.read_text())
    except FileNotFoundError:
        raise ProfileError(f'no profile in {pdir} (run ./kfront pgo)') from None
    except (OSError, ValueError) as exc:
        raise ProfileError(f'{meta_path}: unreadable: {exc}') from exc
    train = meta.get('train', '?')
    now = tree_hash(root)
    if meta.get('tree') != now:
        raise ProfileError(
            f'{pdir}: profile trained on another source tree (tree hash '
            f'{meta.get("tree")}, now {now}); train again: '
            f"./kfront pgo --train '{train}'")
    got = gcda_checksum(pdir / 'gcda')
    if meta.get('checksum') != got:
        raise ProfileError(f'{pdir}: gcda files changed since training (checksum '
                           f'{meta.get("checksum")}, now {got}); train again: '
                           f"./kfront pgo --train '{train}'")
    return meta


def load_layout(pdir: Path, root: Path = ROOT) -> list[str]:
    """The function order beside a profile (layout.txt, made by `kfront
    pgo` from a simulator run of the profile's variant; docs/pgo.md,
    "pgo-layout"), checked like the profile: the same source tree, made
    from this very profile, and unchanged since."""
    meta = load(pdir, root)
    train = meta.get('train', '?')
    again = f"train again: ./kfront pgo --train '{train}'"
    try:
        info = json.loads((pdir / 'layout.json').read_text())
        text = (pdir / 'layout.txt').read_text()
    except FileNotFoundError:
        raise ProfileError(f'no function order in {pdir} (layout.txt; '
                           f'{again})') from None
    except (OSError, ValueError) as exc:
        raise ProfileError(f'{pdir}/layout.json: unreadable: {exc}') from exc
    if info.get('tree') != meta.get('tree') or \
            info.get('profile_checksum') != meta.get('checksum'):
        raise ProfileError(
            f'{pdir}: function order made from another profile (profile '
            f'{info.get("profile_checksum")}, tree {info.get("tree")}; now '
            f'{meta.get("checksum")}, {meta.get("tree")}); {again}')
    got = hashlib.sha256(text.encode()).hexdigest()[:16]
    if info.get('checksum') != got:
        raise ProfileError(f'{pdir}: layout.txt changed since it was made '
                           f'(checksum {info.get("checksum")}, now {got}); {again}')
    return [ln for ln in text.splitlines() if ln]
