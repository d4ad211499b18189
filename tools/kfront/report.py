# SPDX-License-Identifier: GPL-2.0-or-later
"""Reports from results (the typed model of results.json, model.Results):
what they say. Markdown, one self-contained HTML file with inline SVG
charts, the charts as separate SVG files, and the terminal table.

All four are rendered (report_render.py) from one document model
(report_doc.py: sections of paragraphs, alerts, tables and charts) so they
say the same thing. Numbers are printed with the digits their uncertainty
supports (stats.format_supported), and counters the machine could not
measure are shown with the reason, never as zero.
"""

from __future__ import annotations

import collections
import dataclasses
import hashlib
import re
from pathlib import Path
from typing import Any

from . import repeats, stats, stringhelpers, svg, uopshare, why
from .model import Counter, Ratio, Result, Results, cost_counter
from .report_doc import Alert, Cell, Chart, Section, Table
from .report_render import RED, RESET, render_html, render_markdown, text_table
from .results import counter_label

SIM_MISSES_RE = re.compile(r"^sim\.(?:[A-Za-z0-9_-]+(?:@[a-z]+)?\.)?l1i_misses$")


def sim_miss_counters(entries: list[Result]) -> list[str]:
    """Simulated L1i miss counters present (one per simulated model)."""
    return sorted({c for e in entries for c in e.counters if SIM_MISSES_RE.match(c)})


# What an alert is about. The terminal colours an alert by its kind (only
# a possible miscompilation is red there), never by its wording.
ALERT_DIGEST = "digest_mismatch"
ALERT_LFENCE = "lfence"
ALERT_TSC = "tsc_not_invariant"
ALERT_TSC_CHECK = "tsc_check_differs"
ALERT_INCOMPLETE = "incomplete"
TERMINAL_RED_ALERTS = frozenset({ALERT_DIGEST})
# How far the kernel's second TSC calibration (machine.tsc.check) may
# differ from the first before it is reported: both read a counter between
# two TSC reads and agree within 0.003 % under QEMU on a loaded host
# (docs/bare-metal.md), so 1 % is a calibration gone wrong.
TSC_CHECK_TOLERANCE = 0.01


# -- formatting helpers ------------------------------------------------------

def per_op_text(entry: Result, counter: Counter) -> tuple[str, str]:
    """(median per op, its 95% interval) with supported digits."""
    po = counter.per_op
    res = 1.0 / entry.iters
    ci = po.ci
    unc = (ci[1] - ci[0]) / 2.0 if ci else 0.0
    if not ci and po.se:
        unc = 1.96 * po.se
    value = stats.format_supported(po.median, unc, res)
    if not ci:
        return value, "n/a"
    if stats.every_run_same(counter.samples):
        return value, f"({stats.EVERY_RUN_SAME})"
    lo = stats.format_supported(ci[0], unc, res)
    hi = stats.format_supported(ci[1], unc, res)
    return value, f"[{lo}, {hi}]"


def _autocorr_mark(counter: Counter) -> str:
    return " ~" if counter.per_op.autocorrelated else ""


def spread_text(counter: Counter) -> str:
    """MAD relative to the median, as a percentage (2 significant digits)."""
    po = counter.per_op
    if not po.median:
        return "n/a"
    rel = po.mad / abs(po.median)
    return "±" + stats.format_percent(rel)


def ratio_text(ratio: Ratio | None, is_base: bool) -> Cell:
    if is_base:
        return Cell("1 (baseline)")
    if ratio is None:
        return Cell("n/a")
    if ratio.lo is None:
        value = stats.format_supported(ratio.value, ratio.value * 0.01)
        return Cell(f"{value} (no interval)")
    sig = ratio.marked
    mark = " *" if sig else ""
    if ratio.unbounded or ratio.hi is None:
        v = stats.format_supported(ratio.value, ratio.value * 0.01)
        lo = stats.format_supported(ratio.lo, ratio.value * 0.01)
        return Cell(f"{v} [{lo}, unbounded){mark}", "sig" if sig else "")
    iv = stats.Interval(ratio.value, ratio.lo, ratio.hi,
                        ratio.confidence or 0.95, 0, "")
    return Cell(interval_text(iv, ratio.every_run_same) + mark,
                "sig" if sig else "")


def interval_text(iv: stats.Interval, every_run_same: bool) -> str:
    """"1.12 [1.07, 1.17]", or "1.0550541 (every run the same)" when both
    sides gave one value in every run (simulated counts)."""
    v, lo, hi = stats.format_interval(iv)
    if every_run_same:
        return f"{v} ({stats.EVERY_RUN_SAME})"
    return f"{v} [{lo}, {hi}]"


