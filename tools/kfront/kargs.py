# SPDX-License-Identifier: GPL-2.0-or-later
"""The suite's command line, built in one place.

`kfront run`, `kfront host`, `kfront flags` and `kfront lava-job` all pass
the same selections to the suite (quick, variant=, bench=, footprint=,
state=, then the user's own arguments); only what comes before and after
differs. The kernel refuses a key given twice (status 2), so the builder
resolves its own layers here: a `leading` default is left out when the
selection or the user's arguments give that key, and a `trailing` argument
(one nothing may change) replaces any earlier one with its key. A key the
user repeats in their own arguments still reaches the kernel twice and is
refused there, with the kernel's message.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

# What --variants and --bench accept: comma-separated names or globs.
LIST_RE = re.compile(r'^[A-Za-z0-9_.*?\-]+(,[A-Za-z0-9_.*?\-]+)*$')


@dataclass(frozen=True)
class Selection:
    """What the suite should run, as the command's options gave it."""

    quick: bool = False
    variants: str | None = None
    bench: str | None = None
    footprint: str | None = None
    state: str | None = None
    extra: tuple[str, ...] = ()


def selection_args(sel: Selection) -> list[str]:
    """The selection as suite arguments, the user's extra ones last."""
    out = ['quick'] if sel.quick else []
    for key, value in (('variant', sel.variants), ('bench', sel.bench),
                       ('footprint', sel.footprint), ('state', sel.state)):
        if value:
            out.append(f'{key}={value}')
    return out + list(sel.extra)


def key_of(arg: str) -> str:
    """`runs=7` -> `runs`; a flag (`quick`) is its own key."""
    return arg.split('=', 1)[0]


def text_pages(kernel_args: list[str]) -> str:
    """The page size the kernel maps its code with: its textpages=, the
    last one given winning as in the kernel ('4k' by default). The
    simulator's iTLB and the host harness's --huge-text follow it."""
    value = '4k'
    for arg in kernel_args:
        key, _, val = arg.partition('=')
        if key == 'textpages':
            value = val
    return value


def build(sel: Selection, leading: tuple[str, ...] = (),
          trailing: tuple[str, ...] = ()) -> list[str]:
    """The full command line: leading defaults, the selection, trailing
    arguments that override anything before them; no key twice from
    different layers."""
    middle = selection_args(sel)
    given = {key_of(a) for a in middle}
    fixed = {key_of(a) for a in trailing}
    head = [a for a in leading if key_of(a) not in given | fixed]
    middle = [a for a in middle if key_of(a) not in fixed]
    return head + middle + list(trailing)


def list_problem(option: str, value: str | None) -> str | None:
    """A --variants/--bench style value that is not a list of names or globs."""
    if value is not None and not LIST_RE.match(value):
        return f'--{option} takes a comma-separated list of names or globs, got {value!r}'
    return None


def check_lists(variants: str | None, bench: str | None) -> str | None:
    """The first problem of the --variants and --bench values, or None."""
    return list_problem('variants', variants) or list_problem('bench', bench)
