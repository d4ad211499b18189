# SPDX-License-Identifier: GPL-2.0-or-later
"""`kfront report`: regenerate report.md, report.html and the SVG charts from
a stored results.json, and print the terminal table."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from . import model, report, results, term


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "report", help="regenerate the reports from a results.json",
        description="Write report.md, report.html (self-contained) and "
        "charts/*.svg from a results.json and print the comparison table.")
    p.add_argument("results", type=Path, metavar="RESULTS.json")
    p.add_argument("--out", type=Path, metavar="DIR",
                   help="output folder (default: the folder of RESULTS.json)")
    p.set_defaults(func=run, needs_setup=False)


def run(args: argparse.Namespace) -> int:
    try:
        res = model.load(args.results)
    except results.ResultsError as exc:
        print(f"kfront report: error: {exc}", file=sys.stderr)
        return 2
    outdir = args.out or args.results.parent
    try:
        paths = report.write_all(res, outdir)
    except OSError as exc:
        print(f"kfront report: error: cannot write {outdir}: "
              f"{exc.strerror or exc}", file=sys.stderr)
        return 2
    print(report.terminal_table(res, term.use_color(sys.stdout)))
    for path in paths:
        print(f"wrote {path}")
    return 0
