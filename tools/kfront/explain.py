# SPDX-License-Identifier: GPL-2.0-or-later
"""Which functions account for a difference between two variants (issue 19,
item 3), from the per-function tables in results.json (docs/results-schema.md):
the simulator's (`sim_functions`, kernel context, for sim.* counters) or
callgrind's (`vg_functions`, the host harness under `kfront host --valgrind`,
for vg.* counters), with each function's size and a disassembly excerpt of
the instruction patterns that differ.

Functions are matched across variants by name (each variant's copy of a
function keeps its source name). In the kernel image every variant's copy
lives in one ELF and its address tells the copies apart; on the host each
variant is its own program, so a copy is found by name in that program.
"""
from __future__ import annotations

import re
import subprocess
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from . import functable, records

# Instruction patterns the -O2 / -Os argument turns on (docs/fesim.md,
# "Instruction classes"): shown when one variant's copy has them and the
# other's has fewer.
PATTERNS = {
    'rep movs': re.compile(r'\brep[a-z]*\s+movs'),
    'rep stos': re.compile(r'\brep[a-z]*\s+stos'),
    'div': re.compile(r'\bi?div[bwlq]?\b'),
    'call': re.compile(r'\bcall[q]?\b'),
}
# objdump -d --no-show-raw-insn: "  ffffffff8022b190:\tpush   %rbx"
INSN_RE = re.compile(r'^\s*([0-9a-f]+):\t(.*)$')
# A conditional branch: "jbe    ffffffff802b1d2d <check_hdr+0x42>"
JCC_RE = re.compile(r'^j(?!mp)[a-z]+\s+([0-9a-f]+)\b')
EXCERPT_LINES = 6


class ExplainError(Exception):
    """Bad input: a one-line message naming what is wrong."""


class BadDocument(ExplainError):
    """A results document with a field of the wrong type (not merely
    without the asked-for result)."""


# What differences() reads of a results document (records.check_value
# specs): fields of the wrong type are named, never met as a traceback.
_TABLE = {'columns': ('list', 'str'), 'other': ('map', 'scalar'),
          'top': ('list', {'function': 'str', 'addr': 'str'})}
_DOCUMENT = {'results': ('list', {'bench': 'str', 'variant': 'str',
                                  'footprint': 'u64', 'sim_functions': _TABLE,
                                  'vg_functions': _TABLE})}


def check_document(data: Any) -> None:
    """BadDocument naming the first field differences() cannot read."""
    wrong = records.check_value(data, _DOCUMENT, '')
    if wrong is not None:
        raise BadDocument(wrong)


@dataclass
class FunctionDiff:
    name: str
    a: float                    # the counter in variant A (mean per run)
    b: float
    addr_a: int | None
    addr_b: int | None
    size_a: int | None = None
    size_b: int | None = None
    excerpt: list[str] = field(default_factory=list)
    # The variant whose figure is not known: the function is not among its
    # listed rows, and its "other" row holds counts of that column, so its
    # share is somewhere in there (its a or b is then 0, not a measurement).
    unknown: str | None = None
    # ... and the most that figure can be (unlisted_bound())
    bound: float | None = None

    @property
    def diff(self) -> float:
        return self.b - self.a


def _entry(data: dict[str, Any], bench: str, variant: str,
           footprint: int | None = None) -> dict[str, Any]:
    """The result of bench and variant: at `footprint` when given, else the
    one without a footprint or the first."""
    results = data.get('results') or []
    found = [e for e in results
             if e.get('bench') == bench and e.get('variant') == variant
             and e.get('footprint') == footprint]
    if not found and footprint is not None:
        raise ExplainError(f'no result for bench {bench!r} variant {variant!r} '
                           f'at footprint {footprint}')
    if not found:
        found = [e for e in results
                 if e.get('bench') == bench and e.get('variant') == variant]
    if not found:
        benches = sorted({e.get('bench') for e in results})
        variants = sorted({e.get('variant') for e in results})
        raise ExplainError(f'no result for bench {bench!r} variant {variant!r}; '
                           f'benches: {", ".join(benches)}; variants: {", ".join(variants)}')
    return found[0]


# counter prefix -> (the per-function table, how to get one)
TABLES = {'sim': ('sim_functions', 'kfront run --sim MODELS'),
          'vg': ('vg_functions', 'kfront host --valgrind')}


