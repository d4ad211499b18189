# SPDX-License-Identifier: GPL-2.0-or-later
"""One simulator setting over parallel boots, benchmarks dealt out
(`kfront run --sim MODEL`, docs/fesim.md, "Parallel boots").

simjobs.py deals several settings over boots; with one setting, the work
that can be shared out is the benchmarks. That is exact because the
kernel's harness puts a fesim flush marker at the start of every benchmark
point (bench/harness/harness.c): every point starts from empty simulated
caches, so its figures are the same whether the boot ran other benchmarks
before it or not (docs/fesim.md, "Markers": 27 of 27 regions identical
under four settings, `@random` included).

Each boot runs its own `bench=` list with otherwise the same kernel
arguments. The boots' serial logs are collected one by one (each keeps its
own record numbers and checksums), and their records are merged into one
run in the kernel's benchmark order, as one boot would have sent them; the
boots' fesim outputs are merged with the regions renumbered in the same
order, and each result's region numbers follow. What the boots did once
each is said so: the whole-boot total and the loops line add up the boots
(each booted the firmware and the kernel).
"""
from __future__ import annotations

import dataclasses
import json
import re
from pathlib import Path
from typing import Any

from . import dealing, names, paths, simjobs
from .records import Problem, Record, Run
from .sim import SimError

# A benchmark's share of a one-setting simulated quick suite: the user CPU
# of a boot of it alone under model=zen4 (the quick suite's kernel
# arguments plus bench=NAME) less that of a boot of calib.empty (the fixed
# cost of booting), in tenths of a second (docs/fesim.md, "Parallel
# boots"). It only balances the boots; a benchmark not listed counts as
# one unit.
COST = {'net.tcp_stream': 80, 'mix.tcp_rr_wakeup': 63, 'sched.pipe': 49,
        'net.tcp_rr': 34, 'net.udp_rr': 33, 'net.udp_stream': 33,
        'sched.chat': 30, 'sched.ctxsw': 21}

_BENCHES_RE = re.compile(r'--benches ([A-Za-z0-9_,]+)')


def kernel_order(build: Path = paths.BUILD) -> list[str]:
    """The image's benchmarks in the order its suite runs them: the table
    the build generated (build_variant.py --benches, in build.ninja), each
    descriptor symbol `bench_net_tcp_rr` named as the suite names it."""
    known = {'bench_' + b.name.replace('.', '_'): b.name for b in names.benchmarks()}
    try:
        m = _BENCHES_RE.search((build / 'build.ninja').read_text(encoding='utf-8'))
    except OSError:
        m = None
    if not m:
        return [b.name for b in names.benchmarks()]
    return [known[s] for s in m.group(1).split(',') if s in known]


def selected(bench: str | None, order: list[str]) -> list[str]:
    """The benchmarks a bench= list selects, in the suite's order, by the
    kernel's rules (bench/harness/suite.c): a glob never selects an
    explicit or a wire benchmark; without a list, every other one runs."""
    exact = names.exact_only(names.benchmarks())
    items = bench.split(',') if bench else ['*']
    return [n for n in order if any(names.selects(item, n, exact) for item in items)]


def deal(benches: list[str], jobs: int) -> list[list[str]]:
    """The benchmarks over at most `jobs` boots by their cost; each boot's
    in the suite's order, none empty (one, empty, without benchmarks)."""
    return dealing.deal_by_cost(benches, jobs, lambda b: COST.get(b, 1)) or [[]]


