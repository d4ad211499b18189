#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Does a filter rule leave from the line just before the next rule?

The footprint filter calls its rules in order (kernel/net/filter.c:
nf_rule_table[0], [1], ...), and at 128 rules their code outgrows the
L1i, so every rule's lines are fetched again on every packet. With a
next-line prefetch (the simulator's presets; docs/fesim.md) a line
reached by running on from the line before is a hit, and a line reached
by a jump is a miss. A rule's first line is then a hit only if the rule
before it left from the line just before it (or from that same line):
the prefetch triggered by that line fetched the next rule's first.

Which exit a rule leaves by depends on the packet, so this probe counts
them: it runs each variant's host program (the same generated rules,
compiled with the variant's flags: their sizes match the kernel's) under
callgrind with one count per instruction, and weighs each rule's exits
by how often they ran:

  tools/probes/rule_exits.py VARIANT... [--rules 128] [--bench net.tcp_rr] [--iters 300]

VARIANT's host program is build/host/kfront-host-VARIANT (built for the
variants of the build's table: `./kfront run --variants-file FILE` or
`meson configure build -Dvariants_file=FILE`). Per variant it prints the
share of rule calls whose exit lies on the next rule's entry line or the
line before it, how far the other exits lie, and how many instructions a
call runs past the rule's busiest exit (blocks placed after the return
path). docs/hybrid.md, "At 128 filter rules", gives a run.
"""
from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / 'tools'))
from kfront import vg  # noqa: E402

LINE = 64
RULE = re.compile(r'nf_rule_(\d{4})$')
INSN = re.compile(r'\s*([0-9a-f]+):\s+(\S+)\s*(.*)$')
HEADER = re.compile(r'^([0-9a-f]+) <([^>]+)>:$')


@dataclass
class Function:
    name: str
    start: int
    end: int
    insns: list[tuple[int, str, str]]   # (address, mnemonic, operands)


def is_exit(f: Function, mnem: str, ops: str) -> bool:
    """The instruction leaves the function: a return, an indirect jump,
    or a jump to outside it (a tail call)."""
    if mnem.startswith('ret') or (mnem.startswith('jmp') and ops.startswith('*')):
        return True
    if mnem.startswith('jmp'):
        m = re.match(r'([0-9a-f]+)', ops)
        return bool(m) and not f.start <= int(m.group(1), 16) < f.end
    return False


def parse_objdump(text: str) -> list[Function]:
    """Functions of `objdump -d --no-show-raw-insn` output; their ends are
    set from the symbol sizes afterwards."""
    out: list[Function] = []
    for line in text.splitlines():
        h = HEADER.match(line)
        if h:
            start = int(h.group(1), 16)
            out.append(Function(h.group(2), start, start, []))
            continue
        m = INSN.match(line)
        if m and out:
            out[-1].insns.append((int(m.group(1), 16), m.group(2), m.group(3)))
    return out


def parse_callgrind(text: str, keep: re.Pattern[str]) -> dict[str, dict[int, int]]:
    """Instructions executed per address, of the functions whose names
    `keep` matches, from a callgrind file written with --dump-instr=yes
    (every part of it). The cost line after `calls=` is a call's
    inclusive cost and is left out; its address still counts as the
    position later relative addresses (+N, -N, *) start from."""
    names: dict[str, str] = {}
    out: dict[str, dict[int, int]] = {}
    current: str | None = None
    last, skip = 0, False
    for line in text.splitlines():
        if line.startswith(('fn=', 'cfn=')):
            m = vg.NAME_RE.match(line)     # callgrind's name compression
            assert m is not None
            ident, name = m.group(1), m.group(2)
            if ident is not None:
                if name:
                    names[ident] = name
                name = names.get(ident, f'({ident})')
            if line.startswith('fn='):
                current = name.split("'", 1)[0]
            continue
        if line.startswith('calls='):
            skip = True
            continue
        if not line or not (line[0].isdigit() or line[0] in '+-*'):
            continue
        tok = line.split()
        pos = tok[0]
        if pos == '*':
            addr = last
        elif pos[0] in '+-':
            addr = last + int(pos, 0)
        else:
            addr = int(pos, 0)
        last = addr
        if skip:
            skip = False
            continue
        if current is not None and keep.match(current) and len(tok) >= 2:
            per = out.setdefault(current, {})
            per[addr] = per.get(addr, 0) + int(tok[-1])
    return out


def exits_of(rules: list[Function], counts: dict[str, dict[int, int]]) -> dict[str, Any]:
    """Rules in call order and their per-address counts: the share of
    calls that leave from the next rule's entry line or the line before
    it, the other exits' distances in lines (weighted by calls), and
    the instructions a call runs past its rule's busiest exit."""
    calls = covered = past = insns = 0
    far: dict[int, int] = {}
    for here, nxt in zip(rules, rules[1:]):
        c = counts.get(here.name, {})
        exits = [(a, c.get(a, 0)) for a, m, o in here.insns if is_exit(here, m, o)]
        ran = [(a, n) for a, n in exits if n]
        if not ran:
            continue
        entry = nxt.start // LINE
        for a, n in ran:
            calls += n
            d = entry - a // LINE
            if 0 <= d <= 1:
                covered += n
            else:
                far[d] = far.get(d, 0) + n
        busiest = max(ran, key=lambda t: t[1])[0]
        past += sum(n for a, n in c.items() if a > busiest)
        insns += sum(c.values())
    return {'calls': calls, 'covered': covered,
            'covered_share': round(covered / calls, 4) if calls else None,
            'far': {str(d): n for d, n in sorted(far.items())},
            'insns_past_busiest_exit_per_call': round(past / calls, 2) if calls else None,
            'insns_per_call': round(insns / calls, 2) if calls else None}


