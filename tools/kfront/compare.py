# SPDX-License-Identifier: GPL-2.0-or-later
"""Two results.json side by side: two machines, two compilers, before/after.

For every (benchmark, footprint, variant, group, counter) present in both,
B's median per operation is divided by A's, with a 95% bootstrap interval
over runs (independent resampling: the two sets of runs are unrelated), and
each side's own ratio to its baseline variant is shown next to it. Counters
measured on one side only are listed with the other side's reason.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

from . import regions, repeats, stats, truthreport, verdict
from .model import Result, Results
from .report import interval_text, per_op_text
from .report_doc import Cell
from .report_render import RED, RESET, text_table
from .results import counter_label


@dataclass(frozen=True)
class Row:
    """One counter of one result, in A and in B."""

    bench: str
    variant: str
    group: Any
    counter: str
    a: Result                   # A's result entry
    b: Result                   # B's result entry
    ratio: stats.Interval | None
    ratio_value: float | None
    p: float | None = None          # bootstrap p-value of B/A = 1
    p_holm: float | None = None     # Holm-corrected over the counter's rows
    # each side's verdict against its own baseline at the point, by the
    # verdict's rule (verdict.outcome()); None for the baseline itself
    a_verdict: str | None = None
    b_verdict: str | None = None

    @property
    def significant(self) -> bool:
        return (self.ratio is not None and self.ratio.excludes_one
                and self.p_holm is not None
                and self.p_holm < 1 - stats.DEFAULT_CONFIDENCE)

    @property
    def digest_differs(self) -> bool:
        return self.a.digest != self.b.digest

    @property
    def every_run_same(self) -> bool:
        """A and B each gave one value in every run (simulated counts)."""
        return stats.every_run_same(self.a.counters[self.counter].samples,
                                    self.b.counters[self.counter].samples)


@dataclass
class Comparison:
    rows: list[Row]
    only_a: list[str]
    only_b: list[str]
    notes: list[str]
    # counters that time the emulator in A or B (a TCG guest's TSC,
    # truthreport.emulator_counters()): no ratios to the baseline shown
    emulator: set[str] = dataclasses.field(default_factory=set)
    # real-CPU time in both: how far the time ratios to the baseline moved
    # from A to B against how far A's intervals say they would
    # (repeats.moves(), A as the first process)
    moves: dict[str, Any] | None = None


def _key(e: Result) -> tuple[Any, ...]:
    return (e.bench, e.footprint, e.variant, e.group, e.state)


def _ratio(a: Result, b: Result, counter: str
           ) -> tuple[stats.Interval | None, float | None, float | None]:
    """B/A with its interval and bootstrap p-value (independent runs)."""
    ca, cb = a.counters[counter], b.counters[counter]
    ma, mb = ca.per_op.median, cb.per_op.median
    if not ma:
        return None, None, None
    iv, p = None, None
    if ca.samples and cb.samples:
        test = stats.per_op(cb.samples, b.iters)
        base = stats.per_op(ca.samples, a.iters)
        seed = stats.seed_for("compare", *_key(a), counter)
        iv, p = stats.bootstrap_ratio(test, base, seed=seed, paired=False)
    return iv, mb / ma, p


def _holm_rows(rows: list[Row]) -> list[Row]:
    """Rows with p_holm: Holm's correction over all rows of one counter."""
    adjusted: dict[int, float] = {}
    for counter in {r.counter for r in rows}:
        idx = [i for i, r in enumerate(rows)
               if r.counter == counter and r.p is not None]
        for i, adj in zip(idx, stats.holm([rows[i].p for i in idx])):
            adjusted[i] = adj
    return [dataclasses.replace(r, p_holm=adjusted.get(i))
            for i, r in enumerate(rows)]


def _point(e: Result) -> tuple[Any, ...]:
    """The benchmark point a result belongs to: its variants' runs
    interleave in one stretch of the boot."""
    return (e.bench, e.footprint, e.state)


def _points_before(r: Results) -> dict[tuple[Any, ...], tuple[Any, ...]]:
    """Each benchmark point with the points the boot ran before it."""
    order: list[tuple[Any, ...]] = []
    for e in r.results:
        if _point(e) not in order:
            order.append(_point(e))
    return {p: tuple(order[:i]) for i, p in enumerate(order)}


def _points_start_empty(r: Results) -> bool:
    """Whether the simulator emptied its caches at the start of every
    benchmark point of r (the harness's flush marker, obeyed: fesim's
    header counts the flushes)."""
    sim = r.extra.get("sim")
    header = sim.get("header") if isinstance(sim, dict) else None
    return (isinstance(header, dict) and header.get("flush") is True
            and bool(header.get("flushes")))


