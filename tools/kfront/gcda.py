# SPDX-License-Identifier: GPL-2.0-or-later
"""A training image's gcov records back into .gcda files, byte for byte
what GCC 12's libgcov writes for the same counters (docs/pgo.md).

The kernel prints per object a gcov_obj record, per function a gcov_fn
record and the counters in gcov_ctr records (docs/record-format.md).
libgcov's file, for one run written to a fresh file (libgcov-driver.c,
write_one_data; words little-endian, lengths in bytes since GCC 12):
  magic "gcda", version, stamp, checksum,
  object summary tag, 8, runs (1), sum_max (the largest arc counter of the
    whole program, all objects),
  per function: function tag, 12, ident, lineno_checksum, cfg_checksum,
    per counted type: its tag, 8 * n (or -8 * n when all are zero, then
    no values), the values as two 32-bit words, low first;
    a function another object owns, or none: function tag, 0;
  0.
"""
from __future__ import annotations

import struct
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable

GCOV_DATA_MAGIC = 0x67636461          # "gcda"
GCOV_TAG_FUNCTION = 0x01000000
GCOV_TAG_FUNCTION_LENGTH = 12
GCOV_TAG_OBJECT_SUMMARY = 0xa1000000
GCOV_TAG_OBJECT_SUMMARY_LENGTH = 8
GCOV_COUNTERS = 8
GCOV_COUNTER_ARCS = 0
# Value-profile counters (top-N, indirect calls) have another on-disk
# form; the training variant counts arcs only (-fprofile-arcs).
WRITABLE_TYPES = {0, 1, 2, 5, 6, 7}


class GcdaError(Exception):
    pass


def tag_for_counter(t: int) -> int:
    return (0x01a10000 + (t << 17)) & 0xffffffff


@dataclass
class Function:
    key: bool
    ident: int = 0
    lineno_checksum: int = 0
    cfg_checksum: int = 0
    counts: list[int] = field(default_factory=list)       # per counted type
    values: dict[int, list[int | None]] = field(default_factory=dict)


@dataclass
class GcovObject:
    file: str
    version: int
    stamp: int
    checksum: int
    types: int                       # bit t: counter type t is counted
    nfunctions: int
    functions: dict[int, Function] = field(default_factory=dict)

    @property
    def name(self) -> str:
        """The .gcda's file name (the directory is the training build's)."""
        return Path(self.file).name

    def counted_types(self) -> list[int]:
        return [t for t in range(GCOV_COUNTERS) if self.types >> t & 1]


def _u(rec: dict[str, Any], key: str, bits: int = 32) -> int:
    v = rec.get(key)
    if not isinstance(v, int) or isinstance(v, bool) or not 0 <= v < 1 << bits:
        raise GcdaError(f'{rec.get("t")} record: {key} is not a {bits}-bit unsigned '
                        f'integer: {v!r}')
    return v


