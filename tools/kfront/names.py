# SPDX-License-Identifier: GPL-2.0-or-later
"""The valid --variants and --bench names, read from the tree, so a typo
fails in a second with the names listed, before anything builds or boots.

The kernel checks the same selections again at boot (bench/harness/suite.c)
with the same rules: a glob (`*`, `?`) never selects an explicit benchmark
(calib.hang) nor a wire one without a wire (peer=); those are selected by
their exact name only. Names are compared case-sensitively, as the kernel
does; a name that differs only in case is offered as the suggestion.
"""
from __future__ import annotations

import difflib
import fnmatch
import re
from dataclasses import dataclass
from pathlib import Path

from kfront import build as kbuild
from kfront import paths, pgo

DEFAULT_VARIANTS_FILE = paths.ROOT / 'bench' / 'variants.ini'
WORKLOADS_DIR = paths.ROOT / 'bench' / 'workloads'

_SECTION_RE = re.compile(r'^\[([^\]]+)\]\s*$', re.M)
# One benchmark descriptor: from `.name = "..."` to the end of its
# initialiser, where its flags are.
_BENCH_RE = re.compile(r'\.name\s*=\s*"([^"]+)"(.*?)\n\}', re.S)


@dataclass(frozen=True)
class Bench:
    name: str
    explicit: bool      # BENCH_F_EXPLICIT: by exact name only
    wire: bool          # BENCH_F_WIRE: by exact name only without a wire
    swept: bool = False  # BENCH_F_FOOTPRINT: runs at each footprint= point


def variant_names(path: Path) -> list[str]:
    """The variant sections of a variants file, in file order."""
    return _SECTION_RE.findall(path.read_text(encoding='utf-8'))


def image_variants(path: Path) -> list[str]:
    """The variants of the file that the image holds: one left out for
    want of a profile is not a valid name (kfront pgo says how to add it)."""
    gone = pgo.left_out_names(path)
    return [n for n in variant_names(path) if n not in gone]


def configured_variants_file(build: Path = paths.BUILD) -> Path:
    """The variants file the build directory was configured with (what the
    image in it holds), else bench/variants.ini."""
    value = kbuild.configured_options(build).get('variants_file') or ''
    return Path(str(value)) if value else DEFAULT_VARIANTS_FILE


def benchmarks(folder: Path = WORKLOADS_DIR) -> list[Bench]:
    """The suite's benchmarks, from the descriptors in bench/workloads/*.c."""
    out = []
    for src in sorted(folder.glob('*.c')):
        for m in _BENCH_RE.finditer(src.read_text(encoding='utf-8')):
            body = m.group(2)
            out.append(Bench(m.group(1), 'BENCH_F_EXPLICIT' in body, 'BENCH_F_WIRE' in body,
                             'BENCH_F_FOOTPRINT' in body))
    return out


def _is_glob(item: str) -> bool:
    return '*' in item or '?' in item


def exact_only(benches: list[Bench], wire: bool = False) -> set[str]:
    """The benchmarks only their exact name selects: the explicit ones,
    and the wire ones without a wire."""
    return {b.name for b in benches if b.explicit or (b.wire and not wire)}


def selects(item: str, name: str, exact: set[str] = frozenset()) -> bool:
    """Whether one item of a --bench/--variants list selects name, by the
    kernel's rules: a glob never selects a name in `exact`."""
    if _is_glob(item):
        return name not in exact and fnmatch.fnmatchcase(name, item)
    return item == name


def _suggestion(item: str, names: list[str], exact_only: set[str]) -> str | None:
    """What the user probably meant: the names the item selects when case
    is ignored (a glob in lower case when that works), else the closest
    name by difflib."""
    if _is_glob(item):
        folded = [n for n in names if n not in exact_only
                  and fnmatch.fnmatchcase(n.lower(), item.lower())]
        if any(fnmatch.fnmatchcase(n, item.lower()) for n in folded):
            return item.lower()
    else:
        folded = [n for n in names if n.lower() == item.lower()]
    if folded:
        return ','.join(folded)
    lower = {n.lower(): n for n in names}
    close = difflib.get_close_matches(item.lower(), list(lower), n=1, cutoff=0.6)
    return lower[close[0]] if close else None


def item_problem(option: str, item: str, names: list[str], exact_only: set[str],
                 note: str = '') -> str | None:
    """Why one item of --variants/--bench selects nothing, or None."""
    if any(selects(item, n, exact_only) for n in names):
        return None
    what = 'variant' if option == 'variants' else 'benchmark'
    msg = f'--{option}: {item!r} matches no {what}'
    if _is_glob(item) and note:
        msg += f' ({note})'
    hint = _suggestion(item, names, exact_only)
    if hint:
        msg += f'; did you mean {hint!r}?'
    return msg + f'\n  valid {what}s: {" ".join(names)}'


def list_problem(option: str, value: str | None, names: list[str],
                 exact_only: set[str] = frozenset(), note: str = '') -> str | None:
    if value is None:
        return None
    for item in value.split(','):
        problem = item_problem(option, item, names, exact_only, note)
        if problem:
            return problem
    return None


