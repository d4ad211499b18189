# SPDX-License-Identifier: GPL-2.0-or-later
"""The typed results model: every built document loads, a wrong field is
named with its file, older documents keep loading, alerts colour by kind."""

import contextlib
import io
import tempfile
import unittest
from pathlib import Path

from tests.py import FIXTURES
from kfront import cmd_report, collect, model, report, results


def built(name: str, run: int = 0) -> dict:
    got = collect.collect_file(FIXTURES / f"{name}.log")
    return results.build_results(got.runs[run], {"source": f"{name}.log"})


class TestLoad(unittest.TestCase):
    def test_every_fixture_run_loads(self) -> None:
        for name in ("clean", "sweep", "flipped", "digest_mismatch", "two_boots"):
            with self.subTest(log=name):
                for run in collect.collect_file(FIXTURES / f"{name}.log").runs:
                    typed = model.from_dict(results.build_results(run, {}), name)
                    self.assertTrue(typed.results)

    def test_saved_file_loads_with_the_same_figures(self) -> None:
        data = built("clean")
        with tempfile.TemporaryDirectory() as tmp:
            path = results.save(data, Path(tmp) / "results.json")
            typed = model.load(path)
        first, raw = typed.results[0], data["results"][0]
        self.assertEqual((first.bench, first.variant, first.iters),
                         (raw["bench"], raw["variant"], raw["iters"]))
        self.assertEqual(first.counters["tsc"].per_op.median,
                         raw["counters"]["tsc"]["per_op"]["median"])
        self.assertEqual(typed.baseline, data["baseline"])

    def test_wrong_field_is_named_with_its_file(self) -> None:
        data = built("clean")
        data["results"][3]["counters"]["tsc"]["per_op"]["median"] = "x"
        with self.assertRaises(results.ResultsError) as cm:
            model.from_dict(data, "results.json")
        self.assertEqual(str(cm.exception), "results.json: results[3].counters.tsc."
                         "per_op.median: expected a number, got 'x'")
        data = built("clean")
        del data["results"][0]["bench"]
        with self.assertRaisesRegex(results.ResultsError,
                                    r"^r\.json: results\[0\]\.bench: missing$"):
            model.from_dict(data, "r.json")
        data = built("clean")
        data["problems"] = [{"kind": "gap", "severity": "error", "line": "7",
                             "message": "m"}]
        with self.assertRaisesRegex(results.ResultsError,
                                    r"problems\[0\]\.line: expected an integer"):
            model.from_dict(data, "r.json")

    def test_older_documents_load(self) -> None:
        data = built("clean")
        for e in data["results"]:
            for key in ("state", "wire", "positions", "clamped", "overhead_spread"):
                e.pop(key, None)
            for c in e["counters"].values():
                for key in ("lag1", "autocorrelated", "se"):
                    c["per_op"].pop(key)
                if c["ratio"]:
                    for key in ("p", "p_holm", "significant"):
                        c["ratio"].pop(key)
        typed = model.from_dict(data, "old.json")
        ratios = [c.ratio for e in typed.results for c in e.counters.values() if c.ratio]
        self.assertTrue(ratios)
        self.assertTrue(all(r.marked == r.excludes_one for r in ratios))

    def test_report_command_names_the_field(self) -> None:
        data = built("clean")
        data["results"][1]["iters"] = 0
        with tempfile.TemporaryDirectory() as tmp:
            path = results.save(data, Path(tmp) / "results.json")
            err = io.StringIO()
            with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
                status = cmd_report.run(_Args(path))
        self.assertEqual(status, 2)
        self.assertIn(f"{path}: results[1].iters: expected an integer of at least 1, got 0",
                      err.getvalue())


class _Args:
    def __init__(self, path: Path) -> None:
        self.results = path
        self.out = None


class TestAlertKinds(unittest.TestCase):
    def test_red_by_kind_not_by_wording(self) -> None:
        typed = model.from_dict(built("clean"))
        # An LFENCE alert whose detail happens to say "digest" stays plain.
        typed.machine["lfence"] = {"serialising": False, "how": "digest of DE_CFG"}
        table = report.terminal_table(typed, color=True)
        self.assertIn("digest of DE_CFG", table)
        self.assertNotIn(report.RED, table)
        mismatch = model.from_dict(built("digest_mismatch"))
        kinds = {a.kind for a in report._alerts(mismatch)}
        self.assertIn(report.ALERT_DIGEST, kinds)
        self.assertIn(report.RED, report.terminal_table(mismatch, color=True))


if __name__ == "__main__":
    unittest.main()
