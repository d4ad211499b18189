# SPDX-License-Identifier: GPL-2.0-or-later
"""The parts of a report that follow the run's sources of truth
(tools/kfront/truth.py): the truth line, the primary table per workload
(simulated counts | real-CPU time from the host harness), ring-0 TSC of a
TCG guest as "emulator time" in a secondary table without ratios, and the
verdict block (tools/kfront/verdict.py).

report.py calls these; they return its document blocks so that the
terminal, report.md and report.html say the same thing.
"""
from __future__ import annotations

from typing import Any

from . import truth as truth_mod
from . import repeats, robustness, verdict
from .model import Result, Results
from .report import per_op_text, ratio_text
from .report_doc import Cell, Section, Table
from .results import counter_label

PRIMARY_TITLE = "Simulated counts | real-CPU time, per workload"
EMULATOR_TITLE = "Emulator time: ring-0 TSC ticks under QEMU TCG (secondary)"
EMULATOR_NOTE = ("TSC ticks of a TCG guest time QEMU's translated code, not a CPU front "
                 "end: they can rank variants upside down (docs/hybrid.md). No ratios "
                 "or significance marks are given; use the simulated counts and the "
                 "real-CPU time above.")
PRIMARY_NOTE = ("Simulated counts: the kernel's code in kernel context under the front-end "
                "simulator (deterministic). Real-CPU time: the same code built the same "
                "way, run in user space on this machine's CPU by the host harness, TSC "
                "ticks per operation. Ratios are to {base}; * = the 95% interval excludes "
                "1 after Holm's correction.")


def truth_of(results: Results) -> truth_mod.Truth | None:
    return truth_mod.from_results(results.truth)


def truth_line(results: Results) -> str | None:
    t = truth_of(results)
    return t.line if t else None


def emulator_counters(results: Results) -> set[str]:
    """Counters that measure the emulator, not a CPU: hidden from the main
    per-counter tables (they go to emulator_section)."""
    t = truth_of(results)
    if t is None or t.pmu or t.environment != "QEMU TCG" or results.context == "user":
        return set()
    return {"tsc"} & results.counter_names()


def _key(e: Result) -> tuple[str, int | None, str, str | None]:
    return (e.bench, e.footprint, e.variant, e.state)


def _cell(e: Result | None, counter: str, base: str) -> list[Cell]:
    c = e.counters.get(counter) if e else None
    if e is None or c is None:
        return [Cell("n/a"), Cell("n/a")]
    median, ci = per_op_text(e, c)
    return [Cell(f"{median} {ci}" if ci != "n/a" else median, "num"),
            ratio_text(c.ratio, e.variant == base)]


def primary_table(results: Results) -> Table | None:
    """Per workload and variant: simulated L1i and uop-cache misses and
    instructions | real-CPU time (host harness). None without either."""
    sims = verdict.sim_verdict_counters(results.counter_names())
    host = results.host
    host_by = {_key(e): e for e in host.results} if host else {}
    if not sims and not host_by:
        return None
    base = results.baseline or "O2"
    cols = sims + (["sim.instructions"] if "sim.instructions" in results.counter_names()
                   else [])
    headers = ["benchmark", "variant"]
    for c in cols:
        headers += [f"{counter_label(c)}/op [95% CI]", "ratio"]
    if host_by:
        headers += ["real-CPU TSC ticks/op, user space [95% CI]", "ratio"]
    rows = []
    entries = [e for e in results.results if e.state != "cold"] if cols else \
        [e for e in host.results] if host else []
    for e in entries:
        if cols and not any(c in e.counters for c in cols):
            continue
        row = [Cell(e.label), Cell(e.variant)]
        for c in cols:
            row += _cell(e, c, base)
        if host_by:
            row += _cell(host_by.get(_key(e)), "tsc", host.baseline or base if host else base)
        rows.append(row)
    return Table(headers, rows, PRIMARY_NOTE.format(base=base)) if rows else None


def emulator_table(results: Results) -> Table | None:
    if "tsc" not in emulator_counters(results):
        return None
    rows = []
    for e in results.results:
        c = e.counters.get("tsc")
        if c is None:
            continue
        median, ci = per_op_text(e, c)
        rows.append([Cell(e.label), Cell(e.variant), Cell(median, "num"), Cell(ci, "num")])
    return Table(["benchmark", "variant", "emulator TSC ticks/op", "95% CI"], rows,
                 EMULATOR_NOTE)


# Verdict lines per Results object: the terminal and the files show the
# same block, and its geometric-mean bootstrap is worth computing once.
_VERDICTS: dict[int, tuple[Results, list[str]]] = {}


def verdict_lines(results: Results,
                  not_robust: verdict.NotRobust | None = None) -> list[str]:
    cached = _VERDICTS.get(id(results))
    if cached is not None and cached[0] is results and not not_robust:
        return cached[1]
    lines = _verdict_lines(results, not_robust)
    if not not_robust:
        _VERDICTS[id(results)] = (results, lines)
    return lines


def counted_apart(results: Results) -> dict[tuple[str, int, str], Any]:
    """The points a document's own verdict counts apart, with the pairs of
    variants concerned: simulated rankings that flip between policy
    settings (robustness.py), real-CPU verdicts its timing processes did
    not repeat (repeats.py)."""
    flips: dict[tuple[str, int, str], Any] = dict(
        robustness.flipped({'extra': results.extra, 'results': []}))
    flips.update(repeats.flipped(results.extra))
    return flips


def _verdict_lines(results: Results,
                   not_robust: verdict.NotRobust | None) -> list[str]:
    if not_robust is None:
        # simulated rankings that flip between policy settings (stored by
        # kfront run --sim with MODEL@POLICY settings), and real-CPU
        # verdicts that differ between timing processes (kfront host
        # --repeat, alone or in a run): no winner there
        not_robust = counted_apart(results)
        if results.host is not None:
            not_robust.update(counted_apart(results.host))
    t = truth_of(results)
    if t is not None:
        sources = t.sources
    else:   # results without a truth key (collect, older runs): what they hold
        sources = ["pmu"] if (results.machine.get("pmu") or {}).get("available") else []
        sources += ["sim"] if any(n.startswith("sim.") for n in results.counter_names()) else []
        sources += ["host"] if results.host else []
    if results.context == "user" and "tsc" in results.counter_names():
        # a host-harness run on its own: its TSC is real-CPU time
        return verdict.render([verdict.verdict(results.results, "tsc",
                                               results.baseline or "O2",
                                               verdict.HOST_SOURCE, not_robust)])
    return verdict.render(verdict.verdicts(results, sources, not_robust))


def primary_sections(results: Results) -> list[Section]:
    """The primary table per workload and the verdict (first in a report)."""
    out = []
    primary = primary_table(results)
    if primary:
        out.append(Section(PRIMARY_TITLE, [primary]))
    lines = verdict_lines(results)
    if lines:
        out.append(Section(lines[0], [ln.strip() for ln in lines[1:]]))
    return out


def emulator_sections(results: Results) -> list[Section]:
    """Ring-0 TSC of a TCG guest, after every table that measures a CPU."""
    emu = emulator_table(results)
    return [Section(EMULATOR_TITLE, [emu])] if emu else []
