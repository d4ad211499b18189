# SPDX-License-Identifier: GPL-2.0-or-later
"""Code-size report of each compiler variant's measured code.

Reads the per-variant objects the build makes (build/bench/variant_NN.o:
one relocatable blob per variant, its sections named .variant.NN.NAME.*)
with binutils: section sizes, per-function sizes, `rep movs`/`rep stos`
sites, alignment padding (bytes of nop instructions) and functions split
or placed out of line as cold code. Each benchmark's hot functions are
those reachable from its run() by direct calls and jumps (an estimate:
calls through function pointers are not followed).

*Reachable text* is the code that can run at all: the functions reachable
from the variant's descriptor (its benchmark table, their setup, run and
teardown) through every reference: direct calls and jumps, function
addresses taken in code, and pointers stored in data (ops tables).
Variants are linked with section garbage collection
(tools/build/build_variant.py), so reachable and total text should agree
but for the padding between functions; reporting both keeps a dead
function from skewing the size comparison silently, should the build
ever keep one.
"""
from __future__ import annotations

import bisect
import re
import subprocess
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from . import paths

SECTION_RE = re.compile(r'^\s*\[\s*\d+\]\s+(\.variant\.(\d+)\.([^.\s]+(?:\.[^.\s]+)*)\.(text|rodata|data|bss))\s+\S+\s+[0-9a-f]+\s+[0-9a-f]+\s+([0-9a-f]+)')
FUNC_RE = re.compile(r'^([0-9a-f]+) <([^>]+)>:$')
INSN_RE = re.compile(r'^\s*([0-9a-f]+):\s+((?:[0-9a-f]{2} )+)\s*(.*)$')
CALL_RE = re.compile(r'\b(?:call|jmp)\w*\s+[0-9a-f]+ <([^>+]+)(?:\+0x[0-9a-f]+)?>')
RELOC_RE = re.compile(r'^\s*[0-9a-f]+: R_X86_64_(?:PLT32|PC32)\s+([^+\-\s]+)')
NOP_RE = re.compile(r'^(?:data16 |cs )*(?:nop\w*|xchg\s+%ax,%ax)\b')
# Any symbol an instruction names: call/jmp targets, "# addr <sym>" notes.
REF_RE = re.compile(r'<([^>+\s]+)(?:\+0x[0-9a-f]+)?>')
# A relocation record of `objdump -r`: offset, type, value.
RELOC_REC_RE = re.compile(r'^([0-9a-f]+)\s+(R_X86_64_\w+)\s+(\S+)$')
RELOC_VALUE_RE = re.compile(r'^(.*?)(?:([+-])0x([0-9a-f]+))?$')
# The exported descriptor every variant is reached through.
DESCRIPTOR_PREFIX = 'kfront_variant_'



class SizeError(Exception):
    """The build has no variant objects to read (one-line message)."""


@dataclass
class Function:
    name: str
    size: int
    cold: bool


@dataclass
class VariantSize:
    name: str
    index: int
    sections: dict[str, int] = field(default_factory=dict)
    functions: dict[str, Function] = field(default_factory=dict)
    rep_movs: int = 0
    rep_stos: int = 0
    padding_bytes: int = 0
    cold_functions: int = 0
    calls: dict[str, set[str]] = field(default_factory=dict)
    starts: dict[str, int] = field(default_factory=dict)
    bench_runs: dict[str, str] = field(default_factory=dict)
    # Every reference between symbols (functions and data objects), and
    # the functions reachable from the variant's descriptor.
    refs: dict[str, set[str]] = field(default_factory=dict)
    reachable: set[str] = field(default_factory=set)

    @property
    def unreachable(self) -> list[str]:
        return sorted(set(self.functions) - self.reachable)

    def hot_functions(self, run_fn: str) -> set[str]:
        seen, todo = set(), [run_fn]
        while todo:
            f = todo.pop()
            if f in seen or f not in self.functions:
                continue
            seen.add(f)
            todo.extend(self.calls.get(f, ()))
        return seen

    def to_dict(self) -> dict[str, Any]:
        hot = {b: sorted(self.hot_functions(fn)) for b, fn in sorted(self.bench_runs.items())}
        return {
            'variant': self.name,
            'text': self.sections.get('text', 0),
            'rodata': self.sections.get('rodata', 0),
            'data': self.sections.get('data', 0),
            'bss': self.sections.get('bss', 0),
            'functions': len(self.functions),
            'rep_movs': self.rep_movs,
            'rep_stos': self.rep_stos,
            'padding_bytes': self.padding_bytes,
            'cold_functions': self.cold_functions,
            'hot': {b: {'functions': len(fs),
                        'bytes': sum(self.functions[f].size for f in fs),
                        'names': fs} for b, fs in hot.items()},
            'reachable_text': sum(self.functions[f].size
                                  for f in self.reachable),
            'unreachable': self.unreachable,
            'function_sizes': {f.name: f.size for f in
                               sorted(self.functions.values(), key=lambda f: -f.size)},
        }