# Results from before the correction carry only the uncorrected mark
# (docs/statistics.md); Ratio.marked (model.py) falls back to it.
SIG_NOTE = ("* = significant at the 95% level, Holm-corrected over all "
            "ratios of that counter")
AUTOCORR_NOTE = ("~ = runs of this series are correlated (|lag-1 "
                 "autocorrelation| above 1.96/sqrt(n)): they carry state, so "
                 "the interval assumes an independence that does not hold")


WIRE_NOTE = ("[wire]: over a real NIC to a peer on the host; the time "
             "includes the emulated card, QEMU's user-mode network and the "
             "peer (or, on bare metal, the network). Compare variants with "
             "each other, not with the loopback benchmarks.")


def has_wire(results: Results) -> bool:
    return any(e.wire for e in results.results)


def _mismatched(results: Results) -> set[tuple[str, str]]:
    """(digest key, variant) pairs whose digest differs from the reference."""
    return {(m.bench, variant) for m in results.digest_mismatches
            for variant in m.differing()}


def counters_in(results: Results) -> list[str]:
    """Counters present in the results, cost counters first."""
    order = ["cycles", "tsc", "instructions"]
    names = results.counter_names()
    return [n for n in order if n in names] + sorted(names - set(order))


def result_rows(results: Results, counter: str) -> list[list[Cell]]:
    """One row per result carrying `counter`: the core of every table."""
    bad = _mismatched(results)
    base = results.baseline
    groups = len({e.group for e in results.results}) > 1
    rows = []
    for e in results.results:
        c = e.counters.get(counter)
        if c is None:
            continue
        median, ci = per_op_text(e, c)
        digest_bad = (e.digest_key, e.variant) in bad
        variant = f"{e.variant} (group {e.group})" if groups else e.variant
        rows.append([
            Cell(e.label), Cell(variant),
            Cell(median, "num"), Cell(ci, "num"),
            Cell(spread_text(c) + _autocorr_mark(c), "num"),
            Cell(str(c.per_op.n), "num"),
            ratio_text(c.ratio, e.variant == base),
            Cell(f"{e.digest} MISMATCH" if digest_bad
                 else str(e.digest), "bad" if digest_bad else ""),
        ])
    return rows


RESULT_HEADERS = ["benchmark", "variant", "median/op", "95% CI",
                  "spread (MAD)", "runs", "ratio [95% CI]", "digest"]


# -- sections ----------------------------------------------------------------

def _tsc_check_diff(tsc: dict[str, Any]) -> float | None:
    """How far the second calibration's rate (tsc.check) is from the one
    in use, relative to it; None without a check or a rate."""
    check = tsc.get("check")
    hz = tsc.get("hz")
    if not isinstance(check, dict) or not isinstance(hz, (int, float)) or hz <= 0:
        return None
    other = check.get("hz")
    if not isinstance(other, (int, float)) or other <= 0:
        return None
    return other / hz - 1


def _machine_lines(results: Results) -> list[str]:
    m = results.machine
    tsc = m.get("tsc") or {}
    pmu = m.get("pmu") or {}
    out = [f"Machine: {m.get('brand', 'unknown')} ({m.get('vendor', '?')} "
           f"family {m.get('family', '?')} model {m.get('model', '?')} "
           f"stepping {m.get('stepping', '?')})"
           + (f", hypervisor {m['hypervisor']}" if m.get("hypervisor")
              else ", no hypervisor")]
    if tsc:
        hz = tsc.get("hz")
        mhz = f"{hz / 1e6:.0f} MHz" if isinstance(hz, (int, float)) else "?"
        line = (f"TSC: {mhz} (from {tsc.get('source', '?')}), "
                f"{'invariant' if tsc.get('invariant') else 'not invariant'}")
        diff = _tsc_check_diff(tsc)
        if diff is not None:
            line += (f"; checked against {tsc['check'].get('source', '?')}: "
                     f"{tsc['check']['hz'] / 1e6:.3f} MHz ({diff:+.3%})")
        out.append(line)
    lfence = m.get("lfence") or {}
    if lfence:
        out.append(f"LFENCE: {'serialising' if lfence.get('serialising') else 'NOT serialising'}"
                   f" ({lfence.get('how', '?')})")
    if pmu:
        out.append("PMU: " + (f"version {pmu.get('version')}, "
                              f"{pmu.get('gp')} general-purpose and "
                              f"{pmu.get('fixed')} fixed counters"
                              if pmu.get("available")
                              else f"unavailable: {pmu.get('reason', '?')}"))
    cfg = results.config
    iters = cfg.get("iters", "?")
    if iters == 0:      # iters=0: each benchmark its own (results.json: per entry)
        iters = "each benchmark's own"
    out.append(f"Context: {results.context}; kfront "
               f"{results.kfront} (git {results.git}); "
               f"runs {cfg.get('runs', '?')}, iterations per run "
               f"{iters}, warm-up runs {cfg.get('warmup', '?')}")
    out.append(run_order_line(cfg.get("state")))
    host = results.host
    host_pages = text_pages_line(host.config.get("text_pages"), "Code pages (host harness)") \
        if host is not None and host is not results else None
    for where in (code_placement_line(cfg.get("placement")),
                  text_pages_line(cfg.get("text_pages")), host_pages):
        if where:
            out.append(where)
    if results.wire:
        out.append(f"Wire: {results.wire}")
    return out


