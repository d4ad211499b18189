# SPDX-License-Identifier: GPL-2.0-or-later
"""Machine-readable output shared by run, host, collect and compare:
`--json` prints the results document on stdout (and everything else the
command says goes to stderr, so `kfront run --json | jq` works), `--csv
FILE` writes one row per benchmark point, variant and counter.

The command runs with sys.stdout pointed at stderr while --json is given
(`diverted`); `emit_json` writes to the real stdout it kept.
"""
from __future__ import annotations

import argparse
import contextlib
import csv
import json
import os
import sys
from pathlib import Path
from typing import Any, Iterator, Sequence

from kfront.model import Results

# The real stdout of a --json run, kept on the arguments while the command
# runs with sys.stdout diverted to stderr.
_STDOUT_ATTR = 'json_stdout'

RESULT_CSV_HEADERS = ['source', 'context', 'bench', 'footprint', 'group', 'state', 'variant',
                      'counter', 'per_op_median', 'per_op_lo', 'per_op_hi', 'runs', 'iters',
                      'baseline', 'ratio', 'ratio_lo', 'ratio_hi', 'ratio_significant']


def csv_file(text: str) -> Path:
    """--csv FILE: a file in an existing folder (checked before any work,
    so a typo does not cost a run)."""
    path = Path(text)
    if path.is_dir():
        raise argparse.ArgumentTypeError(f'{text!r} is a folder; want a file name')
    if not path.parent.is_dir():
        raise argparse.ArgumentTypeError(f'{text!r}: no folder {str(path.parent)!r}')
    # A read-only file or folder would otherwise fail only after the work.
    # An existing file is opened for appending, which changes nothing but
    # gives the system's reason (an immutable file: "Operation not permitted").
    if path.exists():
        try:
            os.close(os.open(path, os.O_WRONLY | os.O_APPEND | os.O_NONBLOCK | os.O_NOCTTY))
        except OSError as exc:
            raise argparse.ArgumentTypeError(f'cannot write {text!r}: {exc.strerror}') from None
    elif not os.access(path.parent, os.W_OK | os.X_OK):
        raise argparse.ArgumentTypeError(f'cannot write {text!r}: folder '
                                         f'{str(path.parent)!r} is not writable')
    return path


def same_file(a: Path, b: Path) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:  # one of them does not exist (yet)
        return os.path.realpath(a) == os.path.realpath(b)


def csv_clash(args: argparse.Namespace) -> str | None:
    """The problem when --csv names one of the command's input files (any
    path argument: a log, an A.json, a --variants-file): the CSV would
    replace the input."""
    target = getattr(args, 'csv', None)
    if target is None:
        return None
    for name, value in vars(args).items():
        if name == 'csv':
            continue
        for item in value if isinstance(value, (list, tuple)) else [value]:
            if isinstance(item, Path) and same_file(item, target):
                return f'--csv {target} is an input file ({item}); give another file name'
    return None


def add_options(p: argparse.ArgumentParser, what: str = 'the results document '
                '(results.json)') -> None:
    p.add_argument('--json', action='store_true',
                   help=f'print {what} on stdout; all other output goes to stderr')
    p.add_argument('--csv', type=csv_file, metavar='FILE',
                   help='also write the figures as CSV to FILE (one row per benchmark, '
                   'variant and counter)')


@contextlib.contextmanager
def diverted(args: argparse.Namespace) -> Iterator[None]:
    """With --json, the command's ordinary output goes to stderr. A --csv
    that is one of the command's input files stops it here (exit 2)."""
    # Checked here, where every command passes before its work (cli.py), so
    # run and host refuse before a long build and run, nothing written.
    problem = csv_clash(args)
    if problem:
        print(f"kfront {getattr(args, 'command', '')}: error: {problem}", file=sys.stderr)
        raise SystemExit(2)
    if not getattr(args, 'json', False):
        yield
        return
    real = sys.stdout
    setattr(args, _STDOUT_ATTR, real)
    sys.stdout = sys.stderr
    try:
        yield
    finally:
        sys.stdout = real


def emit_json(args: argparse.Namespace, doc: Any) -> None:
    """Print doc as JSON on the real stdout when --json was given."""
    if not getattr(args, 'json', False):
        return
    stream = getattr(args, _STDOUT_ATTR, None) or sys.stdout
    json.dump(doc, stream, indent=1, sort_keys=False)
    stream.write('\n')
    stream.flush()


def emit_results(args: argparse.Namespace, files: Sequence[Path],
                 typed: Sequence[Results]) -> None:
    """The results.json files as written (one document, or a list of them
    for several runs) on stdout with --json; their rows to --csv."""
    if getattr(args, 'json', False):
        docs = [json.loads(Path(f).read_text(encoding='utf-8')) for f in files]
        emit_json(args, docs[0] if len(docs) == 1 else docs)
    if getattr(args, 'csv', None):
        write_csv(args.csv, RESULT_CSV_HEADERS,
                  [row for res in typed for row in result_rows(res)])


def _num(x: float | None) -> str:
    return '' if x is None else repr(float(x))


def result_rows(res: Results) -> list[list[str]]:
    rows = []
    for e in res.results:
        for name, c in e.counters.items():
            ci = c.per_op.ci
            r = c.ratio
            rows.append([res.source or '', res.context or '', e.bench,
                         '' if e.footprint is None else str(e.footprint),
                         '' if e.group is None else str(e.group), e.state or '', e.variant,
                         name, _num(c.per_op.median), _num(ci[0] if ci else None),
                         _num(ci[1] if ci else None), str(c.per_op.n), str(e.iters),
                         r.baseline if r else '', _num(r.value if r else None),
                         _num(r.lo if r else None), _num(r.hi if r else None),
                         '' if r is None or r.significant is None else
                         str(bool(r.significant)).lower()])
    return rows


def write_csv(path: Path, headers: list[str], rows: list[list[str]]) -> None:
    """Write the CSV; an OSError names path (exc.filename) even when the
    write or close failed, not the open, so callers can say which file."""
    try:
        with open(path, 'w', newline='', encoding='utf-8') as f:
            w = csv.writer(f)
            w.writerow(headers)
            w.writerows(rows)
    except OSError as exc:
        exc.filename = exc.filename or str(path)
        raise
    print(f'kfront: wrote {path} ({len(rows)} rows)', file=sys.stderr)