def _run(cmd: list[str]) -> str:
    return subprocess.run(cmd, check=True, capture_output=True, text=True).stdout


def _sections(v: VariantSize, obj: Path) -> None:
    for line in _run(['readelf', '-S', '-W', str(obj)]).splitlines():
        m = SECTION_RE.match(line)
        if m:
            v.index = int(m.group(2))
            v.name = m.group(3)
            v.sections[m.group(4)] = int(m.group(5), 16)


def _functions(v: VariantSize, obj: Path) -> None:
    for line in _run(['nm', '-S', '--defined-only', str(obj)]).splitlines():
        parts = line.split()
        if len(parts) == 4 and parts[2] in 'tT':
            name = parts[3]
            v.functions[name] = Function(name, int(parts[1], 16), name.endswith('.cold'))
            v.starts[name] = int(parts[0], 16)   # text is at address 0 in the blob
    v.cold_functions = sum(f.cold for f in v.functions.values())


def _disassembly(v: VariantSize, obj: Path) -> None:
    current = None
    pending = None      # the target of the last call/jmp, until its reloc
    for line in _run(['objdump', '-d', '--no-show-raw-insn', '-r', str(obj)]).splitlines():
        m = FUNC_RE.match(line)
        if m:
            current, pending = m.group(2), None
            continue
        r = RELOC_RE.match(line)
        if r:
            if pending is not None and current:
                # An unresolved call: the relocation names the callee.
                v.calls.setdefault(current, set()).add(r.group(1))
                pending = None
            continue
        if pending is not None and current and pending != current:
            v.calls.setdefault(current, set()).add(pending)
        pending = None
        ins = line.split(':', 1)[1].strip() if ':' in line and current else ''
        if not ins:
            continue
        if ins.startswith('rep movs'):
            v.rep_movs += 1
        elif ins.startswith('rep stos'):
            v.rep_stos += 1
        c = CALL_RE.search(ins)
        if c:
            pending = c.group(1)
    # Padding: bytes of nop instructions, from the raw encoding.
    for line in _run(['objdump', '-d', str(obj)]).splitlines():
        m = INSN_RE.match(line)
        if m and NOP_RE.match(m.group(3).strip()):
            v.padding_bytes += len(m.group(2).split())


# offsetof(struct bench_desc, run) in include/kfront/bench.h
BENCH_DESC_RUN_OFFSET = 40


def _function_at(v: VariantSize, offset: int) -> str | None:
    for f, start in v.starts.items():
        if start <= offset < start + v.functions[f].size:
            return f
    return None