RUN_STATES = {
    "warm": "warm: an unmeasured call of the same variant precedes every "
            "counted run",
    "cold": "cold: each counted run follows the previous variant's run",
    "both": "warm and cold, each reported ((cold) marks the cold results)",
}


def _text_page_words(p: dict[str, Any]) -> str:
    """The page size of the kernel's code mapping (textpages=): '' for
    4 KiB pages and for logs from before it was recorded."""
    return " in 2 MiB pages (textpages=2m)" if p.get("page_bytes") == 2 << 20 else ""


def code_placement_short(p: Any) -> str | None:
    """config.placement in a few words, for a list of runs (kfront
    repeats); None for the host harness and older logs."""
    if not isinstance(p, dict) or not isinstance(p.get("text_pa"), str):
        return None
    at = f"kernel code at {p['text_pa']}{_text_page_words(p)}"
    if p.get("how") == "given":
        return f"{at} (placement={p.get('page')})"
    how = "placement=random" if p.get("how") == "random" else "as loaded"
    return f"{at} (page {p.get('page', '?')}, {how})"


def code_placement_line(p: Any) -> str | None:
    """Where the kernel's code ran in physical memory (placement=), and
    in what pages (textpages=), in words; None for the host harness and
    for logs from before it was recorded."""
    if not isinstance(p, dict) or not isinstance(p.get("text_pa"), str):
        return None
    size = p.get("text_bytes")
    size = f" ({size / 2**20:.2f} MiB)" if isinstance(size, int) else ""
    page = p.get("page", "?")
    how = p.get("how")
    if how == "loaded" and p.get("page_bytes") == 2 << 20:
        return (f"Code placement: the kernel's code{size} ran from physical "
                f"{p['text_pa']}, where the boot loader put it, mapped with 2 MiB "
                "pages (textpages=2m), as Linux maps its text: one iTLB entry per "
                "2 MiB, and the code's physical address bits below 21 are its "
                "virtual ones, so on bare metal its L2 sets are the same in every "
                "boot (under a hypervisor the host maps the guest's pages again)")
    if how == "loaded":
        return (f"Code placement: the kernel's code{size} ran from physical "
                f"{p['text_pa']}, where the boot loader put it (page {page} "
                "of a 2 MiB region), in 4 KiB pages, as every boot of this image "
                "does; placement=N or placement=random runs it from other pages, "
                "textpages=2m maps it with 2 MiB pages "
                "(docs/statistics.md, \"Where the code lands\")")
    asked = "drawn at boot by placement=random" if how == "random" \
        else f"placement={page}"
    return (f"Code placement: the kernel's code{size} ran from a copy at "
            f"physical {p['text_pa']} (page {page} of a 2 MiB region, "
            f"{asked}), in 4 KiB pages")


def text_pages_line(t: Any, head: str = "Code pages") -> str | None:
    """What pages the host program's code ran from (--huge-text), in
    words, after `head`; None where it was not recorded (the kernel,
    older logs)."""
    if not isinstance(t, dict) or not isinstance(t.get("asked"), str):
        return None
    if t["asked"] != "huge":
        return (f"{head}: the program's code ran from its file's 4 KiB page-cache "
                "pages, wherever the kernel put them (kfront host --huge-text: one "
                "2 MiB page)")
    size, huge = t.get("text_bytes"), t.get("huge_bytes")
    size = f" ({size / 2**20:.2f} MiB)" if isinstance(size, int) else ""
    if isinstance(huge, int) and huge > 0:
        return (f"{head}: the program's code{size} ran from {huge >> 20} MiB of "
                "anonymous huge pages (--huge-text), as Linux maps its own text")
    note = t.get("note")
    return (f"{head}: --huge-text asked for 2 MiB pages, but the code{size} ran "
            f"from 4 KiB pages" + (f": {note}" if note else ""))


