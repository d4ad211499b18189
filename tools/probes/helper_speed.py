#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""How fast each variant's copy and checksum helpers run on this CPU.

The stream workloads spend most of their time in two helpers: memcpy
(lib/string.c, called out of line by O2 and clang) and csum_partial
(kernel/net/checksum.c). Their loops are where the compilers differ most
on those paths (docs/hybrid.md, "Why clang-O2 is faster here"), and the
host harness's workload times cannot tell which of the two decides. This
probe times the two helpers alone, from the very host objects `kfront
host` links into each variant's program (build/bench/host_variant_N.o.p),
at the sizes the workloads use, with an in-line `rep movsb` beside them
(what -Os emits at the call site instead of calling memcpy).

  tools/probes/helper_speed.py [--variants O2,clang-O2] [--rounds 5]
                               [--sizes 20,64,256,1460] [--dst mixed|aligned]
                               [--cpu N] [--build DIR]

Needs the host objects of the variants named, i.e. a build configured
with the table that holds them, e.g. after
  ./kfront host --variants-file bench/hybrid-candidates.ini --variants O2,clang-O2
or the explorer's last batch (`./kfront flags FILE`, then --build build-flags).
Prints, per helper and size, the median over rounds of each variant's
best batch (TSC ticks per call: the reference clock, not core cycles) and
its ratio to the first variant, with a paired bootstrap interval over the
rounds (docs/statistics.md). Variants run interleaved, one program per
variant per round, pinned to one CPU.
"""
from __future__ import annotations

import argparse
import os
import re
import shlex
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from kfront import stats, truth  # noqa: E402  (tools/kfront/)

ROOT = Path(__file__).resolve().parents[2]
BUILD = ROOT / 'build'
TIMER = ROOT / 'tools' / 'probes' / 'helper_speed.c'
# The sources of the helpers, as build_variant.py names their objects
# (NNN_<stem>.o in the variant's private directory).
# string_asm holds the assembly memcpy of a -DKFRONT_ASM_STRING variant
# and is empty for the others.
HELPER_OBJECTS = ('string', 'string_asm', 'checksum')
HELPERS = ('memcpy', 'csum', 'repmovsb')
HELPER_TEXT = {
    'memcpy': 'memcpy (out of line: lib/string.c or arch/x86/string_asm.c)',
    'csum': 'csum_partial (kernel/net/checksum.c)',
    'repmovsb': 'rep movsb in line (what -Os emits for a copy; no variant code)',
}


def host_variants(ninja: str, build: Path = BUILD) -> dict[str, tuple[str, Path]]:
    """Variant name -> (ninja target, private directory) of its host
    objects, from the build_variant.py commands of build.ninja (the
    directory relative to @build)."""
    found: dict[str, tuple[str, Path]] = {}
    for line in ninja.splitlines():
        if 'build_variant.py' not in line or '--target host' not in line:
            continue
        words = shlex.split(line.replace('$ ', ' '))
        try:
            name = words[words.index('--name') + 1]
            target = words[words.index('--out') + 1]
            private = words[words.index('--private-dir') + 1]
        except (ValueError, IndexError):
            continue
        found[name] = (target, build / private)
    return found


def helper_objects(private: Path) -> list[Path]:
    """The variant's compiled lib/string.c, arch/x86/string_asm.c and
    kernel/net/checksum.c."""
    objs = []
    for stem in HELPER_OBJECTS:
        match = sorted(p for p in private.glob('*.o') if re.fullmatch(rf'\d+_{stem}\.o', p.name))
        if not match:
            raise LookupError(f'no {stem}.o in {private} (run ./kfront build)')
        objs.append(match[0])
    return objs


def link_program(name: str, private: Path, timer_obj: Path, work: Path) -> Path:
    """The timing program with this variant's helpers, prefixed kfront_."""
    objs = []
    for obj in helper_objects(private):
        copy = work / f'{name}-{obj.name}'
        subprocess.run(['objcopy', '--prefix-symbols=kfront_', str(obj), str(copy)], check=True)
        objs.append(str(copy))
    exe = work / f'helper_speed-{name}'
    subprocess.run(['gcc', '-o', str(exe), str(timer_obj), *objs], check=True)
    return exe


