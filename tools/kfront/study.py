# SPDX-License-Identifier: GPL-2.0-or-later
"""The findings study (issue 19, item 5): from one simulated run (the kernel
under fesim, a footprint sweep, several models) and two host runs (the same
variants timed on this machine's CPU, TSC; and counted by callgrind, per
function),
write docs/findings.md: what differs between the variants, where the
I-cache crossover lies per model, how each model's uop cache takes each
variant, and the functions and code patterns
responsible, each claim with the command that reproduces it.

Everything here is a function of the two results documents and the
programs they name, so the same inputs give the same text (tested);
cmd_study.py runs the measurements.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from . import (compare, explain, model, placement, repeats, results, sim, stats,
               stringhelpers, svg, uopshare, verdict)

BASE, OTHER = 'O2', 'Os'
TOP = 5
# A crossover needs Os below O2 by more than this share of O2's misses
# (and at least one miss per 100 operations): not a rounding difference.
CROSS_MARGIN = 0.05
CROSS_FLOOR = stats.NEXT_TO_NOTHING
FAMILIES = ('net.', 'sched.', 'mix.')


@dataclass
class Inputs:
    """What render() reads: the two results documents and their programs."""
    sim: dict[str, Any] | None
    host: dict[str, Any] | None                    # timings
    hostvg: dict[str, Any] | None = None           # callgrind counts (else host's)
    kernel: Path | None = None                     # the kernel image (sim)
    host_programs: dict[str, Path] = field(default_factory=dict)
    commands: list[str] = field(default_factory=list)
    sim_path: str = 'SIM/results.json'
    host_path: str = 'HOST/results.json'
    hostvg_path: str = 'HOSTVG/results.json'
    # tools/probes/helper_speed.py's table from the study's own build, and
    # the command that made it (none in studies before it was run)
    helpers: str | None = None
    helpers_command: str = ''
    # the variant table when not bench/variants.ini, and where the time
    # chart lies relative to the document
    variants_file: str = ''
    chart: str = 'findings/time-ratio.svg'
    # the same timings again, after the counting runs (None in studies
    # before it was taken): which of the first run's verdicts repeat
    host_again: dict[str, Any] | None = None
    host_again_path: str = 'HOST-AGAIN/results.json'

    @property
    def counts(self) -> dict[str, Any] | None:
        """The host results that hold callgrind's figures."""
        return self.hostvg if self.hostvg is not None else self.host

    @property
    def counts_path(self) -> str:
        return self.hostvg_path if self.hostvg is not None else self.host_path


def _entries(data: dict[str, Any] | None) -> list[dict[str, Any]]:
    return [e for e in (data or {}).get('results', [])
            if str(e.get('bench', '')).startswith(FAMILIES)]


def _entry(data: dict[str, Any] | None, bench: str, fp: int | None,
           variant: str) -> dict[str, Any] | None:
    """The result at sweep point fp; a benchmark without a sweep (footprint
    null) counts as point 0."""
    for e in _entries(data):
        if e['bench'] == bench and e['variant'] == variant and \
                (e.get('footprint') or 0) == (fp or 0):
            return e
    return None


def _median(e: dict[str, Any] | None, counter: str) -> float | None:
    c = (e or {}).get('counters', {}).get(counter)
    return None if c is None else c['per_op']['median']


def _ratio(data: dict[str, Any] | None, bench: str, fp: int | None,
           counter: str) -> str:
    a = _median(_entry(data, bench, fp, BASE), counter)
    b = _median(_entry(data, bench, fp, OTHER), counter)
    if a is None or b is None:
        return 'n/a'
    if a == 0:
        return 'both 0' if b == 0 else 'O2 0'
    return f'{b / a:.3f}'


def time_ratio(data: dict[str, Any] | None, bench: str, fp: int | None) -> str:
    """Os/O2 median TSC per operation with its 95% interval, in words a
    reader takes as meant: below 1, Os is faster."""
    e = _entry(data, bench, fp, OTHER)
    r = (e or {}).get('counters', {}).get('tsc', {}).get('ratio')
    if not r or r.get('value') is None:
        return 'n/a'
    lo, hi = r.get('lo'), r.get('hi')
    ci = f' [{lo:.2f}, {hi:.2f}]' if lo is not None and hi is not None else ''
    star = ' *' if r.get('significant') else ''
    return f'{r["value"]:.2f}{ci}{star}'