def _history_note(a: Results, b: Results, rows: list[Row]) -> str | None:
    """A simulated cache keeps some of what ran before a benchmark through
    its warm-up call (docs/fesim.md, "Markers": up to 2.5 % of sched.pipe's
    skylake uop misses), so sim.* figures of one benchmark in two boots that
    ran different benchmarks or variants before or beside it can differ
    with the same code. A simulator that empties its caches at the start of
    every point (both boots) removes the first cause, not the second: the
    variants of a point run interleaved."""
    before_a, before_b = _points_before(a), _points_before(b)
    same_variants = sorted(a.variant_names()) == sorted(b.variant_names())
    same_before = _points_start_empty(a) and _points_start_empty(b)
    labels = sorted({r.a.label for r in rows if r.counter.startswith("sim.")
                     and (not same_variants or (not same_before and
                          before_a.get(_point(r.a)) != before_b.get(_point(r.a))))})
    if not labels:
        return None
    why = ("the boots ran other variants beside them" if not same_variants
           else "the boots ran other benchmarks before them")
    return (f"sim.* figures of {len(labels)} benchmark point(s) "
            f"({', '.join(labels[:3])}{', ...' if len(labels) > 3 else ''}) "
            f"can differ without a change in their code: {why}, and a "
            "simulated cache keeps some of that history through the warm-up "
            "call (docs/fesim.md)")


def _misses_of(r: Results, tool: str) -> str | None:
    """What r's miss counters of one tool (extra.sim, extra.valgrind)
    count; a run of that tool written before misses_of counted the whole
    region."""
    extra = r.extra.get(tool)
    if not isinstance(extra, dict):
        return None
    return str(extra.get("misses_of") or "whole region (written before misses_of)")


def _rebuilt_variants(a: Results, b: Results) -> list[str]:
    """Variants of the same name built with another compiler or other
    flags in A and B (say bench/variants.ini against
    bench/variants-asm-string.ini)."""
    build_a = {v.get("name"): (v.get("cc"), v.get("flags")) for v in a.variants}
    return [str(v.get("name")) for v in b.variants
            if v.get("name") in build_a and build_a[v.get("name")] != (v.get("cc"), v.get("flags"))]


def _notes(a: Results, b: Results) -> list[str]:
    notes = []
    for tool, what in (("sim", "simulated"), ("valgrind", "callgrind's")):
        ma, mb = _misses_of(a, tool), _misses_of(b, tool)
        measured = regions.MISSES_MEASURED
        if ma and mb and (ma == measured) != (mb == measured):
            notes.append(f"{what} miss counters count other code: A {ma}, B {mb}; "
                         "a few misses a run of difference come from that, not from "
                         "the measured code (docs/fesim.md, \"Misses of the measured "
                         "code\")")
    for side, other, name in ((a, b, "A"), (b, a, "B")):
        una = side.counters.unavailable
        measured = set(other.counters.measured)
        for counter in sorted(measured & set(una)):
            notes.append(f"{counter} is unavailable in {name}: "
                         f"{una[counter]}")
    rebuilt = _rebuilt_variants(a, b)
    if rebuilt:
        notes.append(f"compiler or flags differ for {', '.join(rebuilt)} (the "
                     "A = and B = lines give both): their rows compare two builds of the "
                     "code, not one build on two runs")
    if a.context != b.context:
        notes.append(f"context differs: A {a.context}, B {b.context}")
    if a.baseline != b.baseline:
        notes.append(f"baseline differs: A {a.baseline}, B {b.baseline}")
    for side, name in ((a, "A"), (b, "B")):
        if not side.complete:
            notes.append(f"{name} is incomplete: see its problems list")
    return notes


def _own_verdict(side: Results, by_key: dict[tuple[Any, ...], Result], e: Result,
                 counter: str, judged: set[str],
                 unstable: dict[tuple[str, int, str], Any]) -> str | None:
    """The side's own verdict on e against its baseline variant at the
    same point (verdict.outcome(): the rule of that run's verdict and
    tallies, its Holm correction over that run's ratios); None for the
    baseline itself, where the point has no baseline result, or for a
    counter the run's verdict does not judge (`judged`,
    verdict.judged_counters(): never a TCG guest's TSC, which is emulator
    time); "not robust" or "not repeated" where the run's verdict counts
    the variant apart (`unstable`, truthreport.counted_apart())."""
    baseline = side.baseline or "O2"
    base = by_key.get((e.bench, e.footprint, baseline, e.group, e.state))
    if e.variant == baseline or base is None or counter not in base.counters \
            or counter not in judged:
        return None
    pairs = unstable.get((e.bench, e.footprint or 0, counter), ())
    if pairs is None or any(e.variant in pr and baseline in pr for pr in pairs):
        # the run's own verdict counts it apart: not robust across the
        # simulator's policies, or not repeated by its timing processes
        return verdict.unstable(counter)[1]
    return verdict.outcome(e, base, counter)