def run_order_line(state: str | None) -> str:
    """How the counted runs were ordered, in words (docs/measurement.md)."""
    if state is None:
        return ("Runs: interleaved in a fixed order, each right after "
                "another variant's (recorded before warm, rotated runs)")
    return (f"Runs: {RUN_STATES.get(state, state)}; the variant order is "
            "rotated from run to run (every variant in every position)")


def _counter_lines(results: Results) -> list[str]:
    c = results.counters
    measured = [counter_label(n) for n in c.measured]
    out = ["Measured: " + (", ".join(measured) or "none")]
    for name, ev in c.events.items():
        out.append(f"Event of {name}: {ev.get('event', '?')} "
                   f"({ev.get('encoding', '?')})")
    by_reason: dict[str, list[str]] = {}
    for name, reason in c.unavailable.items():
        by_reason.setdefault(reason, []).append(name)
    for reason, names in by_reason.items():
        out.append(f"Unavailable: {', '.join(names)}: {reason}")
    return out


def _alerts(results: Results) -> list[Alert]:
    blocks: list[Alert] = []
    for m in results.digest_mismatches:
        parts = ", ".join(f"{v} {d}" for v, d in m.digests.items())
        blocks.append(Alert(ALERT_DIGEST, f"Verification digests differ on {m.bench} "
                            f"({parts}): possible miscompilation; its "
                            "figures do not compare like with like."))
    lfence = results.machine.get("lfence") or {}
    if lfence and not lfence.get("serialising"):
        blocks.append(Alert(ALERT_LFENCE, "LFENCE is not known to serialise dispatch here "
                            f"({lfence.get('how', '?')}): the fences around "
                            "the counter reads may let measured code overlap "
                            "them, so short regions can be misread."))
    tsc = results.machine.get("tsc") or {}
    if tsc and not tsc.get("invariant") and "tsc" in counters_in(results):
        blocks.append(Alert(ALERT_TSC, "The TSC of this machine is not invariant: its "
                            "rate may follow the core clock or stop in deep "
                            "sleep states, so TSC ticks are not a "
                            "constant-rate reference here."))
    diff = _tsc_check_diff(tsc) if tsc else None
    if diff is not None and abs(diff) > TSC_CHECK_TOLERANCE:
        blocks.append(Alert(ALERT_TSC_CHECK, f"The TSC rate in use ({tsc['hz'] / 1e6:.3f} MHz "
                            f"from {tsc.get('source', '?')}) and the kernel's check "
                            f"against {tsc['check'].get('source', '?')} "
                            f"({tsc['check']['hz'] / 1e6:.3f} MHz) differ by "
                            f"{abs(diff):.1%}: one calibration was pushed off (an SMI, "
                            "a busy hypervisor); figures in TSC ticks are unaffected, "
                            "anything converted to time with that rate may be off "
                            "by as much."))
    if not results.complete:
        run = results.run
        why = ("records were lost on the way" if run.get("ended", True)
               else "the run has no suite-end record (crash, hang or cut-off "
               "capture)")
        blocks.append(Alert(ALERT_INCOMPLETE, f"Incomplete data: {why}; see Problems. The "
                            "figures come only from records that arrived "
                            "intact."))
    return blocks


def _variant_table(results: Results) -> Table:
    rows = [[Cell(str(v.get("name"))), Cell(str(v.get("cc", ""))),
             Cell(str(v.get("flags", "")) + (f" (code shifted {v['shift']} bytes: "
                                              "shift =)" if v.get("shift") else ""))]
            for v in results.variants]
    return Table(["variant", "compiler", "flags"], rows)


def counter_heading(results: Results, counter: str) -> str:
    """A counter's label with the hardware event behind it, when a PMU
    counted it: the same name means different events on different cores."""
    event = results.counters.event(counter)
    label = counter_label(counter)
    return f"{label} [{event}]" if event else label


