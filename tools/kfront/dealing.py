# SPDX-License-Identifier: GPL-2.0-or-later
"""Dealing work over parallel workers by cost: simulator settings and
benchmarks over boots (simjobs.py, benchsplit.py), test modules over test
workers (testpar.py)."""
from __future__ import annotations

from typing import Callable


def deal_by_cost(items: list[str], workers: int, cost: Callable[[str], float]
                 ) -> list[list[str]]:
    """The items over at most `workers` workers, costliest first, each to
    the worker with the least cost so far (the first of equals); each
    worker's items in their given order. No worker is left empty; no
    items, no workers."""
    loads = [0.0] * max(0, min(workers, len(items)))
    worker_of = {}
    for m in sorted(items, key=cost, reverse=True):
        k = loads.index(min(loads))
        worker_of[m] = k
        loads[k] += cost(m)
    return [[m for m in items if worker_of[m] == k] for k in range(len(loads))]
