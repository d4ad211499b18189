# SPDX-License-Identifier: GPL-2.0-or-later
"""The host harness as part of `kfront run`: the same variants, benchmarks
and footprints timed on this machine's real CPU in user space (TSC), so
that a run without a PMU in ring 0 still has a real-CPU figure beside the
simulator's counts (tools/kfront/truth.py). Its results document is stored
in the run's results.json under `host` (docs/results-schema.md) and in
OUT/host/ with its log.
"""
from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from kfront import kargs, results
from kfront.cmd_host import host_exe, repeat_processes, run_suite_program

# Suite keys the host programs take (host/main.c); the kernel's own keys
# (exit=, serve=, crash=, nic=, ...) stay with the kernel.
HOST_KEYS = frozenset({'runs', 'iters', 'warmup', 'method', 'budget_ms', 'footprint',
                       'state', 'bench', 'variant', 'quick'})


def run_host(args: argparse.Namespace, out: Path, sel: kargs.Selection
             ) -> tuple[dict[str, Any] | None, str]:
    """Run the host harness into out; (its results document, or None and
    why there is none)."""
    exe = host_exe()
    if not exe.exists():
        return None, f'the host programs were not built ({exe})'
    out.mkdir(parents=True, exist_ok=True)
    # the kernel's code in 2 MiB pages (textpages=2m): the host program's
    # too, or the two halves of the run would map their code differently
    huge = kargs.text_pages(list(getattr(args, 'extra', []) or [])) == '2m'
    cmd = [str(exe)] + (['--huge-text'] if huge else []) + kargs.build(sel)
    run, extra, status = run_suite_program(
        cmd, out, args.timeout, 'kfront run',
        'the same suite on this CPU in user space (host harness'
        + (', its code on a 2 MiB page as textpages=2m asks: --huge-text)' if huge else ')'))
    if run is None:
        return None, f'the host harness gave no results (status {status}, see {out / "host.log"})'
    names = [str(v.get('name')) for v in (run.begin.payload.get('variants') or [])] \
        if run.begin else []
    if getattr(args, 'baseline', None) in names:
        extra['baseline'] = args.baseline
    data = results.build_results(run, extra)
    k = getattr(args, 'host_repeat', 1)
    repeat_problem = repeat_processes(cmd, out, args.timeout, 'kfront run', data, k)[0] \
        if k > 1 else ''
    results.save(data, out / 'results.json')
    problems = ([] if status == 0 else [f'incomplete (status {status})']) + \
        ([repeat_problem] if repeat_problem else [])
    return data, '; '.join(problems)