def _timed_again(inp: Inputs) -> tuple[compare.Comparison | None, str]:
    """The first timing run against the second (kfront compare: each run's
    verdict against O2 by its own rule), or None and why not."""
    if inp.host is None or inp.host_again is None:
        return None, ''
    try:
        first = model.from_dict(inp.host, inp.host_path)
        again = model.from_dict(inp.host_again, inp.host_again_path)
    except results.ResultsError as exc:
        return None, f'The second timing run cannot be read: {exc}.'
    first.results = [e for e in first.results if e.bench.startswith(FAMILIES)]
    return compare.compare(first, again), ''


def _moved(cmp: compare.Comparison | None) -> set[tuple[str, int]]:
    """(bench, footprint) where Os's verdict against O2 is not the same in
    the second timing run."""
    return {(r.bench, r.a.footprint or 0) for r in (cmp.rows if cmp else [])
            if r.counter == 'tsc' and r.variant == OTHER and r.a_verdict != r.b_verdict}


def repeat_lines(inp: Inputs, cmp: compare.Comparison | None, problem: str) -> list[str]:
    """Which real-CPU verdicts of the first timing run the second repeats
    (cmp, problem: _timed_again()), as a paragraph; nothing without a
    second run."""
    if cmp is None:
        return [problem, ''] if problem else []
    agreement = compare.verdict_agreement(cmp).get('tsc')
    if not agreement:
        return []
    same = agreement['agree']
    wins = [f'{r.a.label} {r.variant}' for r in cmp.rows
            if r.counter == 'tsc' and r.a_verdict == r.b_verdict == verdict.WIN]
    kinds = [verdict.counted(same[k], k) for k in (verdict.LOSS, verdict.TIE) if same.get(k)]
    if wins:
        kinds.append(f'{verdict.counted(len(wins), verdict.WIN)} ({", ".join(wins)})')
    def are(n: int) -> str:
        return f'{n} {"is" if n == 1 else "are"}'
    reversed_ = ', '.join(f'{r.a.label} {r.variant} ({r.a_verdict}, then {r.b_verdict})'
                          for r in agreement['reversed'])
    # how far the ratios themselves moved, against the first run's intervals
    moved = repeats.moves_text({'moves': cmp.moves, 'baseline': 'O2'}, between='the runs',
                               first="the first run's") if cmp.moves else ''
    return [f'**Do the verdicts repeat?** The same timings were taken again after the '
            f'counting runs (`./kfront compare {inp.host_path} {inp.host_again_path}` '
            f'lists every row). Of the {agreement["rows"]} verdicts of Os and the hybrid '
            f'against O2 (a win or loss needs the interval to exclude 1 after Holm\'s '
            f'correction, each run by its own rule), {are(sum(same.values()))} the same '
            f'in both runs{": " + ", ".join(kinds) if kinds else ""}. '
            f'{are(len(agreement["differ"]))} a win or a loss in one run and a tie in '
            f'the other, and {len(agreement["reversed"])} a win in one and a loss in the other'
            f'{": " + reversed_ if reversed_ else ""}. '
            + (f'{moved[0].upper()}{moved[1:]}. ' if moved else '')
            + _placement_sentence(inp.host, inp.host_again)
            + 'A verdict that does not repeat is this machine\'s noise, not a finding '
            '(docs/statistics.md, "Between runs").',
            '']


def _placement_sentence(*docs: dict[str, Any] | None) -> str:
    """Whether the timing runs ran from fresh copies of the program (so
    that the second sampled another placement of its code in physical
    memory) or both from the build's file as it stood, as every study did
    before the host harness made fresh copies."""
    kinds = {placement.recorded((d or {}).get('extra')) for d in docs}
    if kinds == {placement.FRESH}:
        return ('Each timing run ran from a fresh copy of the program, so the second '
                'ran its code from other physical pages. ')
    return ('Both timing runs ran the build\'s program file as it stood, so where its '
            'code sat in physical memory was not varied on purpose; by itself that moved '
            'time ratios at the swept points by up to a half on the development VM, and '
            'two runs that agree do not rule it out (docs/statistics.md, "Where the code '
            'lands"). ')


