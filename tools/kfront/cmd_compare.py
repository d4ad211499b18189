# SPDX-License-Identifier: GPL-2.0-or-later
"""`kfront compare`: two results.json side by side (two machines, two
compilers, before and after a change); with --fail-above, a CI gate."""

from __future__ import annotations

import argparse
import math
import sys
from pathlib import Path
from typing import Any

from . import compare, model, output, results, stats, term

CSV_HEADERS = ["bench", "footprint", "group", "state", "variant", "counter",
               "a_per_op", "b_per_op", "ratio", "ratio_lo", "ratio_hi", "p_holm",
               "significant", "digest_differs", "a_verdict", "b_verdict", "part"]


def percent(text: str) -> float:
    """--fail-above PCT: a finite number of percent, 0 or more."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of percent") from None
    if not math.isfinite(value) or value < 0:
        raise argparse.ArgumentTypeError(f"{text!r}: want a finite percentage, 0 or more")
    return value + 0.0      # -0 is 0, and prints so


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "compare", help="compare two results.json side by side",
        description="For each benchmark, variant and counter in both files: "
        "A's and B's median per operation, B/A with a 95% bootstrap "
        "interval, and each side's ratio to its baseline variant. "
        "Exit status: 0, 1 when nothing is in both files or a --fail-above "
        "regression is found, 2 for unreadable input.")
    p.add_argument("a", type=Path, metavar="A.json")
    p.add_argument("b", type=Path, metavar="B.json")
    p.add_argument("--fail-above", type=percent, metavar="PCT",
                   help="exit 1 when any benchmark point regresses by more than PCT "
                   "percent with confidence: B/A significant (95%%, Holm) and the "
                   "interval's lower end above 1 + PCT/100 (lower is better for "
                   "every counter)")
    output.add_options(p, "the comparison (rows, ratios, intervals, regressions) as JSON")
    p.set_defaults(func=run, needs_setup=False)


def regressions(cmp: compare.Comparison, pct: float) -> list[compare.Row]:
    """Rows whose B/A is above 1 + pct/100 with confidence: the whole 95%
    interval above the threshold and the difference significant."""
    limit = 1.0 + pct / 100.0
    return [r for r in cmp.rows
            if r.ratio is not None and r.significant and r.ratio.lo > limit]


def _row_dict(r: compare.Row) -> dict[str, Any]:
    return {"bench": r.bench, "footprint": r.a.footprint, "group": r.group,
            "state": r.a.state, "variant": r.variant, "counter": r.counter,
            "a_per_op": r.a.counters[r.counter].per_op.median,
            "b_per_op": r.b.counters[r.counter].per_op.median,
            "ratio": r.ratio_value,
            "ratio_ci": [r.ratio.lo, r.ratio.hi] if r.ratio else None,
            "p_holm": r.p_holm, "significant": r.significant,
            "digest_differs": r.digest_differs,
            "a_verdict": r.a_verdict, "b_verdict": r.b_verdict}


def _agreement(cmp: compare.Comparison) -> dict[str, Any]:
    def point(r: compare.Row) -> dict[str, Any]:
        return {"bench": r.bench, "footprint": r.a.footprint, "group": r.group,
                "state": r.a.state, "variant": r.variant,
                "a_verdict": r.a_verdict, "b_verdict": r.b_verdict}
    return {counter: {"rows": c["rows"], "agree": c["agree"],
                      "differ": [point(r) for r in c["differ"]],
                      "reversed": [point(r) for r in c["reversed"]]}
            for counter, c in compare.verdict_agreement(cmp).items()}


def _part(cmp: compare.Comparison) -> dict[str, Any]:
    return {"rows": [_row_dict(r) for r in cmp.rows],
            "only_a": cmp.only_a, "only_b": cmp.only_b, "notes": cmp.notes,
            "verdicts": _agreement(cmp),
            # real-CPU time in both: repeats.py's `moves`, A as the first
            "moves": cmp.moves}


def document(args: argparse.Namespace, cmp: compare.Comparison,
             bad: list[compare.Row] | None,
             host: compare.Comparison | None = None) -> dict[str, Any]:
    return {"a": str(args.a), "b": str(args.b), **_part(cmp),
            # two kfront run documents: their host harnesses, compared
            "host": None if host is None else _part(host),
            "fail_above_pct": args.fail_above,
            "regressions": None if bad is None else [_row_dict(r) for r in bad]}


def _csv_rows(cmp: compare.Comparison, part: str = "own") -> list[list[str]]:
    """The rows as CSV; `part`: "own" for the documents' own results,
    "host" for the host harnesses of two kfront run documents."""
    out = []
    for r in cmp.rows:
        d = _row_dict(r)
        ci = d["ratio_ci"] or ["", ""]
        out.append(["" if v is None else str(v) for v in (
            d["bench"], d["footprint"], d["group"], d["state"], d["variant"], d["counter"],
            d["a_per_op"], d["b_per_op"], d["ratio"], ci[0], ci[1], d["p_holm"],
            str(d["significant"]).lower(), str(d["digest_differs"]).lower(),
            d["a_verdict"], d["b_verdict"], part)])
    return out


def run(args: argparse.Namespace) -> int:
    try:
        a = model.load(args.a)
        b = model.load(args.b)
        cmp = compare.compare(a, b)
        text = compare.format_comparison(a, b, cmp, term.use_color(sys.stdout))
        # Two kfront run documents hold their host harness's results too:
        # the real-CPU rows, which the kernel's (emulator time under TCG)
        # are not.
        host = compare.compare(a.host, b.host) \
            if a.host is not None and b.host is not None else None
        if host is not None:
            text += ("\nReal-CPU time: the host harness of each run (A/host, B/host)\n\n"
                     + compare.format_comparison(a.host, b.host, host,
                                                 term.use_color(sys.stdout)))
    except results.ResultsError as exc:
        print(f"kfront compare: error: {exc}", file=sys.stderr)
        return 2
    print(text, end="")
    bad = regressions(cmp, args.fail_above) if args.fail_above is not None else None
    if bad is not None and host is not None:
        bad += regressions(host, args.fail_above)
    output.emit_json(args, document(args, cmp, bad, host))
    if args.csv:
        try:
            output.write_csv(args.csv, CSV_HEADERS,
                             _csv_rows(cmp) + (_csv_rows(host, "host") if host else []))
        except OSError as exc:
            # 2, never 1: exit 1 means a regression to a CI gate.
            print(f"kfront compare: error: cannot write {exc.filename or args.csv}: "
                  f"{exc.strerror or exc}", file=sys.stderr)
            return 2
    if not cmp.rows and not (host and host.rows):
        print("kfront compare: no benchmark appears in both files",
              file=sys.stderr)
        return 1
    if bad:
        print(f"kfront compare: {len(bad)} regression(s) above {args.fail_above:g}% "
              "with confidence:", file=sys.stderr)
        for r in bad:
            assert r.ratio is not None
            iv = (f"({stats.EVERY_RUN_SAME})" if r.every_run_same
                  else f"[{r.ratio.lo:.4g}, {r.ratio.hi:.4g}]")
            print(f"  {r.a.label} {r.variant} {r.counter}: B/A {r.ratio_value:.4g} {iv}",
                  file=sys.stderr)
        return 1
    if bad is not None:
        print(f"kfront compare: no regression above {args.fail_above:g}% with confidence",
              file=sys.stderr)
    return 0