def build_document(results: Results) -> list[Section]:
    from . import truthreport     # it builds on this module's blocks
    line = truthreport.truth_line(results)
    head = Section("kfront report", ([line] if line else []) + list(_alerts(results)))
    head.blocks += _machine_lines(results) + _counter_lines(results)
    head.blocks.append(_variant_table(results))
    helpers = stringhelpers.note(results)
    if helpers:
        head.blocks.append(helpers)
    sections = [head] + truthreport.primary_sections(results)
    share = _uop_share_section(results)
    if share is not None:
        sections.append(share)
    base = results.baseline
    hidden = truthreport.emulator_counters(results)
    for counter in counters_in(results):
        if counter in hidden:
            continue
        sec = Section(f"{counter_heading(results, counter)} per operation")
        note = f"Ratios are to {base}; {SIG_NOTE}. {AUTOCORR_NOTE}."
        if has_wire(results):
            note += " " + WIRE_NOTE
        sec.blocks.append(Table(RESULT_HEADERS, result_rows(results, counter),
                                note))
        sections.append(sec)
    why_sec = _why_section(results)
    if why_sec is not None:
        sections.append(why_sec)
    sections += truthreport.emulator_sections(results)
    robust = _robustness_section(results)
    if robust is not None:
        sections.append(robust)
    repeated = _repeats_section(results)
    if repeated is not None:
        sections.append(repeated)
    if results.sizes:
        sections.append(_sizes_section(results.sizes))
    charts = build_charts(results)
    if charts:
        sections.append(Section("Charts", list(charts)))
    sections.append(_events_section(results))
    sections.append(_problems_section(results))
    sections.append(Section("Method", [
        "Medians over runs, divided by the operations per run; spread is "
        "the median absolute deviation relative to the median; intervals "
        "are 95% percentile bootstrap intervals over runs (ratios: paired "
        "by run when variants ran interleaved). Digits shown are those the "
        "interval supports. See docs/statistics.md."]))
    return sections


def _labelled_table(headers: list[str], rows: list[list[str]], caption: str) -> Table:
    """A table of text rows whose first column labels and the rest are
    figures (right-aligned, sorted as numbers in report.html)."""
    return Table(headers, [[Cell(c, "num" if i else "") for i, c in enumerate(r)]
                           for r in rows], caption)


def _uop_share_section(results: Results) -> Section | None:
    """The uop cache's share of the delivered uops, a table per source."""
    found = uopshare.sources(results)
    if not found:
        return None
    sec = Section("Uop-cache share of delivered uops")
    for src in found:
        headers, rows = uopshare.table(results, src)
        sec.blocks.append(_labelled_table(
            headers, rows, f"{src.what}: {uopshare.FORMULA} of the medians per "
            "operation; '-': the variant counted no uops there."))
    return sec


def _why_section(results: Results) -> Section | None:
    """Under every significant difference, the functions behind it."""
    found = why.tables(results)
    if not found:
        return None
    sec = Section("Why: the functions behind each significant difference")
    for title, headers, rows, caption in found:
        sec.blocks.append(title)
        sec.blocks.append(_labelled_table(headers, rows, caption))
    return sec


def _rankings(row: dict) -> dict[str, str]:
    """Each setting's order with its ties ("O2 = hybrid < Os"); a
    results.json written before rows kept it has only the bare order."""
    if isinstance(row.get("ranking"), dict):
        return row["ranking"]
    return {s: " < ".join(o) for s, o in row["order"].items()}


def _robustness_section(results: Results) -> Section | None:
    """Simulated rankings whose variant order changes with the replacement
    policy (extra.sim.robustness, tools/kfront/robustness.py)."""
    sim = results.extra.get("sim") if isinstance(results.extra, dict) else None
    rob = sim.get("robustness") if isinstance(sim, dict) else None
    if not isinstance(rob, dict) or not rob.get("rankings"):
        return None
    bad = [r for r in rob.get("rows", []) if not r.get("robust", True)]
    sec = Section("Rankings not robust across policies", [
        f"{len(bad)} of {rob['rankings']} simulated rankings (benchmark, "
        "footprint, counter, ordered by per-operation median) change order "
        "between the replacement-policy settings of one model; no winner "
        f"should be read from the pairs that flip. Values within "
        f"{rob.get('tie_rel', 0):.0%} are ties"
        + (f", and so are values both under {rob['tie_below']:g} per operation"
           if isinstance(rob.get("tie_below"), (int, float)) else "")
        + ". See docs/fesim.md."])
    # rows store 0 for a benchmark without a sweep too: "-" only for those
    swept = {e.bench for e in results.results if e.footprint is not None}
    if bad:
        rows = [[Cell(str(r["bench"])),
                 Cell(str(r["footprint"]) if r["footprint"] or r["bench"] in swept
                      else "-", "num"),
                 Cell(str(r["counter"])),
                 Cell("; ".join(f"{s}: {o}" for s, o in _rankings(r).items())),
                 Cell(", ".join("/".join(p) for p in r["flipped_pairs"]))]
                for r in bad]
        sec.blocks.append(Table(["benchmark", "footprint", "counter",
                                 "order (fewest first; = a tie) per setting",
                                 "pairs that flip"], rows))
    return sec