def verdict_agreement(cmp: Comparison) -> dict[str, dict[str, Any]]:
    """Per counter: how many rows' verdicts against the baseline agree
    between A and B (with the counts of each verdict), and the rows where
    they differ: a win or loss in one run and a tie or a point counted
    apart (not robust, not repeated) in the other ("differ"), or a win in
    one and a loss in the other ("reversed")."""
    out: dict[str, dict[str, Any]] = {}
    for r in cmp.rows:
        if r.a_verdict is None or r.b_verdict is None:
            continue
        c = out.setdefault(r.counter, {"rows": 0, "agree": {}, "differ": [],
                                        "reversed": []})
        c["rows"] += 1
        if r.a_verdict == r.b_verdict:
            c["agree"][r.a_verdict] = c["agree"].get(r.a_verdict, 0) + 1
        elif {r.a_verdict, r.b_verdict} == {verdict.WIN, verdict.LOSS}:
            c["reversed"].append(r)
        else:       # a win or loss against a tie, or a point counted apart
            c["differ"].append(r)
    return out


def compare(a: Results, b: Results) -> Comparison:
    """Match the results of A and B and compute B/A for each counter."""
    ia = {_key(e): e for e in a.results}
    ib = {_key(e): e for e in b.results}
    rows = []
    judged_a, judged_b = verdict.judged_counters(a), verdict.judged_counters(b)
    unstable_a, unstable_b = truthreport.counted_apart(a), truthreport.counted_apart(b)
    for key, ea in ia.items():
        eb = ib.get(key)
        if eb is None:
            continue
        for counter in ea.counters:
            if counter not in eb.counters:
                continue
            iv, value, p = _ratio(ea, eb, counter)
            rows.append(Row(ea.bench, ea.variant, ea.group,
                            counter, ea, eb, iv, value, p,
                            a_verdict=_own_verdict(a, ia, ea, counter, judged_a,
                                                   unstable_a),
                            b_verdict=_own_verdict(b, ib, eb, counter, judged_b,
                                                   unstable_b)))
    rows = _holm_rows(rows)
    history = _history_note(a, b, rows)

    def label(e: Result) -> str:
        return f"{e.label} {e.variant}"

    emulator = truthreport.emulator_counters(a) | truthreport.emulator_counters(b)
    notes = _notes(a, b) + ([history] if history else [])
    if emulator:
        notes.append("TSC (emulator time) is a TCG guest's TSC: it times QEMU's "
                     "translated code, not a CPU, so no ratio to the baseline or verdict "
                     "is given for it; B/A compares the emulator's speed between the runs")
    moves = repeats.moves([a, b]) if "tsc" in judged_a & judged_b else None
    return Comparison(rows, [label(e) for k, e in ia.items() if k not in ib],
                      [label(e) for k, e in ib.items() if k not in ia],
                      notes, emulator, moves)


def _side(results: Results) -> str:
    m = results.machine
    vs = ", ".join(f"{v.get('name')}: {v.get('cc', '?')} {v.get('flags', '')}"
                   .strip() for v in results.variants)
    return (f"{results.source or '?'}: {m.get('brand', '?')}, "
            f"{results.context}, git {results.git}; {vs}")


def _own_ratio(entry: Result, counter: str) -> str:
    r = entry.counters[counter].ratio
    if r is None:
        return "-"
    if r.lo is None:
        return stats.format_supported(r.value, r.value * 0.01)
    iv = stats.Interval(r.value, r.lo, r.hi, 0.95, 0, "")
    return stats.format_interval(iv)[0]


def _per_op(entry: Result, counter: str) -> str:
    return per_op_text(entry, entry.counters[counter])[0]


HEADERS = ["benchmark", "variant", "counter", "A/op", "B/op",
           "B/A [95% CI]", "A vs base", "B vs base", "verdict A / B", "digest"]