def objects_from_records(payloads: Iterable[dict[str, Any]]) -> list[GcovObject]:
    """The profile in a run's records, checked complete: every function and
    every counter of every object present exactly once."""
    objs: dict[int, GcovObject] = {}
    for rec in payloads:
        t = rec.get('t')
        if t == 'gcov_obj':
            idx = _u(rec, 'obj')
            if idx in objs:
                raise GcdaError(f'gcov_obj {idx} twice')
            objs[idx] = GcovObject(str(rec.get('file', '')), _u(rec, 'version'),
                                   _u(rec, 'stamp'), _u(rec, 'checksum'),
                                   _u(rec, 'types'), _u(rec, 'functions'))
            bad = set(objs[idx].counted_types()) - WRITABLE_TYPES
            if bad:
                raise GcdaError(f'{objs[idx].name}: value-profile counters {sorted(bad)} '
                                'cannot be written (train with -fprofile-arcs only)')
        elif t == 'gcov_fn':
            obj = _obj(objs, rec)
            fn = _u(rec, 'fn')
            if fn >= obj.nfunctions or fn in obj.functions:
                raise GcdaError(f'{obj.name}: gcov_fn {fn} out of range or twice')
            f = Function(bool(rec.get('key')))
            if 'ident' in rec:
                f.ident, f.lineno_checksum, f.cfg_checksum = (
                    _u(rec, 'ident'), _u(rec, 'lineno_checksum'), _u(rec, 'cfg_checksum'))
                counts = rec.get('counts')
                if not isinstance(counts, list) or len(counts) != len(obj.counted_types()):
                    raise GcdaError(f'{obj.name}: function {fn}: counts {counts!r} do not '
                                    f'match the counted types {obj.counted_types()}')
                f.counts = [int(c) for c in counts]
                for ty, n in zip(obj.counted_types(), f.counts):
                    f.values[ty] = [None] * n
            obj.functions[fn] = f
        elif t == 'gcov_ctr':
            obj = _obj(objs, rec)
            fn, ty, off = _u(rec, 'fn'), _u(rec, 'type'), _u(rec, 'off')
            vals = rec.get('v')
            f = obj.functions.get(fn)
            if f is None or ty not in f.values or not isinstance(vals, list):
                raise GcdaError(f'{obj.name}: gcov_ctr for unknown function {fn} type {ty}')
            slot = f.values[ty]
            if off + len(vals) > len(slot) or any(v is not None for v in slot[off:off + len(vals)]):
                raise GcdaError(f'{obj.name}: function {fn} type {ty}: counters at {off} '
                                'out of range or twice')
            slot[off:off + len(vals)] = [_u({'t': t, 'v': v}, 'v', 64) for v in vals]
    for obj in objs.values():
        if len(obj.functions) != obj.nfunctions:
            raise GcdaError(f'{obj.name}: {obj.nfunctions - len(obj.functions)} of '
                            f'{obj.nfunctions} functions missing from the records')
        for fn, f in obj.functions.items():
            for ty, slot in f.values.items():
                if None in slot:
                    raise GcdaError(f'{obj.name}: function {fn} type {ty}: '
                                    f'{slot.count(None)} counters missing from the records')
    if sorted(objs) != list(range(len(objs))):
        raise GcdaError(f'gcov objects missing: have {sorted(objs)}')
    return [objs[i] for i in range(len(objs))]


def _obj(objs: dict[int, GcovObject], rec: dict[str, Any]) -> GcovObject:
    idx = _u(rec, 'obj')
    if idx not in objs:
        raise GcdaError(f'{rec.get("t")} for object {idx} before its gcov_obj')
    return objs[idx]


def run_max(objs: list[GcovObject]) -> int:
    """libgcov's sum_max for one run: the largest arc counter of all
    objects of the program."""
    best = 0
    for obj in objs:
        for f in obj.functions.values():
            for v in f.values.get(GCOV_COUNTER_ARCS, []):
                best = max(best, v or 0)
    return best


def _signed64(v: int) -> int:
    return v - (1 << 64) if v >> 63 else v


def gcda_bytes(obj: GcovObject, sum_max: int) -> bytes:
    words: list[int] = [GCOV_DATA_MAGIC, obj.version, obj.stamp, obj.checksum,
                        GCOV_TAG_OBJECT_SUMMARY, GCOV_TAG_OBJECT_SUMMARY_LENGTH, 1,
                        sum_max & 0xffffffff]
    for fn in range(obj.nfunctions):
        f = obj.functions[fn]
        if not f.key:
            words += [GCOV_TAG_FUNCTION, 0]
            continue
        words += [GCOV_TAG_FUNCTION, GCOV_TAG_FUNCTION_LENGTH, f.ident,
                  f.lineno_checksum, f.cfg_checksum]
        for ty in obj.counted_types():
            vals = [int(v or 0) for v in f.values[ty]]
            words.append(tag_for_counter(ty))
            if not any(vals):
                words.append((-8 * len(vals)) & 0xffffffff)
                continue
            words.append((8 * len(vals)) & 0xffffffff)
            for v in vals:
                v = _signed64(v) & 0xffffffffffffffff
                words += [v & 0xffffffff, v >> 32]
    words.append(0)
    return struct.pack(f'<{len(words)}I', *words)


def write_all(objs: list[GcovObject], out_dir: Path) -> list[Path]:
    """One .gcda per object in out_dir; names must be unique."""
    out_dir.mkdir(parents=True, exist_ok=True)
    names = [o.name for o in objs]
    dup = {n for n in names if names.count(n) > 1}
    if dup:
        raise GcdaError(f'two objects write the same .gcda: {sorted(dup)}')
    smax = run_max(objs)
    paths = []
    for obj in objs:
        p = out_dir / obj.name
        p.write_bytes(gcda_bytes(obj, smax))
        paths.append(p)
    return paths