def _repeats_section(results: Results) -> Section | None:
    """Real-CPU verdicts over several timing processes (kfront host
    --repeat, or kfront run --host-repeat: extra.host_repeats of the host
    results, tools/kfront/repeats.py)."""
    host = results.host if results.host is not None else results
    block = host.extra.get("host_repeats") if isinstance(host.extra, dict) else None
    if not isinstance(block, dict) or not isinstance(block.get("rows"), list):
        return None
    n, bad = block.get("verdicts", 0), block.get("verdicts_not_repeated", 0)
    paragraphs = [
        f"The host harness ran {block.get('processes')} times, one process after the "
        f"other; the figures above are the first process's. Of {n} verdicts against "
        f"{block.get('baseline')} (each process by the verdict's rule), {n - bad} are "
        f"the same in every process; the verdict calls no winner on the {bad} that are "
        "not (docs/statistics.md, \"Between runs\")."]
    where = repeats.placement_text(block)
    if where:
        paragraphs[0] += (f" {where[0].upper()}{where[1:]} (docs/statistics.md, "
                          "\"Where the code lands\").")
    for text, say in (
            (repeats.geomeans_text(block),
             "Geometric mean of the time ratios in each process: {}."),
            (repeats.half_widths_text(block),
             "How noisy each process was (the median half-width of its 95% intervals "
             "of the time ratios): {}."),
            (repeats.moves_text(block), "How far one process's figures are from the "
             "run's: {}."),
            (repeats.pooled_text(block),
             "Pooled over the processes instead (each point's runs of every process in "
             "a two-level bootstrap, Holm-corrected; not the verdict above): {}."),
            (repeats.halves_text(block), "Which rule's verdicts repeat, {}.")):
        if text:
            paragraphs.append(say.format(text))
    sec = Section("Real-CPU verdicts over timing processes", list(paragraphs))
    swept = {e.bench for e in host.results if e.footprint is not None}

    def ratios(r: dict[str, Any], v: str) -> str:
        rs = (r.get("ratios") or {}).get(v) or []
        return ", ".join("n/a" if x is None else f"{x:.3f}" for x in rs)

    def pooled(r: dict[str, Any], v: str) -> str:
        p = (r.get("pooled") or {}).get(v)
        if not isinstance(p, dict):
            return "-"
        hi = "inf" if p.get("hi") is None else f"{p['hi']:.3f}"
        return f"{p['verdict']}: {p['value']:.3f} [{p['lo']:.3f}, {hi}]"
    rows = [[Cell(str(r["bench"])),
             Cell(str(r["footprint"]) if r["footprint"] or r["bench"] in swept else "-",
                  "num"),
             Cell(str(v)), Cell(", ".join(str(x) for x in vs)), Cell(ratios(r, v)),
             Cell(pooled(r, v))]
            for r in block["rows"] if isinstance(r, dict)
            for v, vs in (r.get("verdicts") or {}).items() if len(set(vs)) > 1]
    if rows:
        sec.blocks.append(Table(["benchmark", "footprint", "variant",
                                 "verdict in each process, in order",
                                 f"time ratio to {block.get('baseline')} in each process",
                                 "pooled: verdict, ratio [95% interval]"],
                                rows))
    return sec


def _sizes_section(sizes: list[dict[str, Any]]) -> Section:
    """Code size of each variant's measured code (kfront size)."""
    rows = [[Cell(str(s["variant"])), Cell(str(s["text"]), "num"),
             Cell(str(s["rodata"]), "num"), Cell(str(s["functions"]), "num"),
             Cell(str(s["rep_movs"]), "num"), Cell(str(s["padding_bytes"]), "num"),
             Cell(str(s["cold_functions"]), "num")] for s in sizes]
    sec = Section("Code size of the measured code", [Table(
        ["variant", "text bytes", "rodata bytes", "functions", "rep movs sites",
         "nop padding bytes", "cold parts"], rows)])
    benches = sorted({b for s in sizes for b in s.get("hot", {})})
    hot_rows = [[Cell(b)] + [Cell("{bytes} B / {functions} fn".format(**s["hot"][b])
                                  if b in s.get("hot", {}) else "-", "num")
                             for s in sizes] for b in benches]
    if hot_rows:
        sec.blocks.append(Table(["benchmark"] + [str(s["variant"]) for s in sizes],
                                hot_rows, "Hot path: functions reachable from the "
                                "benchmark's run() by direct calls (an estimate: "
                                "calls through pointers are not followed)."))
    return sec