def _benches(*docs: dict[str, Any] | None) -> list[str]:
    return sorted({e['bench'] for d in docs for e in _entries(d)})


def _footprints(data: dict[str, Any] | None) -> list[int]:
    return sorted({e.get('footprint') or 0 for e in _entries(data)})


def _models(data: dict[str, Any] | None) -> list[str]:
    return sim.models_of(c for e in _entries(data) for c in e.get('counters', {}))


def _clearly_fewer(few: float, many: float) -> bool:
    """`few` below `many` by more than CROSS_MARGIN of it, `many` at least
    CROSS_FLOOR: the test of a crossover, and of each side of a tally."""
    return many >= CROSS_FLOOR and few < many * (1 - CROSS_MARGIN)


def crossover(data: dict[str, Any] | None, bench: str, model: str) -> str:
    """The smallest sweep point where Os misses the L1i clearly less than
    O2 (CROSS_MARGIN, CROSS_FLOOR), or why there is none."""
    counter = f'sim.{model}.l1i_misses'
    seen = False
    for fp in _footprints(data):
        a = _median(_entry(data, bench, fp, BASE), counter)
        b = _median(_entry(data, bench, fp, OTHER), counter)
        if a is None or b is None:
            continue
        seen = True
        if _clearly_fewer(b, a):
            return f'{fp} rules'
    return 'none in the sweep' if seen else 'n/a'


def _misses(data: dict[str, Any] | None, bench: str, fp: int, model: str,
            variants: list[str], kind: str = 'l1i_misses') -> str:
    vals = [_median(_entry(data, bench, fp, v), f'sim.{model}.{kind}')
            for v in variants]
    return ' / '.join('n/a' if v is None else f'{v:.2f}' for v in vals)


def _lead_model(data: dict[str, Any] | None) -> str | None:
    """The first model the run named (`--sim A,B`: A), else the first by
    name: the one whose uop-cache misses the workload sections explain."""
    models = _models(data)
    named = [m for m in ((data or {}).get('extra', {}).get('sim', {})
                         .get('models') or []) if m in models]
    return (named or models or [None])[0]


def uop_tally(data: dict[str, Any] | None, model: str) -> tuple[int, int, int]:
    """Over every (workload, sweep point) with both medians: the points
    where Os misses the uop cache clearly less than O2, clearly more, and
    neither (the crossover's margin and floor, applied both ways)."""
    counter = f'sim.{model}.uop_misses'
    fewer = more = same = 0
    for b in _benches(data):
        for fp in _footprints(data):
            a = _median(_entry(data, b, fp, BASE), counter)
            o = _median(_entry(data, b, fp, OTHER), counter)
            if a is None or o is None:
                continue
            if _clearly_fewer(o, a):
                fewer += 1
            elif _clearly_fewer(a, o):
                more += 1
            else:
                same += 1
    return fewer, more, same


def _said_of(models: list[str]) -> str:
    return models[0] if len(models) == 1 else \
        ', '.join(models[:-1]) + ' and ' + models[-1]


def _sweep_tables(data: dict[str, Any] | None, benches: list[str],
                  models: list[str], variants: list[str], kind: str,
                  what: str) -> list[str]:
    """One table of `kind` per operation per model over the sweep; models
    whose tables are the same (the L1i: one geometry, policy and prefetch
    in every preset) share one, and say so."""
    fps = _footprints(data)
    # grouped by the exact medians, not by the two decimals printed
    tables: dict[tuple, list[str]] = {}
    for m in models:
        exact = tuple(_median(_entry(data, b, fp, v), f'sim.{m}.{kind}')
                      for b in benches for fp in fps for v in variants)
        tables.setdefault(exact, []).append(m)
    out = []
    for names in tables.values():
        same = (' (the same figures under each)' if len(names) > 1 else '')
        out += [f'{what} per operation, {_said_of(names)}{same}, '
                f'{" / ".join(variants)}:', '']
        out += _table(['workload', *(f'@{fp}' for fp in fps)],
                      [[b, *(_misses(data, b, fp, names[0], variants, kind)
                             for fp in fps)] for b in benches])
    return out