def rules_of(exe: Path, nrules: int) -> list[Function]:
    """The program's rules 0..nrules-1, in call order, with their ends."""
    sizes = {}
    nm = subprocess.run(['nm', '-S', str(exe)], capture_output=True, text=True, check=True)
    for line in nm.stdout.splitlines():
        parts = line.split()
        if len(parts) == 4 and RULE.match(parts[3]):
            sizes[parts[3]] = (int(parts[0], 16), int(parts[1], 16))
    wanted = [f'nf_rule_{k:04d}' for k in range(nrules)]
    missing = [n for n in wanted if n not in sizes]
    if missing:
        raise ValueError(f'{exe}: no {missing[0]} (the program has {len(sizes)} rules)')
    lo = min(sizes[n][0] for n in wanted)
    hi = max(sizes[n][0] + sizes[n][1] for n in wanted)
    dump = subprocess.run(['objdump', '-d', '--no-show-raw-insn', f'--start-address={lo:#x}',
                           f'--stop-address={hi:#x}', str(exe)],
                          capture_output=True, text=True, check=True)
    found = {f.name: f for f in parse_objdump(dump.stdout) if f.name in sizes}
    out = []
    for n in wanted:
        f = found[n]
        f.end = f.start + sizes[n][1]
        out.append(f)
    return out


def measure(exe: Path, args: argparse.Namespace, work: Path) -> dict[str, Any]:
    out_file = work / f'{exe.name}.callgrind'
    cmd = ['valgrind', '--tool=callgrind', '--cache-sim=no', '--dump-instr=yes',
           '--combine-dumps=yes', f'--callgrind-out-file={out_file}', str(exe), '--no-pin',
           f'bench={args.bench}', 'runs=1', 'warmup=1', f'iters={args.iters}',
           f'footprint={args.rules}']
    subprocess.run(cmd, capture_output=True, text=True, check=True, timeout=1800)
    counts = parse_callgrind(out_file.read_text(encoding='utf-8', errors='replace'), RULE)
    return exits_of(rules_of(exe, args.rules), counts)


def far_words(far: dict[str, int], near: int = 8) -> list[str]:
    """The other exits' calls by lines before the next entry: each
    distance up to `near` lines, then the rest together (a next rule
    elsewhere in memory: before the exit, or far after it)."""
    out, elsewhere = [], 0
    for d, n in far.items():
        if 2 <= int(d) <= near:
            out.append(f'{d} lines before: {n}')
        else:
            elsewhere += n
    if elsewhere:
        out.append(f'next rule elsewhere: {elsewhere}')
    return out


def main(argv: list[str]) -> int:
    p = argparse.ArgumentParser(prog='rule_exits.py', description=__doc__.split('\n')[1])
    p.add_argument('variants', nargs='+', metavar='VARIANT')
    p.add_argument('--rules', type=int, default=128, help='rules per packet (default 128)')
    p.add_argument('--bench', default='net.tcp_rr', help='a benchmark that runs the filter')
    p.add_argument('--iters', type=int, default=300, help='operations per run (default 300)')
    p.add_argument('--json', action='store_true', help='print the figures as JSON')
    args = p.parse_args(argv)
    if not 2 <= args.rules <= 1024 or not 1 <= args.iters <= 100000:
        print('rule_exits: --rules: 2 to 1024; --iters: 1 to 100000', file=sys.stderr)
        return 2
    exes = [ROOT / 'build' / 'host' / f'kfront-host-{v}' for v in args.variants]
    missing = [str(e) for e in exes if not e.exists()]
    if missing:
        print(f'rule_exits: no {", ".join(missing)}: build the variant\'s host program '
              '(./kfront run --variants-file FILE, or meson configure build '
              '-Dvariants_file=FILE && ninja -C build)', file=sys.stderr)
        return 2
    figures = {}
    with tempfile.TemporaryDirectory() as tmp:
        for v, exe in zip(args.variants, exes):
            try:
                figures[v] = measure(exe, args, Path(tmp))
            except (OSError, ValueError, subprocess.SubprocessError) as exc:
                print(f'rule_exits: {v}: {exc}', file=sys.stderr)
                return 1
    if args.json:
        print(json.dumps(figures, indent=1))
        return 0
    print(f'{args.bench} at {args.rules} rules: where each rule call leaves, against the '
          'next rule\'s entry line (0 or 1 line before it: a next-line prefetch '
          'fetched the entry)')
    for v, f in figures.items():
        far = ', '.join(far_words(f['far'])) or 'none'
        print(f'  {v}: {f["covered"]} of {f["calls"]} calls ({f["covered_share"]:.1%}) leave '
              f'from the entry line or the one before; further: {far}; '
              f'{f["insns_per_call"]} instructions a call, '
              f'{f["insns_past_busiest_exit_per_call"]} of them past its rule\'s busiest exit')
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