def selection_problem(variants: str | None, bench: str | None,
                      variants_file: Path | None = None, wire: bool = False,
                      wire_hint: str = '') -> str | None:
    """The first --variants or --bench item that selects nothing, with the
    valid names and a suggestion; None when every item selects something.

    variants_file: the table the image is built from (default: the one the
    build directory was configured with). wire: net.wire_* are reachable by
    globs (a NIC and a peer are set up); wire_hint: the option that sets
    them up, named in the message."""
    if variants is not None:
        vfile = variants_file or configured_variants_file()
        try:
            vnames = image_variants(vfile)
        except OSError as exc:
            return f'cannot read the variants file: {exc}'
        problem = list_problem('variants', variants, vnames)
        if problem:
            return problem
    if bench is not None and bench != 'none':
        benches = benchmarks()
        exact = exact_only(benches, wire)
        note = 'globs never select ' + ', '.join(sorted(exact))
        if not wire and wire_hint:
            note += f'; net.wire_* need {wire_hint}'

        problem = list_problem('bench', bench, [b.name for b in benches], exact,
                               note if exact else '')
        if problem or wire:
            return problem
        # named exactly without a wire, a wire benchmark could only fail:
        # the kernel refuses it before any run, and so does this check
        wired = {b.name for b in benches if b.wire}
        for item in bench.split(','):
            if item in wired:
                return (f'--bench: {item} needs a wire: a NIC and a host peer'
                        + (f' ({wire_hint})' if wire_hint else ''))
    return None


def variants_file_problem(path: Path) -> str | None:
    """What is wrong with a --variants-file, read as the build reads it
    (tools/build/variants.py), before it reaches the build directory: a
    table meson could not read would stay configured there and break the
    next command's build."""
    if path.is_dir():
        return f'--variants-file {path}: a folder, not a variants file'
    if not path.is_file():
        return f'--variants-file {path}: no such file'
    try:
        pgo.variants.load(path)
    except pgo.variants.VariantError as exc:
        # configparser's messages run over several lines
        return '--variants-file: ' + ' '.join(str(exc).split())
    return None


def unswept_problem(bench: str) -> str | None:
    """Why a footprint above 0 means nothing for this --bench list: none
    of the benchmarks it selects takes a footprint (BENCH_F_FOOTPRINT);
    None when one does."""
    benches = benchmarks()
    exact = exact_only(benches)
    items = bench.split(',')
    if any(b.swept and any(selects(i, b.name, exact) for i in items) for b in benches):
        return None
    swept = ', '.join(b.name for b in benches if b.swept and b.name not in exact)
    return f'none of the benchmarks --bench {bench} selects takes a footprint (those that do: {swept})'


def footprint_limits() -> tuple[int, int]:
    """(points, rules): how many footprint= points the suite takes
    (MAX_FOOTPRINTS, bench/harness/suite.c) and the largest point, the
    filter rules there are (BENCH_FOOTPRINT_MAX, include/kfront/bench.h)."""
    def define(path: Path, name: str) -> int:
        m = re.search(rf'^#define {name}\s+(\d+)', path.read_text(), re.M)
        if not m:
            raise RuntimeError(f'{path}: no #define {name}')
        return int(m.group(1))
    return (define(paths.ROOT / 'bench' / 'harness' / 'suite.c', 'MAX_FOOTPRINTS'),
            define(paths.ROOT / 'include' / 'kfront' / 'bench.h', 'BENCH_FOOTPRINT_MAX'))


def footprint_problem(points: str) -> str | None:
    """What the kernel would refuse in a footprint list, said before a
    build or a boot: too many points, a point past the rules, a repeat."""
    most, rules = footprint_limits()
    values = [int(v) for v in points.split(',')]
    if len(values) > most:
        return f'at most {most} points, got {len(values)}'
    for i, v in enumerate(values):
        if v > rules:
            return f'{v} is more than the {rules} filter rules of the network stack; want 0 to {rules}'
        if v in values[:i]:
            return f'{v} is given twice; give each point once'
    return None


def kernel_words(kernel_args: list[str]) -> list[str]:
    """The kernel arguments as the kernel reads them: it splits its line at
    blanks, whatever the shell made one argument."""
    return [w for a in kernel_args for w in a.split()]


def has_peer(kernel_args: list[str]) -> bool:
    """Whether the arguments give the wire benchmarks a peer (peer=)."""
    return any(w.startswith('peer=') for w in kernel_words(kernel_args))


def kernel_args_problem(kernel_args: list[str], variants_file: Path | None = None
                        ) -> str | None:
    """The same check for `bench=` and `variant=` given as kernel arguments
    (`kfront boot -- bench=...`); wire benchmarks count as reachable when
    the arguments carry peer=."""
    words = kernel_words(kernel_args)
    wire = has_peer(kernel_args)
    for arg in words:
        key, eq, value = arg.partition('=')
        if not eq or not value:
            continue
        if key == 'bench':
            problem = selection_problem(None, value, variants_file, wire, 'peer=')
        elif key == 'variant':
            problem = selection_problem(value, None, variants_file, wire)
        elif key == 'footprint' and re.fullmatch(r'\d+(,\d+)*', value):
            problem = footprint_problem(value)
            problem = problem and f'footprint=: {problem}'
        else:
            continue
        if problem:
            return problem.replace('--bench: ', 'bench=: ').replace('--variants: ',
                                                                    'variant=: ')
    return None
