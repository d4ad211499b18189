# SPDX-License-Identifier: GPL-2.0-or-later
"""The `kfront` command: argparse subcommands, each in its own module."""
from __future__ import annotations

import argparse
import importlib

from kfront import VERSION, deps, lifecycle, output

# Modules that provide subcommands through register(subparsers).
COMMAND_MODULES = ('cmd_simple', 'cmd_boot', 'cmd_test', 'cmd_run', 'cmd_size', 'cmd_flags', 'cmd_pgo',
                   'cmd_collect', 'cmd_report', 'cmd_compare', 'cmd_repeats', 'cmd_host', 'cmd_lava',
                   'cmd_explain', 'cmd_study', 'cmd_simspeed')


def make_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog='kfront',
        description='kfront: a bootable benchmark kernel that compares compiler '
                    'modes (O2, Os, hybrid) on kernel hot paths.')
    parser.add_argument('--version', action='version', version=f'kfront {VERSION}')
    sub = parser.add_subparsers(dest='command', metavar='COMMAND')
    for name in COMMAND_MODULES:
        try:
            mod = importlib.import_module(f'kfront.{name}')
        except ModuleNotFoundError as exc:
            if exc.name != f'kfront.{name}':
                raise
            continue
        mod.register(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    lifecycle.install()
    try:
        return _main(argv)
    except (KeyboardInterrupt, lifecycle.Stopped) as exc:
        return lifecycle.report_stop(exc)


def _main(argv: list[str] | None) -> int:
    parser = make_parser()
    args = parser.parse_args(argv)
    if not getattr(args, 'func', None):
        parser.print_help()
        return 2
    # --json: stdout carries the document only, all else goes to stderr
    with output.diverted(args):
        # Every command checks the set-up first, so a fresh machine needs no
        # manual step; commands that only read files skip it.
        if getattr(args, 'needs_setup', True):
            if not deps.ensure(quiet=not getattr(args, 'setup_verbose', False),
                               lab=getattr(args, 'lab', False)):
                return 1
        return int(args.func(args) or 0)