def parse_output(text: str) -> dict[tuple[str, int], float]:
    """(helper, size) -> ticks per call, from the timing program's lines."""
    out = {}
    for line in text.splitlines():
        helper, size, ticks = line.split()
        out[(helper, int(size))] = float(ticks)
    return out


# Where each copy's destination (and each checksum's buffer) starts: 0 to
# 7 bytes past an 8-byte boundary in turn, as packet payloads and ring
# copies fall (the default), or always on it. Misaligned destinations slow
# the longer copies (here an in-line `rep movsb` of 256 B: about 29 to 42
# ticks against 21 aligned; O2's loop for a payload about 183 against 131).
DST_MODES = {'mixed': ['-m'], 'aligned': []}


def run_rounds(programs: dict[str, Path], sizes: list[int], rounds: int,
               cpu: int, dst: str = 'mixed') -> dict[str, list[dict[tuple[str, int], float]]]:
    """Each round runs every variant's program once, in table order."""
    samples: dict[str, list[dict[tuple[str, int], float]]] = {n: [] for n in programs}
    for _ in range(rounds):
        for name, exe in programs.items():
            res = subprocess.run(['taskset', '-c', str(cpu), str(exe), *DST_MODES[dst],
                                  *map(str, sizes)],
                                 capture_output=True, text=True, check=True)
            samples[name].append(parse_output(res.stdout))
    return samples


def table(samples: dict[str, list[dict[tuple[str, int], float]]], sizes: list[int]) -> list[str]:
    names = list(samples)
    base = names[0]
    lines = []
    for helper in HELPERS:
        lines.append(f'{HELPER_TEXT[helper]}:')
        # The in-line rep movsb is the same instruction in every program:
        # one column, from the baseline's runs.
        shown = names[:1] if helper == 'repmovsb' else names
        heads = ['ticks'] if helper == 'repmovsb' else shown
        lines.append('  ' + f'{"bytes":>6}' + ''.join(f'{n:>28}' for n in heads))
        for size in sizes:
            cells = []
            base_runs = [r[(helper, size)] for r in samples[base]]
            for name in shown:
                runs = [r[(helper, size)] for r in samples[name]]
                cell = f'{stats.median(runs):.1f}'
                if name != base:
                    iv = stats.bootstrap_ratio_ci(runs, base_runs,
                                                  seed=stats.seed_for(helper, size, name))
                    ratio = stats.median(runs) / stats.median(base_runs)
                    cell += (f' ({ratio:.2f} [{iv.lo:.2f}, {iv.hi:.2f}])' if iv
                             else f' ({ratio:.2f})')
                cells.append(f'{cell:>28}')
            lines.append('  ' + f'{size:>6}' + ''.join(cells))
    return lines


# Rounds of one cell further apart than this are named under the table: the
# same program can run a copy loop a third faster or slower from one run to
# the next on this machine (docs/hybrid.md, "The copy loop"), and a median
# of a few rounds then shows the commoner speed.
SPREAD_NOTE = 1.15


def spread_notes(samples: dict[str, list[dict[tuple[str, int], float]]],
                 sizes: list[int]) -> list[str]:
    """A line per cell whose slowest round took over SPREAD_NOTE times its
    fastest."""
    notes = []
    for helper in HELPERS:
        for size in sizes:
            for name in (list(samples)[:1] if helper == 'repmovsb' else samples):
                runs = [r[(helper, size)] for r in samples[name]]
                if min(runs) > 0 and max(runs) / min(runs) > SPREAD_NOTE:
                    notes.append(f'{helper} {size} B, {name}: rounds from {min(runs):.1f} to '
                                 f'{max(runs):.1f} ticks ({len(runs)} rounds)')
    if notes:
        notes.insert(0, f'Cells whose rounds differ by more than {SPREAD_NOTE - 1:.0%} '
                        '(the speed of one program run differs from the next, or noise; the '
                        'median shows the commoner):')
    return notes


