# SPDX-License-Identifier: GPL-2.0-or-later
"""Function order of the pgo-layout variant (issue 21, docs/pgo.md).

Call-Chain Clustering (C3; Ottoni and Maher, "Optimizing function
placement for large-scale data-center applications", CGO 2017), over the
call graph the fesim plugin counts ("call" records, docs/fesim.md) and
the instructions each function executed (its function rows):

1. every function starts as a cluster of its own;
2. functions are taken hottest first (instructions executed); each is
   appended, with its whole cluster, to the end of the cluster of its
   most frequent caller, so a caller sits right before its callee,
   unless the two together would exceed MAX_CLUSTER bytes (one page:
   the unit C3 packs for the iTLB) or the merge would cut the caller
   cluster's density (instructions per byte) to less than
   1 / DENSITY_DEGRADE of what it was (a cold callee would then dilute
   hot code);
3. clusters are laid out densest first;
4. functions never executed come last, in their original order.

Here "hot" means executed instructions in the simulator, which stands in
for the paper's samples. Self calls and calls from never-executed
functions (none exist: a call executes its caller) do not merge.
"""
from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path

from kfront import sim

MAX_CLUSTER = 4096
DENSITY_DEGRADE = 8


@dataclass
class Cluster:
    funcs: list[str]
    size: int
    heat: int
    first: int          # original index of its first function: ties

    @property
    def density(self) -> float:
        return self.heat / max(self.size, 1)


@dataclass
class Graph:
    """Functions in their original order with size (bytes) and heat
    (instructions executed), and call counts caller -> callee."""
    sizes: dict[str, int] = field(default_factory=dict)
    heat: dict[str, int] = field(default_factory=dict)
    calls: dict[tuple[str, str], int] = field(default_factory=dict)


def c3(g: Graph, max_cluster: int = MAX_CLUSTER,
       degrade: int = DENSITY_DEGRADE) -> list[str]:
    """The functions of g in C3 order, never-executed ones last."""
    order = list(g.sizes)
    index = {f: i for i, f in enumerate(order)}
    cluster_of: dict[str, Cluster] = {}
    for f in order:
        cluster_of[f] = Cluster([f], max(g.sizes[f], 1), g.heat.get(f, 0), index[f])
    best_caller: dict[str, tuple[int, int, str]] = {}
    for (caller, callee), n in g.calls.items():
        if caller == callee or caller not in index or callee not in index or n <= 0:
            continue
        # most calls first; among equals the caller placed first originally
        key = (n, -index[caller], caller)
        if callee not in best_caller or key > best_caller[callee]:
            best_caller[callee] = key
    hot = sorted((f for f in order if g.heat.get(f, 0) > 0),
                 key=lambda f: (-g.heat[f], index[f]))
    for f in hot:
        if f not in best_caller:
            continue
        cp, cf = cluster_of[best_caller[f][2]], cluster_of[f]
        if cp is cf or cp.size + cf.size > max_cluster:
            continue
        merged_density = (cp.heat + cf.heat) / (cp.size + cf.size)
        if merged_density * degrade < cp.density:
            continue
        cp.funcs += cf.funcs
        cp.size += cf.size
        cp.heat += cf.heat
        for x in cf.funcs:
            cluster_of[x] = cp
    clusters: list[Cluster] = []
    seen: set[int] = set()
    for f in order:
        c = cluster_of[f]
        if id(c) not in seen and c.heat > 0:
            seen.add(id(c))
            clusters.append(c)
    clusters.sort(key=lambda c: (-c.density, c.first))
    placed = [f for c in clusters for f in c.funcs]
    done = set(placed)
    return placed + [f for f in order if f not in done]


def from_sim(out: sim.SimOutput, variant_funcs: dict[str, int],
             text: tuple[int, int] = (0, 1 << 64)) -> Graph:
    """The graph of one variant's functions from a fesim run (syms=):
    variant_funcs maps each function of the variant (original order) to
    its size; a simulated function counts when its name is one of them
    and its address lies in the variant's text [lo, hi) (other variants
    and the runtime have functions of the same names)."""
    lo, hi = text
    names = {fid: name for fid, (name, addr) in out.funcs.items()
             if lo <= addr < hi and name in variant_funcs}
    g = Graph(sizes=dict(variant_funcs))
    if 'insns' in out.func_columns:
        col = out.func_columns.index('insns')
        for region in out.regions.values():
            for row in region.get('funcs', []):
                name = names.get(int(row[0]))
                if name:
                    g.heat[name] = g.heat.get(name, 0) + int(row[col])
    for caller, callee, n in out.calls:
        a, b = names.get(caller), names.get(callee)
        if a and b:
            g.calls[(a, b)] = g.calls.get((a, b), 0) + n
    return g


def order_text(order: list[str]) -> str:
    return ''.join(f + '\n' for f in order)


def order_checksum(text: str) -> str:
    """The checksum of layout.txt's text (pgo_profile.load_layout)."""
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def write(pdir: Path, order: list[str], g: Graph, meta: dict) -> dict:
    """layout.txt (one function per line) and layout.json beside the
    profile: what it was made from (profile checksum, source tree) and
    its own checksum, which pgo_profile.load_layout checks."""
    text = order_text(order)
    (pdir / 'layout.txt').write_text(text, encoding='utf-8')
    info = {
        'method': 'c3', 'max_cluster': MAX_CLUSTER,
        'density_degrade': DENSITY_DEGRADE,
        'train': meta.get('train'), 'tree': meta.get('tree'),
        'profile_checksum': meta.get('checksum'),
        'checksum': order_checksum(text),
        'functions': len(order),
        'executed': sum(1 for f in order if g.heat.get(f, 0) > 0),
        'edges': len(g.calls),
    }
    (pdir / 'layout.json').write_text(json.dumps(info, indent=1) + '\n',
                                      encoding='utf-8')
    return info
