# SPDX-License-Identifier: GPL-2.0-or-later
"""Which bodies Linux's string helpers ran in a run's variants.

A variant built with -DKFRONT_ASM_STRING takes memcpy and memset from
arch/x86/string_asm.c, which picks its body from CPUID as Linux does:
memcpy is a rep movsb where the CPU has FSRM, memset a rep stosb where
it has FSRS, otherwise each is a loop of moves. So the same variant runs
different instructions on different CPUs: QEMU TCG reports neither
feature (the simulator's figures are of the loops), this machine's Zen 5
reports FSRM only. The machine records list the features; this says
what followed from them, beside the figures they shaped.
"""
from __future__ import annotations

from typing import Any

DEFINE = '-DKFRONT_ASM_STRING'
TCG = 'TCGTCGTCGTCG'    # QEMU TCG's CPUID hypervisor signature


def asm_variants(variants: list[dict[str, Any]]) -> list[str]:
    return [str(v.get('name')) for v in variants
            if DEFINE in str(v.get('flags', '')).split()]


def bodies(machine: dict[str, Any]) -> str:
    """What memcpy and memset ran on a machine, from its record's
    features (the kernel and the host harness record every feature of
    arch/x86/cpu_detect.c's table the CPU has); says so when the record
    lists none (results from before features were recorded)."""
    feats = machine.get('features')
    if not isinstance(feats, list):
        return 'what memcpy and memset ran is not known (its machine record lists no CPU features)'
    have = set(map(str, feats))
    cpy = 'a rep movsb' if 'fsrm' in have else 'a loop of moves'
    st = 'a rep stosb' if 'fsrs' in have else 'a loop of moves'
    said = ', '.join(f'{f} {"yes" if f in have else "no"}' for f in ('fsrm', 'fsrs'))
    return f'memcpy was {cpy} and memset {st} ({said})'


def note(results: Any) -> str | None:
    """One line for a report whose variants use Linux's string helpers;
    None for the others."""
    names = asm_variants(results.variants)
    if not names:
        return None
    here = 'the host harness' if results.context == 'user' else 'the booted kernel'
    where = [(here, results.machine)]
    host = getattr(results, 'host', None)
    if host is not None:
        where.append(('the host harness', host.machine))
    said = '; '.join(f'in {label} {bodies(m or {})}' for label, m in where)
    kernel = results.machine or {}
    feats = kernel.get('features')
    tcg = (results.context != 'user' and kernel.get('hypervisor') == TCG
           and isinstance(feats, list) and not {'fsrm', 'fsrs'} & set(feats))
    return (f"Linux's string helpers ({DEFINE}: {', '.join(names)}): {said}"
            + ("; QEMU TCG reports neither feature, so the simulator's figures are of "
               "the loops" if tcg else "")
            + " (docs/hybrid.md, \"Linux's string helpers\").")