def _bench_runs(v: VariantSize, obj: Path) -> None:
    """bench name -> its run function, from the relocation of each
    descriptor's run pointer (bench_net_tcp_rr -> "net.tcp_rr")."""
    descs = {}
    for line in _run(['readelf', '-s', '-W', str(obj)]).splitlines():
        parts = line.split()
        # Num: Value Size Type Bind Vis Ndx Name (values are section offsets)
        if len(parts) == 8 and parts[7].startswith('bench_') and parts[3] == 'OBJECT':
            descs[int(parts[1], 16) + BENCH_DESC_RUN_OFFSET] = parts[7]
    section = f'.variant.{v.index:02d}.{v.name}.rodata'
    for line in _run(['objdump', '-r', '-j', section, str(obj)]).splitlines():
        parts = line.split()
        if len(parts) != 3 or parts[1] != 'R_X86_64_64':
            continue
        off = int(parts[0], 16)
        if off not in descs:
            continue
        target, _, addend = parts[2].partition('+')
        fn = _function_at(v, int(addend, 16)) if target.endswith('.text') else target
        if fn:
            v.bench_runs[descs[off][len('bench_'):].replace('_', '.', 1)] = fn


@dataclass(frozen=True)
class _Symbol:
    name: str
    section: int
    start: int
    size: int


def _symbols(obj: Path) -> tuple[list[_Symbol], dict[str, int]]:
    """Functions and data objects with their section index, and the
    section indices by name."""
    syms = []
    for line in _run(['readelf', '-s', '-W', str(obj)]).splitlines():
        parts = line.split()
        if len(parts) == 8 and parts[3] in ('FUNC', 'OBJECT') and \
                parts[6].isdigit():
            syms.append(_Symbol(parts[7], int(parts[6]), int(parts[1], 16),
                                int(parts[2])))
    sections = {}
    for line in _run(['readelf', '-S', '-W', str(obj)]).splitlines():
        m = re.match(r'^\s*\[\s*(\d+)\]\s+(\S+)', line)
        if m:
            sections[m.group(2)] = int(m.group(1))
    return syms, sections


class _SymbolIndex:
    """Which symbol holds a (section, offset)."""

    def __init__(self, syms: list[_Symbol]) -> None:
        self.by_section: dict[int, list[_Symbol]] = {}
        for sym in sorted(syms, key=lambda x: (x.section, x.start)):
            self.by_section.setdefault(sym.section, []).append(sym)
        self.starts = {sec: [x.start for x in lst]
                       for sec, lst in self.by_section.items()}

    def at(self, section: int, offset: int) -> str | None:
        lst = self.by_section.get(section, [])
        i = bisect.bisect_right(self.starts.get(section, []), offset) - 1
        if i >= 0 and offset < lst[i].start + max(lst[i].size, 1):
            return lst[i].name
        return None


def _reloc_target(value: str, rtype: str, sections: dict[str, int],
                  index: _SymbolIndex, names: set[str]) -> str | None:
    m = RELOC_VALUE_RE.match(value)
    if not m:
        return None
    base, sign, num = m.group(1), m.group(2), m.group(3)
    if base in names:
        return base
    if base not in sections:
        return None     # a local label (.LC0: a string), not a symbol
    addend = int(num, 16) * (-1 if sign == '-' else 1) if num else 0
    if rtype in ('R_X86_64_PC32', 'R_X86_64_PLT32'):
        addend += 4     # PC-relative: relative to the end of the field
    return index.at(sections[base], addend)


def _references(v: VariantSize, obj: Path) -> None:
    """Every symbol-to-symbol reference: relocations of every section, and
    the targets instructions name (resolved by the assembler, no reloc)."""
    syms, sections = _symbols(obj)
    index = _SymbolIndex(syms)
    names = {x.name for x in syms}
    current = None
    for line in _run(['objdump', '-r', str(obj)]).splitlines():
        if line.startswith('RELOCATION RECORDS FOR ['):
            current = sections.get(line[len('RELOCATION RECORDS FOR ['):-2])
            continue
        m = RELOC_REC_RE.match(line.strip())
        if current is None or not m:
            continue
        src = index.at(current, int(m.group(1), 16))
        dst = _reloc_target(m.group(3), m.group(2), sections, index, names)
        if src and dst and src != dst:
            v.refs.setdefault(src, set()).add(dst)
    for caller, callees in v.calls.items():
        v.refs.setdefault(caller, set()).update(callees)
    fn = None
    for line in _run(['objdump', '-d', '--no-show-raw-insn', str(obj)]
                     ).splitlines():
        m = FUNC_RE.match(line)
        if m:
            fn = m.group(2)
            continue
        if fn and ':' in line:
            for ref in REF_RE.findall(line.split(':', 1)[1]):
                if ref != fn and ref in names:
                    v.refs.setdefault(fn, set()).add(ref)


