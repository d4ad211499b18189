# SPDX-License-Identifier: GPL-2.0-or-later
"""`kfront size`: code-size report of every variant, without booting."""
from __future__ import annotations

import argparse
import json
import sys

from kfront import build, size


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser('size', help='code size of each variant\'s measured code (no boot)')
    p.add_argument('--json', action='store_true', help='print the sizes as JSON')
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if not build.build():
        return 1
    try:
        sizes = size.analyze_build()
    except size.SizeError as exc:
        print(f'kfront size: {exc}', file=sys.stderr)
        return 1
    if args.json:
        print(json.dumps(sizes, indent=1))
        return 0
    print(size.table(sizes))
    print()
    print(size.hot_table(sizes))
    return 0