def _prefetch_note(models: list[str]) -> list[str]:
    """What a MODEL@noprefetch column is, where the run has one."""
    off = [m for m in models if m.endswith('@' + sim.NO_PREFETCH)]
    if not off:
        return []
    return [f'{_said_of(off)}: the same model without its next-line '
            'prefetch, the one rule of the simulator that moves the L1i figures '
            'once the hot code outgrows the L1i (a line is prefetched only if the '
            'code before it in memory ran just before it, so the misses also '
            'measure whether the hot path is laid out in the order it runs; '
            'docs/hybrid.md, "At 128 filter rules"). The crossover is where it is '
            'with the prefetch or without it only if both columns agree.', '']


def _table(headers: list[str], rows: list[list[str]]) -> list[str]:
    out = ['| ' + ' | '.join(headers) + ' |', '|' + '---|' * len(headers)]
    out += ['| ' + ' | '.join(r) + ' |' for r in rows]
    return out + ['']


def _explain(data: dict[str, Any] | None, bench: str, fp: int | None, counter: str,
             elves: tuple[Path | None, Path | None]) -> tuple[list[str], list[str]]:
    """(the rendered explain table, the pattern lines of its functions)."""
    if data is None:
        return [], []
    try:
        total, funcs = explain.differences(data, bench, (BASE, OTHER), counter, fp)
    except explain.ExplainError as exc:
        return [f'(not available: {exc})'], []
    explain.annotate(funcs, elves, (BASE, OTHER), TOP)
    text = explain.render(bench, (BASE, OTHER), counter, total, funcs, TOP)
    return text.splitlines(), summarise(funcs[:TOP])


def summarise(funcs: list[explain.FunctionDiff]) -> list[str]:
    """The patterns of the listed functions, grouped: which pattern one
    variant's copies have more of, in which functions; and the functions
    that run as their own code in one variant only (inlined into their
    callers, or not called, in the other)."""
    groups: dict[tuple[str, str], list[str]] = {}
    for f in funcs:
        for line in f.excerpt:
            if line.startswith(' ') or ' instructions in ' in line or '; in ' not in line:
                continue
            name = line.split(':', 1)[0]
            more = line.rsplit('; in ', 1)[1].rstrip(':')
            groups.setdefault((name, more), []).append(f.name)
    out = [f'more `{name}` in {more}: {", ".join(names)}'
           for (name, more), names in groups.items()]
    for variant, pick in ((BASE, lambda f: f.a > 0 and f.b == 0),
                          (OTHER, lambda f: f.b > 0 and f.a == 0)):
        alone = [f for f in funcs if pick(f) and f.name != '(other)' and f.unknown is None]
        if alone:
            out.append(f'own code only in {variant} (inlined or not called in the other): '
                       + ', '.join(f'{f.name} ({max(f.a, f.b):,.0f} per run)' for f in alone))
    return out


def _why(inp: Inputs, bench: str) -> tuple[list[str], list[str]]:
    """The workload's section, and the grouped patterns of its host
    (else simulated) explanation for the summary."""
    out = [f'### {bench}', '']
    key: list[str] = []
    host_elves = (inp.host_programs.get(BASE), inp.host_programs.get(OTHER))
    fp0 = 0 if _entry(inp.host, bench, 0, BASE) else None
    out.append(f'Real CPU, Os/O2 time per operation at footprint 0: '
               f'{time_ratio(inp.host, bench, fp0)} (below 1: Os faster).')
    out.append('')
    for title, data, counter, elves, path in (
            ('Callgrind on the host program (user space, exact counts)', inp.counts,
             'vg.instructions', host_elves, inp.counts_path),
            ('Simulator, kernel context', inp.sim, 'sim.instructions',
             (inp.kernel, inp.kernel), inp.sim_path)):
        if data is None:
            continue
        first = _entry(data, bench, 0, BASE)
        fp = first.get('footprint') if first else None
        text, patterns = _explain(data, bench, fp, counter, elves)
        if not text:
            continue
        at = '' if fp is None else f' --footprint {fp}'
        out += [f'{title}: `./kfront explain {path} --bench {bench} '
                f'--counter {counter}{at}`', '', '```', *text, '```', '']
        key = key or patterns
        if patterns:
            out += ['What differs in those functions:', '']
            out += [f'- {p}' for p in patterns] + ['']
        if counter == 'vg.instructions' and any('rep movs' in p for p in patterns):
            out += [REP_NOTE, '']
    models = _models(inp.sim)
    fps = _footprints(inp.sim)
    if models and len(fps) > 1:
        big = fps[-1]
        model = models[0]
        counter = f'sim.{model}.l1i_misses'
        text, patterns = _explain(inp.sim, bench, big, counter, (inp.kernel, inp.kernel))
        if text and not text[0].startswith('(not'):
            out += [f'L1i misses at footprint {big} ({model}): `./kfront explain '
                    f'{inp.sim_path} --bench {bench} --counter {counter} '
                    f'--footprint {big}`', '', '```', *text, '```', '']
    lead = _lead_model(inp.sim)
    first = _entry(inp.sim, bench, 0, BASE)
    counter = f'sim.{lead}.uop_misses'
    if lead and first and counter in first.get('counters', {}):
        fp = first.get('footprint')
        text, _ = _explain(inp.sim, bench, fp, counter, (inp.kernel, inp.kernel))
        at = '' if fp is None else f' --footprint {fp}'
        if text and not text[0].startswith('(not'):
            out += [f'Uop-cache misses at footprint 0 ({lead}): `./kfront '
                    f'explain {inp.sim_path} --bench {bench} --counter '
                    f'{counter}{at}`', '', '```', *text, '```', '']
    return out, key