def parse_args(argv: list[str]) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    p.add_argument('--variants', default='O2,clang-O2',
                   help='variants, the first the baseline (default O2,clang-O2)')
    p.add_argument('--rounds', type=int, default=5, help='rounds, 1 to 100 (default 5)')
    p.add_argument('--sizes', default='20,64,256,1460',
                   help='bytes per call, 1 to 4096 (default 20,64,256,1460)')
    p.add_argument('--dst', choices=sorted(DST_MODES), default='mixed',
                   help='destinations 0 to 7 bytes past an 8-byte boundary in turn, as '
                        'packets fall (mixed, the default), or all on it (aligned)')
    p.add_argument('--cpu', type=int, default=None,
                   help='CPU to pin to (default: the last one allowed)')
    p.add_argument('--build', type=Path, default=BUILD,
                   help='build directory whose host objects to time (default build/)')
    args = p.parse_args(argv)
    if not 1 <= args.rounds <= 100:
        p.error(f'--rounds {args.rounds} is not 1 to 100')
    try:
        args.sizes = [int(s) for s in args.sizes.split(',')]
    except ValueError:
        p.error(f'--sizes {args.sizes!r} is not a comma-separated list of byte counts')
    if not all(1 <= s <= 4096 for s in args.sizes):
        p.error('--sizes: every size must be 1 to 4096')
    args.variants = [v for v in args.variants.split(',') if v]
    if not args.variants or len(set(args.variants)) != len(args.variants):
        p.error('--variants: one or more distinct names')
    args.build = args.build.resolve()
    allowed = sorted(os.sched_getaffinity(0))
    if args.cpu is None:
        args.cpu = allowed[-1]
    elif args.cpu not in allowed:
        p.error(f'--cpu {args.cpu}: not one of the CPUs allowed here ({allowed})')
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse_args(sys.argv[1:] if argv is None else argv)
    # A table changed by `meson configure` is in build.ninja only once ninja
    # has regenerated it.
    if (args.build / 'build.ninja').exists() and subprocess.run(
            ['ninja', '-C', str(args.build), 'build.ninja'], stdout=sys.stderr).returncode:
        sys.stderr.write(f'helper_speed: regenerating {args.build}/build.ninja failed\n')
        return 1
    try:
        ninja = (args.build / 'build.ninja').read_text()
    except OSError:
        sys.stderr.write(f'helper_speed: no {args.build}/build.ninja (run ./kfront build)\n')
        return 1
    built = host_variants(ninja, args.build)
    missing = [v for v in args.variants if v not in built]
    if missing:
        sys.stderr.write(f'helper_speed: no host objects for {", ".join(missing)} in {args.build} '
                         f'(built: {", ".join(built) or "none"}); configure the table that '
                         'holds them, e.g. ./kfront host --variants-file FILE --variants '
                         f'{",".join(args.variants)}\n')
        return 1
    # A private directory can hold the objects of another table's variant
    # of the same index: build the targets first, so what is timed is what
    # the configured table says.
    targets = [built[v][0] for v in args.variants]
    if subprocess.run(['ninja', '-C', str(args.build), *targets], stdout=sys.stderr).returncode:
        sys.stderr.write(f'helper_speed: building {" ".join(targets)} failed\n')
        return 1
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        timer_obj = work / 'helper_speed.o'
        subprocess.run(['gcc', '-O2', '-c', str(TIMER), '-o', str(timer_obj)], check=True)
        try:
            programs = {v: link_program(v, built[v][1], timer_obj, work) for v in args.variants}
        except LookupError as e:
            sys.stderr.write(f'helper_speed: {e}\n')
            return 1
        samples = run_rounds(programs, args.sizes, args.rounds, args.cpu, args.dst)
    cpu = truth.read_host_cpu()
    rounds = f'{args.rounds} round' + ('s' if args.rounds != 1 else '')
    ratio = (f'; in brackets the ratio to {args.variants[0]} with a 95 % interval over '
             'the rounds (none from fewer than 3)' if len(args.variants) > 1 else '')
    print(f'helper speed on CPU {args.cpu} ({cpu.name if cpu and cpu.name else "unknown CPU"}): '
          'TSC ticks per call (reference clock, not core cycles), the median over '
          f'{rounds} of the best of 100 batches of 1000 calls; destinations '
          + ('0 to 7 bytes past an 8-byte boundary in turn' if args.dst == 'mixed'
             else '8-byte aligned') + f'{ratio}')
    print('\n'.join(table(samples, args.sizes) + spread_notes(samples, args.sizes)))
    return 0


if __name__ == '__main__':
    sys.exit(main())
