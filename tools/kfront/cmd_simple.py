# SPDX-License-Identifier: GPL-2.0-or-later
"""`kfront setup` and `kfront build`."""
from __future__ import annotations

import argparse

from kfront import build, names


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser('setup', help='check and install the Debian packages kfront needs')
    p.add_argument('--lab', action='store_true',
                   help="also install Debian's lava-dispatcher (lava-run, about 150 "
                        'packages) for the LAVA boot tests (docs/labs.md)')
    p.set_defaults(func=lambda args: 0, needs_setup=True, setup_verbose=True)
    p = sub.add_parser('build', help='configure (once) and build into build/',
                       description='Configure (once) and build into build/, showing '
                       "ninja's [n/N] progress on one line (the whole output on "
                       'failure or with -v).')
    p.add_argument('-v', '--verbose', action='store_true',
                   help="show ninja's whole output as it comes")
    p.set_defaults(func=run_build)


def run_build(args: argparse.Namespace) -> int:
    vfile = names.configured_variants_file()
    if vfile != names.DEFAULT_VARIANTS_FILE and vfile.is_file():
        print(f'kfront build: the variants of {vfile} (set by an earlier --variants-file; '
              './kfront run without one goes back to bench/variants.ini)', flush=True)
    return 0 if build.build(quiet=not args.verbose) else 1