REP_NOTE = ("Callgrind counts every iteration of a rep-prefixed instruction as "
            "one instruction, so a `rep movsb` copy counts once per byte: here "
            "instruction counts overstate the work of the variant with `rep movs`, "
            "and the real-CPU time decides (fast short `rep movs` on CPUs with the "
            "ERMS/FSRM flags).")

BACKEND = """\
## What the simulator cannot see

fesim models the front end only: instruction fetch, the L1i, the uop
cache and the iTLB. Three causes that decide timings on a real CPU are
back-end effects it cannot count, and the host harness has no PMU on this
machine (a VM without one), so the study names them and the events that
would settle them on bare metal (`./kfront run` on a box with a PMU, or
`perf stat -e` on the host program):

| effect | where it shows here | Intel (Skylake event/umask) | AMD Zen 3/4 |
|---|---|---|---|
| `rep movs` start-up and fast-string microcode | Os's in-line `rep movsb`/`rep movsl` copies | microcode uops IDQ.MS_UOPS 0x79/0x30 | ops from microcode (no public per-event split; use ex_ret_ops 0xC1 against instructions) |
| divide latency | Os's `div` by a constant where O2 multiplies | ARITH.DIVIDER_ACTIVE 0x14/0x01 | ex_div_busy 0xD3, ex_div_count 0xD4 |
| store forwarding blocked | a `rep movs` copy read back at once with narrower loads | LD_BLOCKS.STORE_FORWARD 0x03/0x02 | ls_stlf 0x35 (forwarded loads) |
| front end as a whole | every workload | FRONTEND_RETIRED.* 0xC6/0x01 with MSR 0x3F7, IDQ.DSB_UOPS 0x79/0x08, IDQ.MITE_UOPS 0x79/0x04 | op_cache_hit_miss 0x28F, ic_tag_hit_miss 0x18E |

The event codes come from Intel's SDM and perfmon tables and Linux's
tools/perf/pmu-events (docs/measurement.md lists the ones kfront programs).
"""


def _uop_section(data: dict[str, Any] | None, benches: list[str],
                 models: list[str], variants: list[str]) -> list[str]:
    """Where the models differ: the uop cache (the decoded-uop cache the
    2013 case for -Os rested on)."""
    have = [m for m in models
            if any(f'sim.{m}.uop_misses' in e.get('counters', {})
                   for e in _entries(data))]
    if not have:
        return []
    out = ['## The uop cache per model', '',
           'A uop-cache miss is a look-up of a window\'s entry that is not '
           'cached, so its instructions go through the legacy decoders. The '
           'presets differ here, not in the L1i (they share one): each has its '
           'own uop-cache size and layout (docs/fesim.md, "Presets"; the placement rules '
           'are Intel\'s published ones for skylake, with the JCC erratum '
           'on, and skylake-nojcc, without it; an assumption for the '
           'others). Compared as the crossover '
           f'is (by more than {CROSS_MARGIN:.0%}, at least {CROSS_FLOOR} '
           'misses per operation), over every workload and sweep point:', '']
    rows = []
    for m in have:
        fewer, more, same = uop_tally(data, m)
        rows.append([m, str(fewer), str(more), str(same)])
    out += _table(['model', 'Os misses clearly less than O2',
                   'Os misses clearly more', 'within the margin'], rows)
    out += _sweep_tables(data, benches, have, variants, 'uop_misses',
                         'Simulated uop-cache misses')
    return out + _share_tables(data, benches, have, variants)