def _events_section(results: Results) -> Section:
    ev = results.events
    if not ev:
        return Section("Errors and timeouts", ["None."])
    rows = []
    for e in ev:
        what = e.get("msg") or e.get("name") or \
            (f"budget {e['budget_ms']} ms" if "budget_ms" in e else "")
        rows.append([Cell(str(e.get("line"))), Cell(e["type"], "bad"),
                     Cell(str(e.get("bench", ""))),
                     Cell(str(e.get("variant", ""))), Cell(str(what))])
    return Section("Errors and timeouts", [Table(
        ["line", "type", "benchmark", "variant", "detail"], rows)])


def _problems_section(results: Results) -> Section:
    probs = results.problems
    src = results.source or "the log"
    if not probs:
        return Section("Problems", [f"None: every record of {src} arrived "
                                    "intact and in order."])
    rows = [[Cell(str(p.line)), Cell(p.kind, "bad" if p.severity == "error" else ""),
             Cell(p.severity), Cell(p.message)] for p in probs]
    return Section("Problems", [f"Line numbers refer to {src}.", Table(
        ["line", "kind", "severity", "message"], rows)])


# -- charts ------------------------------------------------------------------

def _safe(name: str) -> str:
    """A file-name part for name: name itself when it is plain; otherwise
    sanitised with a hash of name appended, so `calib/x` and `calib_x` do
    not share (and overwrite) one chart file."""
    safe = re.sub(r"[^A-Za-z0-9._-]+", "_", name)
    if safe == name:
        return name
    return f"{safe}-{hashlib.sha1(name.encode('utf-8', 'surrogateescape')).hexdigest()[:8]}"


def _bars(results: Results, entries: list[Result], counter: str) -> list[svg.Bar]:
    names = results.variant_names()
    bars = []
    for e in entries:
        c = e.counters.get(counter)
        if c is None:
            continue
        value, _ = per_op_text(e, c)
        ci = c.per_op.ci
        idx = names.index(e.variant) if e.variant in names else 0
        label = e.variant if len({x.group for x in entries}) <= 1 \
            else f"{e.variant} ({e.group})"
        bars.append(svg.Bar(label, c.per_op.median,
                            ci[0] if ci else None, ci[1] if ci else None,
                            value, svg.colour(idx)))
    return bars


def bench_chart(results: Results, bench: str, entries: list[Result]) -> Chart | None:
    """Bars per variant for the cost counter and each simulated miss
    counter; None when no counter has a value (no empty chart)."""
    cost = cost_counter(entries)
    counters = ([cost] if cost else []) + sim_miss_counters(entries)
    panels = [svg.Panel(f"{bench}: {counter_label(c)} per operation",
                        _bars(results, entries, c),
                        f"{counter_label(c)} per operation")
              for c in counters]
    drawing = svg.bar_chart(f"{bench}: cost per operation", panels)
    if drawing is None:
        return None
    return Chart(f"bench-{_safe(bench)}", f"{bench}", drawing)


def sweep_chart(results: Results, bench: str, entries: list[Result],
                counter: str | None) -> Chart | None:
    """One line per variant: `counter` per op against the footprint."""
    if counter is None:
        return None
    names = results.variant_names()  # footprint 0 included: the baseline point
    series: dict[str, list[tuple[float, float, float | None,
                                 float | None]]] = {}
    for e in entries:
        c = e.counters.get(counter)
        if c is None or e.footprint is None:
            continue
        ci = c.per_op.ci
        series.setdefault(e.variant, []).append(
            (float(e.footprint), c.per_op.median,
             ci[0] if ci else None, ci[1] if ci else None))
    if not series:
        return None
    lines = [svg.Series(v, pts, svg.colour(names.index(v) if v in names
                                           else i))
             for i, (v, pts) in enumerate(series.items())]
    label = counter_label(counter)
    drawing = svg.line_chart(f"{bench}: footprint sweep, {label}", lines,
                             "footprint= (packet-filter rules per packet)", f"{label} per op")
    if drawing is None:
        return None
    stem = "sweep-" + _safe(bench) + ("" if counter in ("tsc", "cycles")
                                      else "-" + _safe(counter))
    return Chart(stem, f"{bench} footprint sweep: {label}", drawing)


def build_charts(results: Results) -> list[Chart]:
    plain: dict[str, list[Result]] = {}
    swept: dict[str, list[Result]] = {}
    for e in results.results:
        target = plain if e.footprint is None else swept
        target.setdefault(e.bench, []).append(e)
    charts = [bench_chart(results, b, es) for b, es in plain.items()]
    for b, es in swept.items():
        charts.append(sweep_chart(results, b, es, cost_counter(es)))
        for sim in sim_miss_counters(es):
            charts.append(sweep_chart(results, b, es, sim))
    return unique_names([c for c in charts if c is not None])


