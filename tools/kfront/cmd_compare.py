# SPDX-License-Identifier: GPL-2.0-or-later
"""`kfront compare`: two results.json side by side (two machines, two
compilers, before and after a change)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from . import compare, model, results


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "compare", help="compare two results.json side by side",
        description="For each benchmark, variant and counter in both files: "
        "A's and B's median per operation, B/A with a 95% bootstrap "
        "interval, and each side's ratio to its baseline variant.")
    p.add_argument("a", type=Path, metavar="A.json")
    p.add_argument("b", type=Path, metavar="B.json")
    p.set_defaults(func=run, needs_setup=False)


def run(args: argparse.Namespace) -> int:
    try:
        a = model.load(args.a)
        b = model.load(args.b)
        cmp = compare.compare(a, b)
        text = compare.format_comparison(a, b, cmp, sys.stdout.isatty())
    except results.ResultsError as exc:
        print(f"kfront compare: error: {exc}", file=sys.stderr)
        return 2
    print(text, end="")
    if not cmp.rows:
        print("kfront compare: no benchmark appears in both files",
              file=sys.stderr)
        return 1
    return 0