def _share(data: dict[str, Any] | None, bench: str, fp: int, model: str,
           variant: str) -> str:
    """The uop cache's share of the uops delivered (tools/kfront/uopshare.py)."""
    e = _entry(data, bench, fp, variant)
    dsb = _median(e, f'sim.{model}.{uopshare.DSB}')
    mite = _median(e, f'sim.{model}.{uopshare.MITE}')
    if dsb is None or mite is None:
        return 'n/a'
    share = uopshare.share_of(dsb, mite)
    return '-' if share is None else uopshare.percent(share)


def _share_tables(data: dict[str, Any] | None, benches: list[str],
                  models: list[str], variants: list[str]) -> list[str]:
    """Per model, the uop cache's share of the delivered uops over the
    sweep: a study whose simulator output has the uops by source (since
    2026-12-07) gets them; one from before does not."""
    fps = _footprints(data)
    have = [m for m in models
            if any(f'sim.{m}.{uopshare.DSB}' in e.get('counters', {})
                   for e in _entries(data))]
    if not have:
        return []
    out = ['The same misses as the share of the delivered uops that came from '
           f'the uop cache, {uopshare.FORMULA} of the medians per operation '
           '(docs/output.md, "Uop-cache share"): a small count of misses '
           'then reads as what it is. ' + ' / '.join(variants) + ':', '']
    for m in have:
        out += [f'Uop-cache share, {m}:', '']
        out += _table(['workload', *(f'@{fp}' for fp in fps)],
                      [[b, *(' / '.join(_share(data, b, fp, m, v) for v in variants)
                             for fp in fps)] for b in benches])
    return out


