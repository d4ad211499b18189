# SPDX-License-Identifier: GPL-2.0-or-later
# fesim plugin tests: the call graph, known answers.
"""The caller -> callee edges of tests/fesim/callcases/call_cases.S, the
same whether QEMU chains TBs, does not, or runs one instruction per TB;
and none without syms=.
"""
from __future__ import annotations

import json
import subprocess
import unittest

from fesim_support import QEMU, regions, run_plugin, tools


def setUpModule() -> None:
    tools()      # once per process; skips the module without qemu-x86_64


class CallGraph(unittest.TestCase):
    """Known answers of tests/fesim/callcases/call_cases.S: the "call"
    records count each caller -> callee edge made inside a region, for
    direct and indirect calls, whether QEMU chains the TBs or not."""

    def edges(self, args: str) -> dict[tuple[str, str], int]:
        t = tools()
        exe, syms = t.build_call_cases()
        out = t.dir / "calls.jsonl"
        subprocess.run([QEMU] + args.split() + [
                        "-plugin", f"{t.plugin},model=skylake,"
                        f"syms={syms},out={out}", str(exe)],
                       check=True, timeout=120)
        records = [json.loads(line) for line in out.read_text().splitlines()]
        names = {r["id"]: r["name"] for r in records if r["type"] == "func"}
        calls = [r for r in records if r["type"] == "call"]
        self.assertEqual(calls, sorted(calls, key=lambda r: (r["caller"],
                                                           r["callee"])))
        # the function rows' call counts agree with the edges
        region = regions(records)[0]
        cols = records[0]["func_columns"]
        for row in region["funcs"]:
            made = sum(r["count"] for r in calls if r["caller"] == row[0])
            self.assertEqual(row[cols.index("calls")], made, names[row[0]])
        return {(names[r["caller"]], names[r["callee"]]): r["count"]
                for r in calls}

    def test_known_edges(self) -> None:
        want = {("cg_main", "cg_f"): 1, ("cg_f", "cg_g"): 10,
                ("cg_f", "cg_h"): 3, ("cg_g", "cg_k"): 10}
        self.assertEqual(self.edges(""), want)
        # TBs not chained, and one instruction per TB: the same edges
        self.assertEqual(self.edges("-d nochain"), want)
        self.assertEqual(self.edges("-singlestep"), want)

    def test_no_edges_without_syms(self) -> None:
        records, _ = run_plugin(["straight"])
        self.assertFalse([r for r in records if r["type"] == "call"])


if __name__ == "__main__":
    unittest.main()