def merge_fesim(paths_in: list[Path], out: Path) -> list[int]:
    """Write to out the boots' fesim outputs as one, regions renumbered
    boot after boot; the first region number of each boot. The boots must
    agree on everything but their regions: the settings, the geometry,
    the functions."""
    boots = [simjobs.read_output(p) for p in paths_in]
    heads = [b[0] for b in boots]
    # what differs from boot to boot: counts, added up below
    keep = ('regions', 'flushes', 'unbalanced', 'stray_ends', 'mismatched_ends',
            'open_region', 'idle_tb_runs')
    funcs: dict[Any, dict[str, Any]] = {}
    for k, b in enumerate(boots):
        if simjobs.of_type(b, 'model') != simjobs.of_type(boots[0], 'model'):
            raise SimError(f'{paths_in[k]}: its model records differ from '
                           f'{paths_in[0]}\'s: not the same settings')
        # a boot lists the functions its regions ran, numbered by the
        # symbol table: the same number must name the same function
        for o in simjobs.of_type(b, 'func'):
            if funcs.setdefault(o.get('id'), o) != o:
                raise SimError(f'{paths_in[k]}: function {o.get("id")} is {o.get("name")}, '
                               f'{funcs[o.get("id")].get("name")} in another boot: '
                               'not the same symbol table')
    for k in range(1, len(boots)):
        if {x: y for x, y in heads[k].items() if x not in keep} != \
                {x: y for x, y in heads[0].items() if x not in keep}:
            raise SimError(f'{paths_in[k]}: its header differs from {paths_in[0]}\'s')
    header = dict(heads[0])
    for key in keep:
        vals = [h.get(key) for h in heads]
        header[key] = any(vals) if key == 'open_region' else sum(int(v or 0) for v in vals)
    lines: list[dict[str, Any]] = [header]
    lines += simjobs.of_type(boots[0], 'model')
    lines += [funcs[i] for i in sorted(funcs, key=int)]
    calls: dict[tuple[int, int], int] = {}
    for b in boots:
        for o in simjobs.of_type(b, 'call'):
            key = (int(o['caller']), int(o['callee']))
            calls[key] = calls.get(key, 0) + int(o['count'])
    lines += [{'type': 'call', 'caller': a, 'callee': c, 'count': n}
              for (a, c), n in calls.items()]
    firsts, seq, occ = [], 0, {}
    for b in boots:
        firsts.append(seq)
        for o in simjobs.of_type(b, 'region'):
            slot = o.get('slot')
            lines.append(dict(o, seq=seq, occ=occ.get(slot, 0)))
            occ[slot] = occ.get(slot, 0) + 1
            seq += 1
    for kind in ('total', 'loops', 'speed'):
        figs = [simjobs.of_type(b, kind) for b in boots]
        if all(figs):
            lines.append(simjobs.added_up([f[0] for f in figs]))
    tmp = out.with_name(out.name + '.tmp')
    tmp.write_text(''.join(json.dumps(o, separators=(',', ':')) + '\n' for o in lines),
                   encoding='utf-8')
    tmp.replace(out)
    return firsts


def _renumbered(payload: dict[str, Any], first: int) -> dict[str, Any]:
    """A result payload whose fesim region numbers point into the merged
    output: the boot's own numbers plus the boot's first region's."""
    p = dict(payload)
    if isinstance(p.get('regions'), list):
        p['regions'] = [s + first if isinstance(s, int) else s for s in p['regions']]
    if isinstance(p.get('calib_region'), int):
        p['calib_region'] += first
    return p


def merge_runs(runs: list[Run], logs: list[Path], firsts: list[int],
               order: list[str], cmdline: str) -> Run:
    """The boots' runs as the one run a single boot would have sent: its
    suite_begin (with the whole run's command line: each boot's own is in
    results.json's extra.sim.boots), the records of every benchmark in the
    suite's order, a suite_end counting them. A record keeps the line
    number of its own boot's log; a problem names that log."""
    rank = {b: i for i, b in enumerate(order)}
    body: list[tuple[int, int, int, Record]] = []   # (rank, boot, place, record)
    problems: list[Problem] = []
    for k, run in enumerate(runs):
        problems += [dataclasses.replace(p, message=f'{logs[k].name}: {p.message}')
                     for p in run.problems]
        at = -1     # a record without a benchmark stays after the one before it
        for n, rec in enumerate(run.records):
            if rec.type in ('suite_begin', 'suite_end'):
                continue
            bench = rec.payload.get('bench')
            if isinstance(bench, str):
                at = rank.get(bench, len(rank))
            body.append((at, k, n,
                         dataclasses.replace(rec, payload=_renumbered(rec.payload, firsts[k]))))
    body.sort(key=lambda x: x[:3])
    merged = Run(index=0, problems=problems,
                 crashed=any(r.crashed for r in runs),
                 first_line=runs[0].first_line, last_line=runs[0].last_line)
    begin = runs[0].begin
    if begin is not None:
        merged.begin = dataclasses.replace(begin, payload=dict(begin.payload, cmdline=cmdline))
        merged.by_seq[0] = merged.begin
    for *_, rec in body:
        seq = len(merged.by_seq)
        merged.by_seq[seq] = dataclasses.replace(rec, seq=seq)
    ends = [r.end for r in runs]
    if all(e is not None for e in ends):
        status = next((int(e.payload.get('status') or 0) for e in ends
                       if e.payload.get('status')), 0)
        seq = len(merged.by_seq)
        payload = {'t': 'suite_end', 'records': seq + 1, 'status': status,
                   'regions': sum(int(e.payload.get('regions') or 0) for e in ends)}
        merged.end = Record(seq=seq, payload=payload, raw=json.dumps(payload).encode(),
                            line=ends[0].line)
        merged.by_seq[seq] = merged.end
    merged.highest = max(merged.by_seq) if merged.by_seq else -1
    return merged