def source(counter: str) -> str:
    """'sim' or 'vg': which tool's table splits the counter."""
    prefix = counter.split('.', 1)[0]
    if prefix not in TABLES or '.' not in counter:
        raise ExplainError(f'counter {counter!r}: expected a sim.* or vg.* counter')
    return prefix


def unlisted_bound(table: dict[str, Any], column: str) -> float:
    """The most a function missing from a table's listed rows can have in
    `column`. A table lists the top TOP_FUNCTIONS functions by its first
    column and the top TOP_PER_COLUMN by each other (functable.top_keys), so
    every function above the n-th listed figure of a column is listed: an
    unlisted one has at most that figure, and at most the (other) row's
    sum. A table that lists fewer than n figures of the column (one not
    built that way) leaves only the sum."""
    first = (table.get('columns') or [column])[0]
    n = functable.TOP_FUNCTIONS if column == first else functable.TOP_PER_COLUMN
    other = float(table.get('other', {}).get(column, 0))
    listed = sorted((float(r.get(column, 0)) for r in table.get('top', [])), reverse=True)
    return min(listed[n - 1], other) if len(listed) >= n else other


def _rows(entry: dict[str, Any], counter: str
          ) -> tuple[dict[str, tuple[float, int | None]], float]:
    """The entry's rows for the counter's column (function -> (figure,
    address)), and the most an unlisted function can have there."""
    prefix = source(counter)
    column = counter[len(prefix) + 1:]
    key, how = TABLES[prefix]
    table = entry.get(key)
    if not isinstance(table, dict):
        raise ExplainError(f'{entry["bench"]} {entry["variant"]}: no per-function '
                           f'table {key} (run {how})')
    if column not in table.get('columns', []):
        raise ExplainError(f'counter {counter} has no per-function column; columns: '
                           f'{", ".join(prefix + "." + c for c in table["columns"])}')
    rows: dict[str, tuple[float, int | None]] = {}
    try:
        for r in table.get('top', []):
            addr = int(str(r['addr']), 16) if 'addr' in r else None
            value = float(r.get(column, 0))
            old = rows.get(r['function'])
            rows[r['function']] = (value + (old[0] if old else 0), addr)
        rows['(other)'] = (float(table.get('other', {}).get(column, 0)), None)
        bound = unlisted_bound(table, column)
    except (KeyError, TypeError, ValueError) as exc:
        # check_document typed the table; a row without a function, an
        # address that is not hex or a figure that is not a number remain
        raise BadDocument(f'{entry["bench"]} {entry["variant"]}: {key} has a row '
                          f'that cannot be read ({type(exc).__name__}: {exc})') from None
    return rows, bound


def differences(data: dict[str, Any], bench: str, variants: tuple[str, str],
                counter: str, footprint: int | None = None
                ) -> tuple[float, list[FunctionDiff]]:
    """(total difference B - A, functions by |difference|, largest first)."""
    rows_a, bound_a = _rows(_entry(data, bench, variants[0], footprint), counter)
    rows_b, bound_b = _rows(_entry(data, bench, variants[1], footprint), counter)
    bounds = dict(zip(variants, (bound_a, bound_b)))
    out = []
    for name in set(rows_a) | set(rows_b):
        a, addr_a = rows_a.get(name, (0.0, None))
        b, addr_b = rows_b.get(name, (0.0, None))
        unknown = next((v for v, rows in zip(variants, (rows_a, rows_b))
                        if name not in rows and rows['(other)'][0] > 0), None)
        out.append(FunctionDiff(name, a, b, addr_a, addr_b, unknown=unknown,
                                bound=bounds[unknown] if unknown else None))
    total = sum(f.diff for f in out)
    out.sort(key=_order)
    return total, out


def _order(f: FunctionDiff) -> tuple[float, str]:
    """Largest first: a known difference by its size, a row with one side
    inside that variant's "other" by its one known figure (which its
    difference cannot exceed, counts being positive)."""
    return (-(abs(f.diff) if f.unknown is None else max(abs(f.a), abs(f.b))), f.name)