def _reachability(v: VariantSize) -> None:
    roots = [n for n in set(v.refs) | {r for rs in v.refs.values()
                                       for r in rs}
             if n.startswith(DESCRIPTOR_PREFIX)]
    seen: set[str] = set()
    todo = list(roots)
    while todo:
        n = todo.pop()
        if n in seen:
            continue
        seen.add(n)
        todo.extend(v.refs.get(n, ()))
    v.reachable = seen & set(v.functions)


def analyze(obj: Path) -> VariantSize:
    v = VariantSize(name=obj.stem, index=0)
    _sections(v, obj)
    _functions(v, obj)
    _disassembly(v, obj)
    _bench_runs(v, obj)
    _references(v, obj)
    _reachability(v)
    return v


def variant_objects(build: Path = paths.BUILD) -> list[Path]:
    objs = sorted((build / 'bench').glob('variant_*.o'))
    if not objs:
        raise SizeError(f'no variant objects in {build / "bench"}: build first')
    return objs


def analyze_build(build: Path = paths.BUILD) -> list[dict[str, Any]]:
    return [analyze(o).to_dict() for o in variant_objects(build)]


def table(sizes: list[dict[str, Any]]) -> str:
    head = ['variant', 'text', 'reachable', 'rodata', 'data+bss', 'functions',
            'rep movs', 'rep stos', 'nop padding', 'cold parts']
    rows = [[s['variant'], s['text'], s['reachable_text'], s['rodata'],
             s['data'] + s['bss'], s['functions'], s['rep_movs'], s['rep_stos'],
             s['padding_bytes'], s['cold_functions']]
            for s in sizes]
    base = sizes[0]['text'] if sizes else 0
    widths = [max(len(str(x)) for x in col) for col in zip(head, *rows)]
    out = ['  '.join(str(h).rjust(w) if i else str(h).ljust(w)
                     for i, (h, w) in enumerate(zip(head, widths)))]
    out.append('  '.join('-' * w for w in widths))
    for r in rows:
        out.append('  '.join(str(x).rjust(w) if i else str(x).ljust(w)
                             for i, (x, w) in enumerate(zip(r, widths))))
    if base:
        out.append('')
        out.append('text relative to ' + sizes[0]['variant'] + ': ' + ', '.join(
            f"{s['variant']} {s['text'] / base:.3f}" for s in sizes))
        rbase = sizes[0]['reachable_text']
        if rbase:
            out.append('reachable text relative to ' + sizes[0]['variant'] + ': '
                       + ', '.join(f"{s['variant']} {s['reachable_text'] / rbase:.3f}"
                                   for s in sizes))
    out.append('reachable: functions that can run, from the variant\'s benchmark '
               'table through calls, taken addresses and data pointers; '
               'text = every byte the variant carries')
    dead = {s['variant']: s['unreachable'] for s in sizes if s['unreachable']}
    for name, fns in dead.items():
        out.append(f'unreachable in {name}: ' + ', '.join(fns))
    return '\n'.join(out)


def hot_table(sizes: list[dict[str, Any]]) -> str:
    benches = sorted({b for s in sizes for b in s['hot']})
    lines = ['hot path (functions reachable from run() by direct calls): bytes / functions']
    lines.append('  '.join(['benchmark'.ljust(22)] + [s['variant'].rjust(14) for s in sizes]))
    for b in benches:
        cells = []
        for s in sizes:
            h = s['hot'].get(b)
            cells.append((f"{h['bytes']} / {h['functions']}" if h else '-').rjust(14))
        lines.append('  '.join([b.ljust(22)] + cells))
    return '\n'.join(lines)