def unique_names(charts: list[Chart]) -> list[Chart]:
    """Charts whose file names would be the same get their title's hash
    appended: a stem joins bench and counter with hyphens, which the
    names may hold too (bench `a-b` with counter `c`, bench `a` with
    counter `b-c`), and one chart must never overwrite another."""
    seen = collections.Counter(c.name for c in charts)
    return [dataclasses.replace(c, name=f"{c.name}-" + hashlib.sha1(
        c.title.encode("utf-8", "surrogateescape")).hexdigest()[:8])
        if seen[c.name] > 1 else c for c in charts]


def write_all(results: Results, outdir: Path) -> list[Path]:
    """Write report.md, report.html and charts/*.svg; return their paths."""
    outdir = Path(outdir)
    sections = build_document(results)
    charts = [b for s in sections for b in s.blocks if isinstance(b, Chart)]
    written = []
    if charts:
        (outdir / "charts").mkdir(parents=True, exist_ok=True)
    else:
        outdir.mkdir(parents=True, exist_ok=True)
    md = outdir / "report.md"
    md.write_text(render_markdown(sections), encoding="utf-8")
    written.append(md)
    page = outdir / "report.html"
    title = f"kfront report: {results.source or 'results'}"
    page.write_text(render_html(sections, title), encoding="utf-8")
    written.append(page)
    for chart in charts:
        path = outdir / "charts" / f"{chart.name}.svg"
        path.write_text(chart.drawing.render(True), encoding="utf-8")
        written.append(path)
    return written


# -- terminal ----------------------------------------------------------------

def terminal_table(results: Results, color: bool) -> str:
    """The comparison table for a terminal; red only when color is True."""
    from . import truthreport
    line = truthreport.truth_line(results)
    out: list[str] = [line] if line else []
    for alert in _alerts(results):
        red = color and alert.kind in TERMINAL_RED_ALERTS
        out.append(f"{RED}{alert.text}{RESET}" if red else alert.text)
    primary, verdict_secs = [], []
    for sec in truthreport.primary_sections(results):
        (verdict_secs if sec.title.startswith("Verdict") else primary).append(sec)
    for sec in primary:
        out += ["", sec.title]
        for block in sec.blocks:
            if isinstance(block, Table):
                out += text_table(block.headers, block.rows, color) + [block.caption]
    hidden = truthreport.emulator_counters(results)
    # With a primary table, the simulator's many counters (classes,
    # per-model misses) stay in report.md/html: the terminal keeps the
    # primary table, the other counters and the verdict readable.
    more_sim = [c for c in counters_in(results) if primary and c.startswith("sim.")]
    for counter in counters_in(results):
        if counter in hidden or counter in more_sim:
            continue
        out.append("")
        out.append(f"{counter_heading(results, counter)} per operation "
                   f"(ratio to {results.baseline}; {SIG_NOTE})")
        out += text_table(RESULT_HEADERS, result_rows(results, counter), color)
    if more_sim:
        out += ["", f"{len(more_sim)} simulated counters per operation (sim.*, with ratios): "
                "report.md and report.html"]
    for sec in truthreport.emulator_sections(results):
        out += ["", sec.title]
        for block in sec.blocks:
            if isinstance(block, Table):
                out += text_table(block.headers, block.rows, color) + [block.caption]
    if verdict_secs:     # last, indented as verdict.render gives it
        out += [""] + truthreport.verdict_lines(results)
    share = uopshare.summary(results)
    if share:
        out += [""] + share
    if any(_autocorr_mark(c) for e in results.results
           for c in e.counters.values()):
        out.append("")
        out.append(AUTOCORR_NOTE)
    if has_wire(results):
        out.append("")
        out.append(WIRE_NOTE)
    unavailable = results.counters.unavailable
    if unavailable:
        reasons = sorted(set(unavailable.values()))
        out.append("")
        out.append(f"Unavailable: {', '.join(unavailable)}: "
                   + "; ".join(reasons))
    helpers = stringhelpers.note(results)
    if helpers:
        out += ["", helpers]
    probs = [p for p in results.problems if p.severity != "note"]
    if probs:
        out.append("")
        out.append(f"{len(probs)} problem(s) in the collection:")
        out += [f"  line {p.line}: {p.kind}: {p.message}"
                for p in probs[:20]]
        if len(probs) > 20:
            out.append(f"  ... and {len(probs) - 20} more (see report.md)")
    return "\n".join(out).lstrip("\n") + "\n"