def _verdict_cell(r: Row) -> Cell:
    if r.a_verdict is None or r.b_verdict is None:
        return Cell("-")
    text = f"{r.a_verdict} / {r.b_verdict}"
    if r.a_verdict == r.b_verdict:
        return Cell(text)
    return Cell(text + " !", "bad" if verdict.TIE not in (r.a_verdict, r.b_verdict)
                else "")


def table_rows(cmp: Comparison) -> list[list[Cell]]:
    rows = []
    for r in cmp.rows:
        if r.ratio is not None:
            ratio = Cell(interval_text(r.ratio, r.every_run_same) +
                         (" *" if r.significant else ""))
        elif r.ratio_value is not None:
            ratio = Cell(stats.format_supported(r.ratio_value,
                                                r.ratio_value * 0.01))
        else:
            ratio = Cell("n/a")
        digest = Cell("differs", "bad") if r.digest_differs else Cell("same")
        emulator = r.counter in cmp.emulator
        name = ("TSC (emulator time)" if emulator else "TSC") if r.counter == "tsc" \
            else r.counter
        rows.append([Cell(r.a.label), Cell(r.variant), Cell(name),
                     Cell(_per_op(r.a, r.counter), "num"),
                     Cell(_per_op(r.b, r.counter), "num"), ratio,
                     Cell("-" if emulator else _own_ratio(r.a, r.counter), "num"),
                     Cell("-" if emulator else _own_ratio(r.b, r.counter), "num"),
                     _verdict_cell(r), digest])
    return rows


def _row_name(r: Row) -> str:
    return f"{r.a.label} {r.variant} ({r.a_verdict} in A, {r.b_verdict} in B)"


def _outcome_order(k: str) -> tuple[int, str]:
    """Wins, losses, ties, then what a verdict counts apart."""
    return (verdict.OUTCOMES.index(k) if k in verdict.OUTCOMES else len(verdict.OUTCOMES), k)


def agreement_lines(cmp: Comparison) -> list[str]:
    """The verdicts against the baseline that hold in both runs, and those
    that do not, per counter."""
    out = []
    for counter, c in verdict_agreement(cmp).items():
        name = "TSC" if counter == "tsc" else counter
        agree = sum(c["agree"].values())
        kinds = ", ".join(f"{c['agree'][k]} {k}" if k not in verdict.OUTCOMES
                          else verdict.counted(c["agree"][k], k)
                          for k in sorted(c["agree"], key=_outcome_order))
        line = f"{name}: {agree} of {c['rows']} agree" + (f" ({kinds})" if kinds else "")
        for key, what in (("differ", "a win or loss in one run, a tie or a point "
                                     "counted apart in the other"),
                          ("reversed", "a win in one run, a loss in the other")):
            if c[key]:
                line += (f"; {len(c[key])} {key} ({what}): "
                         + ", ".join(_row_name(r) for r in c[key]))
        out.append(line)
    return out


def format_comparison(a: Results, b: Results, cmp: Comparison, color: bool) -> str:
    """The comparison as a terminal table (red only when color is True)."""
    out = [f"A = {_side(a)}", f"B = {_side(b)}", ""]
    if any(r.counter == "tsc" for r in cmp.rows):
        out.append(f"TSC = {counter_label('tsc')}")
    out.append("B/A: ratio of medians per operation, * = significant at the "
               "95% level after Holm's correction over the counter's rows; "
               "'vs base': each side's ratio to its baseline")
    out += text_table(HEADERS, table_rows(cmp), color)
    agreement = agreement_lines(cmp)
    if agreement:
        out += ["", "Verdicts against the baseline, each by its own run's rule (a win or "
                "loss needs the ratio's interval to exclude 1 after Holm's correction "
                "over that run's ratios; ! = the two runs differ):"]
        out += [f"  {line}" for line in agreement]
    if cmp.moves:
        moved = repeats.moves_text({"moves": cmp.moves, "baseline": a.baseline or "O2"},
                                   between="the runs", first="A's")
        out += ["", f"Real-CPU time: {moved}."]
    differs = [r for r in cmp.rows if r.digest_differs]
    if differs:
        seen = sorted({f"{r.a.label} {r.variant}" for r in differs})
        msg = ("Verification digests differ between A and B for: "
               + ", ".join(seen))
        out += ["", f"{RED}{msg}{RESET}" if color else msg]
    if cmp.only_a:
        out += ["", "Only in A: " + ", ".join(cmp.only_a)]
    if cmp.only_b:
        out += ["", "Only in B: " + ", ".join(cmp.only_b)]
    if cmp.notes:
        out += [""] + [f"Note: {n}" for n in cmp.notes]
    return "\n".join(out) + "\n"
