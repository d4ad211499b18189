#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Text bytes of the footprint filter rules under one or more flag sets.

The simulator's L1i misses at footprint 64 and 128 come from the
generated rules (nf_rule_NNNN, kernel/net/filter_rules.c): rules 0-63
run at footprint 64 (and in a --quick training), 64-127 only at 128.
Compiling the rule source alone, as build_variant.py compiles it for a
profile-using variant, shows in a minute or two what a flag does to
their size, before a full simulator run (docs/pgo.md, "Candidates").

Needs a configured build (`./kfront build`) and, for flags with
-fprofile-use, a profile (`./kfront pgo --quick --train-only`):
  tools/probes/rule_sizes.py 'O2=-O2' 'Os=-Os' \\
      'pgo=-O2 -fprofile-use -fprofile-partial-training -fno-profile-values'
Prints per flag set the bytes of rules 0-63, 64-127 and of their split-off
.cold parts, and how many bytes each of rules 0-127 keeps after its first
`ret` (blocks placed past the return path; docs/hybrid.md, "At 128
filter rules"): the median, and in how many fewer than 8.
"""
import re
import shlex
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(Path(__file__).resolve().parent))
import rule_exits  # noqa: E402  (its objdump reader, beside this file)
BUILD = ROOT / 'build'
RULE = re.compile(r'nf_rule_(\d+)(\.cold)?$')


def kernel_cflags() -> str:
    """The measured code's base flags, as the build passes them to build_variant.py."""
    ninja = (BUILD / 'build.ninja').read_text()
    m = re.search(r"'--cflags=((?:[^'])*)'", ninja)
    if not m:
        sys.exit('rule_sizes: no build_variant command in build/build.ninja (run ./kfront build)')
    return m.group(1).replace('$ ', ' ')


def rule_bytes(obj: Path) -> tuple[int, int, int]:
    low = high = cold = 0
    out = subprocess.run(['nm', '-S', str(obj)], capture_output=True, text=True, check=True).stdout
    for line in out.splitlines():
        f = line.split()
        m = RULE.match(f[3]) if len(f) == 4 and f[2] in 'tT' else None
        if not m:
            continue
        size = int(f[1], 16)
        if m.group(2):
            cold += size
        elif int(m.group(1)) < 64:
            low += size
        elif int(m.group(1)) < 128:
            high += size
    return low, high, cold


def bytes_after_first_ret(obj: Path) -> list[int]:
    """Per rule 0-127 (not its .cold part): bytes from the end of its first
    `ret` to its end."""
    dump = subprocess.run(['objdump', '-d', '--no-show-raw-insn', str(obj)],
                          capture_output=True, text=True, check=True).stdout
    out = []
    for f in rule_exits.parse_objdump(dump):
        m = RULE.match(f.name)
        if not m or m.group(2) or int(m.group(1)) >= 128:
            continue
        rets = [a for a, mnem, _ops in f.insns if mnem.startswith('ret')]
        if rets:
            # to the last instruction's start: its end is not in the dump
            out.append(f.insns[-1][0] - min(rets))
    return out


def measure(tag: str, flags: str, cflags: str, work: Path) -> None:
    priv = work / tag
    cmd = [sys.executable, str(ROOT / 'tools/build/build_variant.py'), '--name', tag,
           '--index', '99', '--cc', 'gcc', f'--flags={flags}', f'--cflags={cflags}',
           '--target', 'kernel', '--profile-dir',
           str(BUILD / 'pgo/net') if '-fprofile-use' in shlex.split(flags) else '-',
           '--layout=-', '--benches', '', '--out', str(priv / 'v.o'),
           '--private-dir', str(priv / 'p'), str(BUILD / 'kernel/net/filter_rules.c')]
    subprocess.run(cmd, cwd=BUILD, check=True)
    obj = next((priv / 'p').glob('*_filter_rules.o'))
    low, high, cold = rule_bytes(obj)
    tails = bytes_after_first_ret(obj)
    after = (f'after the first ret: median {statistics.median(tails):g} B, under 8 B in '
             f'{sum(t < 8 for t in tails)} of {len(tails)}') if tails else 'no ret found'
    print(f'{tag:>12}: rules 0-63 {low:7,} B  rules 64-127 {high:7,} B  .cold {cold:6,} B; {after}')


def main() -> int:
    if len(sys.argv) < 2 or not all('=' in a for a in sys.argv[1:]):
        sys.stderr.write('usage: rule_sizes.py TAG=FLAGS ...\n')
        return 2
    cflags = kernel_cflags()
    with tempfile.TemporaryDirectory() as tmp:
        for arg in sys.argv[1:]:
            tag, flags = arg.split('=', 1)
            measure(tag, flags, cflags, Path(tmp))
    return 0


if __name__ == '__main__':
    sys.exit(main())