def render(inp: Inputs) -> str:
    """docs/findings.md."""
    benches = _benches(inp.host, inp.counts, inp.sim)
    src = inp.host or inp.sim or {}
    machine = src.get('machine', {}) if inp.host else {}
    out = ['<!-- SPDX-License-Identifier: GPL-2.0-or-later -->',
           '# Findings: what -O2 and -Os do to the hot paths',
           '',
           'Generated by `./kfront study`; do not edit by hand (edit tools/kfront/study.py).',
           f'Sources: simulator run of commit {(inp.sim or {}).get("git", "n/a")}, '
           f'host run of commit {(inp.host or {}).get("git", "n/a")}.',
           *([f'Variant table: `{inp.variants_file}` (not bench/variants.ini).']
             if inp.variants_file else []),
           '']
    out += ['## How to reproduce', '', '```', *inp.commands, '```', '']
    if machine:
        brand = str(machine.get('brand', '')).strip() or 'unknown'
        pmu = machine.get('pmu', {})
        out += ['## The machine', '',
                f'- CPU: {brand} (vendor {machine.get("vendor")}, family '
                f'{machine.get("family")}, model {machine.get("model")}); '
                f'hypervisor: {str(machine.get("hypervisor") or "none").strip()}',
                f'- PMU: {"available" if pmu.get("available") else "unavailable: " + str(pmu.get("reason"))}',
                '- Fast string copies (CPUID): ' + (', '.join(
                    f for f in machine.get('features', []) if f in ('erms', 'fsrm', 'fsrs'))
                    or ('neither ERMS nor FSRM' if 'features' in machine
                        else 'not recorded by this host run')),
                '- Real-CPU figures are TSC per operation of the host harness (user '
                'space, variants interleaved, median over runs, 95% bootstrap interval; '
                '`*`: significant after Holm). Simulated figures are exact counts in '
                'kernel context. TCG time of the kernel is not used: it measures QEMU.',
                '']
    out += ['## The question in one table (footprint 0)', '',
            'Footprints are sweep points of `footprint=`: packet-filter rules run per '
            'packet, each rule its own generated code (kernel/params.c), so a larger '
            'point puts more distinct code on the hot path; `@64` is 64 rules. The '
            'scheduler workloads have no sweep.', '']
    models = _models(inp.sim)
    m0 = models[0] if models else None
    # the same model's uop-cache share, where the simulator's output has the
    # uops by source (a study from before has no such column)
    share_m = m0 if m0 and any(f'sim.{m0}.{uopshare.DSB}' in e.get('counters', {})
                               for e in _entries(inp.sim)) else None
    # the second timing run against the first, once for the paragraph and
    # the per-footprint table's marks (compare bootstraps every row)
    again_cmp, again_problem = _timed_again(inp)
    rows, again = [], []
    for b in benches:
        fp_h = 0 if _entry(inp.host, b, 0, BASE) else None
        fp_s = 0 if _entry(inp.sim, b, 0, BASE) else None
        again.append(time_ratio(inp.host_again, b, fp_h))
        rows.append([b, time_ratio(inp.host, b, fp_h),
                     _ratio(inp.counts, b, fp_h, 'vg.instructions'),
                     _ratio(inp.sim, b, fp_s, 'sim.instructions'),
                     _misses(inp.sim, b, fp_s or 0, m0, [BASE, OTHER]) if m0 else 'n/a']
                    + ([' / '.join(_share(inp.sim, b, fp_s or 0, share_m, v)
                                   for v in (BASE, OTHER))] if share_m else []))
    out += _table(['workload', 'real CPU time Os/O2 [95% CI]',
                   *(['the same, timed again'] if inp.host_again else []),
                   'callgrind instructions Os/O2', 'sim instructions Os/O2',
                   f'sim L1i misses/op O2 / Os ({m0 or "no model"})']
                  + ([f'sim uop-cache share O2 / Os ({share_m})'] if share_m else []),
                  [r[:2] + [a] + r[2:] for r, a in zip(rows, again)]
                  if inp.host_again else rows)
    host_ratios = [float(r.split()[0]) for r in (row[1] for row in rows) if r != 'n/a']
    g = stats.geomean(host_ratios)
    if inp.host is not None:
        out += [f'![Os/O2 time per operation on the real CPU]({inp.chart})', '']
    g_again = stats.geomean([float(r.split()[0]) for r in again if r != 'n/a'])
    if g is not None:
        out += [f'Geometric mean of the real-CPU Os/O2 time ratios over these '
                f'{len(host_ratios)} workloads: {g:.3f}'
                + (f' (timed again: {g_again:.3f})' if inp.host_again and g_again else '')
                + '.', '']
    out += repeat_lines(inp, again_cmp, again_problem)
    out += [_helpers_note(inp), '']
    if inp.helpers:
        out += [f'The two helpers alone, from this study\'s host objects, on the same '
                f'machine right after the runs (`{inp.helpers_command}`):', '',
                '```', *inp.helpers.rstrip().splitlines(), '```', '']
    if models and len(_footprints(inp.sim)) > 1:
        variants = sorted({e['variant'] for e in _entries(inp.sim)},
                          key=lambda v: (v not in (BASE, OTHER), v != BASE, v))
        out += ['## The I-cache crossover per model', '',
                'The smallest sweep point at which Os misses the L1i clearly less '
                f'than O2 (by more than {CROSS_MARGIN:.0%} and at least '
                f'{CROSS_FLOOR} misses per operation), per simulated model:', '']
        out += _table(['workload', *models],
                      [[b, *(crossover(inp.sim, b, m) for m in models)] for b in benches])
        out += _prefetch_note(models)
        out += _sweep_tables(inp.sim, benches, models, variants,
                             'l1i_misses', 'Simulated L1i misses')
        hfps = _footprints(inp.host)
        if len(hfps) > 1:
            moved = _moved(again_cmp)
            out += ['Real-CPU time Os/O2 per footprint (below 1: Os faster). The '
                    'intervals are those of this one run: on a shared virtual machine '
                    'a run at another time can move a point by more than its interval '
                    '(docs/statistics.md, "Between runs"), so read one point as this '
                    'run\'s, and the pattern over points and workloads as the result'
                    + ('; `!`: Os\'s verdict against O2 there is not the same in the '
                       'second timing run' if inp.host_again else '') + ':',
                    '']
            out += _table(['workload', *(f'@{fp}' for fp in hfps)],
                          [[b, *(time_ratio(inp.host, b, fp)
                                 + (' !' if (b, fp or 0) in moved else '') for fp in hfps)]
                           for b in benches])
        out += _uop_section(inp.sim, benches, models, variants)
    whys = {b: _why(inp, b) for b in benches}
    out += ['## In short', '',
            'Per workload: the real-CPU ratio, then what differs in the functions that '
            'account for most of the instruction difference (details below).', '']
    for b, row in zip(benches, rows):
        out.append(f'- **{b}**: time Os/O2 {row[1]}; instructions Os/O2 {row[2]} '
                   f'(callgrind), {row[3]} (sim). ' + '; '.join(whys[b][1]))
    out += ['', '## Why, per workload', '',
            'For each workload, the functions that account for most of the '
            'difference between O2 and Os (difference Os - O2 per counted run; '
            'share of the total; each function\'s size in both variants) and '
            'the instruction patterns one copy has and the other lacks.', '']
    for b in benches:
        out += whys[b][0]
    out += [BACKEND]
    return '\n'.join(out).rstrip() + '\n'


