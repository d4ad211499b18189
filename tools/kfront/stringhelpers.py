# SPDX-License-Identifier: GPL-2.0-or-later
"""Which bodies Linux's string helpers ran in a run's variants.

A variant built with -DKFRONT_ASM_STRING takes memcpy and memset from
arch/x86/string_asm.c, which picks its body from CPUID as Linux does:
memcpy is a rep movsb where the CPU has FSRM, memset a rep stosb where
it has FSRS, otherwise each is a loop of moves. So the same variant runs
different instructions on different CPUs: QEMU TCG reports neither
feature (the simulator's figures are of the loops unless rep_string=
forces a body), this machine's Zen 5 reports FSRM only. The machine
records say what ran and what chose it (string_helpers); this puts it
beside the figures it shaped.
"""
from __future__ import annotations

from typing import Any

DEFINE = '-DKFRONT_ASM_STRING'
TCG = 'TCGTCGTCGTCG'    # QEMU TCG's CPUID hypervisor signature


def asm_variants(variants: list[dict[str, Any]]) -> list[str]:
    return [str(v.get('name')) for v in variants
            if DEFINE in str(v.get('flags', '')).split()]


def _features(machine: dict[str, Any]) -> set[str] | None:
    feats = machine.get('features')
    return set(map(str, feats)) if isinstance(feats, list) else None


def _said(have: set[str]) -> str:
    return ', '.join(f'{f} {"yes" if f in have else "no"}' for f in ('fsrm', 'fsrs'))


def chosen(machine: dict[str, Any]) -> tuple[str, str, str] | None:
    """(memcpy's body, memset's, what chose them) on a machine: its
    record's string_helpers (what ran, and cpuid or the rep_string= that
    forced it), else worked out from its CPU features (records from
    before string_helpers was recorded), else None."""
    sh = machine.get('string_helpers')
    if isinstance(sh, dict) and sh.get('memcpy') and sh.get('memset'):
        by = str(sh.get('by', 'cpuid'))
        return str(sh['memcpy']), str(sh['memset']), by
    have = _features(machine)
    if have is None:
        return None
    return ('rep movsb' if 'fsrm' in have else 'loop',
            'rep stosb' if 'fsrs' in have else 'loop', 'cpuid')


def bodies(machine: dict[str, Any]) -> str:
    """What memcpy and memset ran on a machine, and why; says so when its
    record tells neither."""
    got = chosen(machine)
    if got is None:
        return 'what memcpy and memset ran is not known (its machine record lists no CPU features)'
    cpy, st, by = got
    name = {'rep movsb': 'a rep movsb', 'rep stosb': 'a rep stosb'}
    have = _features(machine)
    if by != 'cpuid':
        why = f'rep_string={by}'
    else:
        why = f'CPUID: {_said(have)}' if have is not None else 'CPUID'

    return (f'memcpy was {name.get(cpy, "a loop of moves")} and memset '
            f'{name.get(st, "a loop of moves")} ({why})')


# What a run with lib/string.c's C helpers should be read with, when it
# has a stream workload: that copy loop decides their O2/Os difference
# (docs/hybrid.md: O2 loses 22 % to 29 % there by compiling it).
C_HELPERS = ("String helpers: each variant compiles lib/string.c's C memcpy, whose copy "
             "loop decides the O2/Os difference of the stream workloads on a real CPU "
             "(O2 calls it, Os copies in line); Linux's memcpy is assembly, the same under "
             "every -O level. "
             "`./kfront run --variants-file bench/variants-asm-string.ini` runs the same "
             "comparison with Linux-style helpers (docs/hybrid.md, \"Linux's string helpers\").")


def _has_stream(results: Any) -> bool:
    return any(str(e.bench).endswith('_stream') for e in results.results)


def note(results: Any) -> str | None:
    """One line for a report whose variants use Linux's string helpers,
    or whose variants compile the C ones and ran a stream workload; None
    for the others."""
    names = asm_variants(results.variants)
    if not names:
        return C_HELPERS if _has_stream(results) else None
    here = 'the host harness' if results.context == 'user' else 'the booted kernel'
    where = [(here, results.machine)]
    host = getattr(results, 'host', None)
    if host is not None:
        where.append(('the host harness', host.machine))
    said = '; '.join(f'in {label} {bodies(m or {})}' for label, m in where)
    kernel = results.machine or {}
    got = chosen(kernel)
    tcg = (results.context != 'user' and kernel.get('hypervisor') == TCG
           and got is not None and got[2] == 'cpuid' and got[:2] == ('loop', 'loop'))
    return (f"Linux's string helpers ({DEFINE}: {', '.join(names)}): {said}"
            + ("; QEMU TCG reports neither feature, so the simulator's figures are of "
               "the loops (rep_string=rep runs what a CPU with both would)" if tcg else "")
            + " (docs/hybrid.md, \"Linux's string helpers\").")