@dataclass
class Symbols:
    """The function symbols of one ELF: size by address, and (address,
    size) by name for names defined once."""
    sizes: dict[int, int] = field(default_factory=dict)
    by_name: dict[str, tuple[int, int] | None] = field(default_factory=dict)

    def find(self, name: str, addr: int | None) -> tuple[int, int] | None:
        if addr is not None:
            size = self.sizes.get(addr)
            return (addr, size) if size else None
        return self.by_name.get(name)


def symbols(elf: Path) -> Symbols:
    res = subprocess.run(['nm', '-S', '--defined-only', str(elf)],
                         capture_output=True, text=True, check=False)
    out = Symbols()
    for line in res.stdout.splitlines():
        parts = line.split()
        if len(parts) == 4 and parts[2] in 'tTwW':
            addr, size = int(parts[0], 16), int(parts[1], 16)
            out.sizes.setdefault(addr, size)
            # a static name defined twice cannot be found by name
            out.by_name[parts[3]] = None if parts[3] in out.by_name else (addr, size)
    return out


def disassemble(elf: Path, addr: int, size: int) -> list[str]:
    """The instructions of [addr, addr + size) as objdump prints them."""
    res = subprocess.run(['objdump', '-d', '--no-show-raw-insn',
                          f'--start-address=0x{addr:x}',
                          f'--stop-address=0x{addr + size:x}', str(elf)],
                         capture_output=True, text=True, check=False)
    return [m.group(1) + ': ' + m.group(2).strip()
            for m in (INSN_RE.match(line) for line in res.stdout.splitlines())
            if m] if res.returncode == 0 else []


def _split(insn: str) -> tuple[int, str]:
    addr, text = insn.split(': ', 1)
    return int(addr, 16), text


def inline_cold_blocks(insns: list[str]) -> list[str]:
    """Conditional branches that jump forward over a block holding a call
    and no return: the error path of `if (unlikely(bad)) { report(); ... }`
    laid in the way, so the usual path takes a branch around it (what -Os
    does to unlikely(); -O2 moves the block past the return or into
    .text.unlikely and falls through)."""
    parsed = [_split(i) for i in insns]
    out = []
    for n, (addr, text) in enumerate(parsed):
        m = JCC_RE.match(text)
        if not m or int(m.group(1), 16) <= addr:
            continue
        target = int(m.group(1), 16)
        if target > parsed[-1][0]:
            continue        # into .text.unlikely or another function: not in line
        skipped = [t for a, t in parsed[n + 1:] if a < target]
        if any(PATTERNS['call'].search(t) for t in skipped) and \
                not any(t.startswith('ret') for t in skipped):
            out.append(insns[n])
    return out


def _pattern_hits(insns: list[str]) -> dict[str, list[str]]:
    hits = {name: [i for i in insns if rx.search(i.split(': ', 1)[-1])]
            for name, rx in PATTERNS.items()}
    hits['branch around a call'] = inline_cold_blocks(insns)
    return hits


def excerpt(insns_a: list[str] | None, insns_b: list[str] | None,
            variants: tuple[str, str]) -> list[str]:
    """Lines of the copy that has more of a pattern than the other copy:
    `rep movsl` where the other has moves, a `div` where it multiplies, a
    call the other inlined. Also the instruction counts of both. None: that
    variant's copy was not found (no address in its row, and its name
    defined once per variant in one image), which is not a copy without
    instructions: only the counts are given then."""
    if insns_a is None or insns_b is None:
        known, insns = (1, insns_b) if insns_a is None else (0, insns_a)
        return [f'{len(insns or [])} instructions in {variants[known]}; '
                f'{variants[1 - known]}\'s copy not found']
    out = [f'{len(insns_a)} instructions in {variants[0]}, '
           f'{len(insns_b)} in {variants[1]}']
    hits_a, hits_b = _pattern_hits(insns_a), _pattern_hits(insns_b)
    for name in hits_a:
        count_a, count_b = len(hits_a[name]), len(hits_b[name])
        if count_a == count_b:
            continue
        more, hits = (variants[1], hits_b[name]) if count_b > count_a \
            else (variants[0], hits_a[name])
        out.append(f'{name}: {count_a} in {variants[0]}, {count_b} in '
                   f'{variants[1]}; in {more}:')
        out += ['    ' + i for i in hits[:EXCERPT_LINES]]
    return out