# What the stream rows' time is made of, said beside the table every
# reader takes the answer from (docs/hybrid.md, "The copy loop").
COPY_LOOP = (
    'Measured on a Zen 5 (docs/hybrid.md, "The copy loop"; this study\'s CPU is '
    'named under "The machine"), copying decides the stream '
    'workloads\' O2/Os difference: each variant '
    'compiles lib/string.c\'s `memcpy`, an 8-byte loop that O2 calls, where Os '
    'copies with an in-line `rep movsb`. Linux\'s x86-64 `memcpy` is assembly, the '
    'same under every `-O` level, so the stream rows overstate what Os gains against '
    'O2 in a real kernel: O2 with Os\'s copies runs them as fast as Os '
    '(docs/hybrid.md, "The copy loop"), and built with Linux-style assembly helpers '
    '(`./kfront run --variants-file bench/variants-asm-string.ini`) O2 runs them '
    'faster than Os (docs/hybrid.md, "Linux\'s string helpers"; this study on that '
    'table: docs/findings-variants-asm-string.md).')


# The copy-loop note's counterpart for a table whose O2 and Os take
# Linux-style assembly string helpers (bench/variants-asm-string.ini).
ASM_HELPERS = (
    'These variants take `memcpy` and `memset` from arch/x86/string_asm.c, '
    'Linux-style assembly, the same instructions in every variant, instead of '
    'compiling lib/string.c\'s loops; what stays the compiler\'s is which copies it '
    'expands in line (docs/hybrid.md, "Linux\'s string helpers").')


def _helpers_note(inp: Inputs) -> str:
    """COPY_LOOP, or for a study whose O2 and Os take Linux-style helpers
    ASM_HELPERS and which body each run ran, from its machine record (the
    same words as the run's own report)."""
    runs = [(label, doc) for label, doc in (('the host harness', inp.host),
                                            ('the simulated kernel', inp.sim)) if doc]
    names = stringhelpers.asm_variants(runs[0][1].get('variants', [])) if runs else []
    if BASE not in names or OTHER not in names:
        return COPY_LOOP
    said = '; '.join(f'{"In" if i == 0 else "in"} {label} '
                     f'{stringhelpers.bodies(doc.get("machine") or {})}'
                     for i, (label, doc) in enumerate(runs))
    return f'{ASM_HELPERS} {said}.'


def ratio_chart(host: dict[str, Any] | None) -> str | None:
    """docs/findings/time-ratio.svg: real-CPU Os/O2 time per workload with
    its interval (below 1: Os faster), or None without host figures."""
    bars = []
    for i, b in enumerate(_benches(host)):
        fp = 0 if _entry(host, b, 0, BASE) else None
        e = _entry(host, b, fp, OTHER)
        r = (e or {}).get('counters', {}).get('tsc', {}).get('ratio') or {}
        if r.get('value') is None:
            continue
        bars.append(svg.Bar(b, r['value'], r.get('lo'), r.get('hi'),
                            f'{r["value"]:.2f}', svg.colour(0 if r['value'] < 1 else 1)))
    if not bars:
        return None
    title = 'Os/O2 time per operation on the real CPU (below 1: Os faster)'
    chart = svg.bar_chart(title, [svg.Panel(
        title, bars, 'Os / O2 (median TSC per operation, 95% interval)')])
    return None if chart is None else chart.render(standalone=True)
