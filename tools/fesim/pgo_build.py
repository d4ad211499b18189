#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Build the fesim plugin with GCC profile-guided optimisation.

The plugin's per-TB path is branchy code whose hot side depends on the
workload (memo replays, uop-cache fills, loop replay), so GCC lays it out
and inlines it better from a profile (docs/fesim.md, "Speed"). The
build, in one step so that both compilations name their profile files
alike (GCC names them after the -o path):

1. compile the plugin instrumented (-fprofile-generate), with
   pgo_train.c, which writes the counts when QEMU ends the plugin;
2. run a training workload under qemu-x86_64: the host harness's
   benchmarks (the kernel's own code, built as a Linux program), under
   the default model and under three other settings;
3. compile it again with -fprofile-use into the same path, and copy it to
   the output as a new file (install()).

A failed step (no qemu-x86_64, the training program failing) is not a
failed build: the plugin is compiled without a profile and the reason
printed. The profile changes how fast the plugin runs, never what it
counts (the fesim tests run against this build).

usage: pgo_build.py OUT QEMU PROG CC... -- CFLAGS... -- SOURCES... -- TRAIN_SOURCES...
"""
import os
import shutil
import subprocess
import sys
from pathlib import Path

# what the training runs: short (seconds), every plugin path that matters
TRAIN_ARGS = ['--no-pin', 'bench=net.tcp_stream,net.tcp_rr,sched.pipe,sched.ctxsw',
              'quick', 'runs=1', 'iters=400', 'warmup=1', 'footprint=0']
# the variants it runs: O2 and Os, or what the build's variant table has
# of them (tools/fesim/meson.build; a table without either names its first)
TRAIN_VARIANTS = os.environ.get('FESIM_TRAIN_VARIANTS') or 'O2,Os'
TRAIN_MODELS = ['zen4', 'skylake:zen4@plru:goldencove@random']
TRAIN_TIMEOUT = 600


def split_args(argv: list[str]) -> list[list[str]]:
    parts: list[list[str]] = [[]]
    for a in argv:
        if a == '--':
            parts.append([])
        else:
            parts[-1].append(a)
    return parts


def compile_plugin(cc: list[str], cflags: list[str], sources: list[str],
                   out: Path, extra: list[str]) -> None:
    subprocess.run(cc + cflags + extra + ['-shared', '-o', str(out)] + sources,
                   check=True)


def train(qemu: str, prog: str, plugin: Path, work: Path) -> None:
    syms = work / 'train.syms'
    res = subprocess.run(['nm', '-n', '--defined-only', prog], capture_output=True,
                         text=True, check=True)
    syms.write_text(res.stdout, encoding='utf-8')
    for k, model in enumerate(TRAIN_MODELS):
        opts = f'{plugin},model={model},out={work}/train-{k}.jsonl,syms={syms}'
        subprocess.run([qemu, '-plugin', opts, prog, f'variant={TRAIN_VARIANTS}'] +
                       TRAIN_ARGS,
                       stdout=subprocess.DEVNULL, check=True, timeout=TRAIN_TIMEOUT)


def main() -> int:
    parts = split_args(sys.argv[1:])
    if len(parts) != 4 or len(parts[0]) < 4:
        print(__doc__.strip().splitlines()[-1], file=sys.stderr)
        return 2
    (out, qemu, prog, *cc), cflags, sources, train_sources = parts
    out_path = Path(out).resolve()
    work = out_path.parent / 'fesim-pgo'
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    # both compilations write this path: their profile files match
    target = work / out_path.name
    prof = ['-fprofile-dir=' + str(work / 'profile')]
    try:
        compile_plugin(cc, cflags, sources + train_sources, target,
                       ['-fprofile-generate', '-fprofile-update=single'] + prof)
        train(qemu, prog, target, work)
        if not list((work / 'profile').rglob('*.gcda')):
            raise RuntimeError('the training wrote no profile')
        os.replace(target, work / 'instrumented.so')
        compile_plugin(cc, cflags, sources, target,
                       ['-fprofile-use', '-fprofile-partial-training',
                        '-Wno-missing-profile'] + prof)
    except (OSError, RuntimeError, subprocess.SubprocessError) as exc:
        print(f'fesim: profile-guided build failed ({exc}): '
              'building the plugin without a profile', file=sys.stderr)
        compile_plugin(cc, cflags, sources, target, [])
    install(target, out_path)
    return 0


def install(built: Path, out_path: Path) -> None:
    """Put the plugin at out_path as a new file, never by writing over the
    old one: a QEMU running a simulation has the old file mapped, and
    rewriting it in place killed that QEMU with SIGBUS (a `kfront run
    --sim` during a rebuild). os.replace leaves it its own copy."""
    tmp = out_path.with_name(out_path.name + '.new')
    shutil.copyfile(built, tmp)
    os.chmod(tmp, 0o755)
    os.replace(tmp, out_path)


if __name__ == '__main__':
    sys.exit(main())