def _readable_symbols(elf: Path | None) -> Symbols | None:
    """The program's function symbols; None when it is missing, not a
    program nm reads, or has none."""
    if elf is None or not elf.is_file():
        return None
    syms = symbols(elf)
    return syms if syms.by_name else None


def annotate(funcs: list[FunctionDiff], elves: tuple[Path | None, Path | None],
             variants: tuple[str, str], limit: int) -> str | None:
    """Sizes and disassembly excerpts of the first `limit` functions, after
    settling each unknown side the programs can settle (a function a
    variant's own program does not define is a known 0 there) and ordering
    `funcs` again;
    `elves` holds the program of each variant (the same kernel image twice
    for simulated results). Returns why they are missing, when a program
    cannot be read (None when both could)."""
    syms = [_readable_symbols(e) for e in elves]
    missing = sorted({str(e) for e, s in zip(elves, syms) if e is not None and s is None})
    # A function the variant's own program does not define at all (inlined
    # everywhere, or never built) ran no code of its own there: its figure
    # is a known 0, not a share of the "other" row. (The kernel image holds
    # every variant's copy under one name, so there it stays unknown.)
    for f in funcs:
        s = syms[variants.index(f.unknown)] if f.unknown in variants else None
        if s is not None and f.name not in s.by_name and elves[0] != elves[1]:
            f.unknown = None
    funcs.sort(key=_order)
    if syms[0] is None and syms[1] is None:
        return f'no symbols in {", ".join(missing)}'
    for f in funcs[:limit]:
        found = [s.find(f.name, addr) if s else None
                 for s, addr in zip(syms, (f.addr_a, f.addr_b))]
        f.size_a = found[0][1] if found[0] else None
        f.size_b = found[1][1] if found[1] else None
        insns = [disassemble(e, *hit) if e is not None and hit else []
                 for e, hit in zip(elves, found)]
        # A copy not found is unknown when that side's figure is, else
        # (a known 0) the variant has no copy of its own: no instructions.
        shown = [None if v == f.unknown and not x else x for v, x in zip(variants, insns)]
        if insns[0] or insns[1]:
            f.excerpt = excerpt(shown[0], shown[1], variants)
    return f'no symbols in {", ".join(missing)}' if missing else None


IN_OTHER = 'in other'
IN_OTHER_NOTE = ('<= X: not among that variant\'s listed functions (a result keeps its '
                 'top functions by the first column and by each other column); its figure '
                 'is inside that variant\'s (other) row, and at most X, the smallest figure '
                 f'of that column that kept a function listed ({IN_OTHER}: no such bound)')


def cells(f: FunctionDiff, total: float, variants: tuple[str, str],
          number: str = '.1f') -> tuple[str, str, str, str]:
    """A row's A figure, B figure, difference and share as text: for the
    side that is not known its bound (`<= X`), `?` and no share."""
    a, b = ((IN_OTHER if f.bound is None else f'<= {format(f.bound, number)}')
            if f.unknown == v else format(x, number)
            for v, x in zip(variants, (f.a, f.b)))
    if f.unknown is not None:
        return a, b, '?', ''
    share = f'{100 * f.diff / total:.0f}%' if total else '-'
    return a, b, format(f.diff, '+' + number), share


def _size(n: int | None) -> str:
    return '-' if n is None else f'{n} B'


def render(bench: str, variants: tuple[str, str], counter: str, total: float,
           funcs: list[FunctionDiff], limit: int) -> str:
    a, b = variants
    lines = [f'{bench}: {counter} per run, {b} - {a} = {total:+.1f}',
             f'{"function":<28} {a:>10} {b:>10} {"diff":>10} {"share":>6}  '
             f'{"size " + a:>9} {"size " + b:>9}']
    for f in funcs[:limit]:
        cell_a, cell_b, diff, share = cells(f, total, variants)
        lines.append(f'{f.name:<28} {cell_a:>10} {cell_b:>10} {diff:>10} {share:>6}  '
                     f'{_size(f.size_a):>9} {_size(f.size_b):>9}')
        lines += ['    ' + x for x in f.excerpt]
    if any(f.unknown for f in funcs[:limit]):
        lines.append(IN_OTHER_NOTE)
    return '\n'.join(lines)
