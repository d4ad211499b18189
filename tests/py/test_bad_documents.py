# SPDX-License-Identifier: GPL-2.0-or-later
"""Records and results documents with fields of the wrong type, NaN,
huge integers or deep nesting: a `malformed` problem (collect) or a
one-line error with exit status 2 (report, compare, explain, pgo --goals),
never a traceback, and nothing lost or half written."""

from __future__ import annotations

import copy
import io
import json
import subprocess
import tempfile
import unittest
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path
from typing import Any, Callable

from tests.py import FIXTURES
from kfront import cli, collect, model, records, report, results

ROOT = Path(__file__).resolve().parents[2]
CLEAN = FIXTURES / "clean.log"


def mutated_log(kind: str, change: Callable[[dict[str, Any]], None]
                ) -> tuple[list[bytes], int]:
    """clean.log's lines with the first record of `kind` changed and
    re-signed (a valid CRC: only the field types are wrong), and its line
    number. Bytes: the log has console text that is not UTF-8."""
    lines = CLEAN.read_bytes().split(b"\n")
    for i, line in enumerate(lines):
        rec = records.parse_line(line)
        if isinstance(rec, records.Record) and rec.type == kind:
            payload = copy.deepcopy(rec.payload)
            change(payload)
            lines[i] = records.make_line(rec.seq, payload, rec.version).encode()
            return lines, i + 1
    raise AssertionError(f"no {kind} record in {CLEAN}")


def setter(path: str, value: Any) -> Callable[[dict[str, Any]], None]:
    """A change that sets the dotted field `path` to `value`."""
    *parents, last = path.split(".")

    def change(payload: dict[str, Any]) -> None:
        for name in parents:
            payload = payload[name]
        payload[last] = value
    return change


def run_cli(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        status = cli.main(list(argv))
    return status, out.getvalue(), err.getvalue()


def clean_document() -> dict[str, Any]:
    run = collect.collect_file(CLEAN).runs[0]
    return results.build_results(run, {"source": "clean.log"})


class MistypedRecords(unittest.TestCase):
    """D6: a record whose fields have the wrong type is a `malformed`
    problem at its line and is left out; everything else is kept."""

    RESULT_CASES = {
        "group": {"a": 1}, "footprint": [], "per_region": [{"a": 1}],
        "op": 5, "method": 7, "runs": "x", "overhead": [1], "digest": [1],
    }
    FOOTPRINTS = ("big", 1.5)
    BEGIN_CASES = {
        "machine.tsc": 5, "machine.lfence": "yes", "machine.pmu": "x",
        "config.state": [], "config": [1], "context": 3, "kfront": {},
        "git": [1],
    }

    def check(self, kind: str, field: str, value: Any) -> None:
        lines, lineno = mutated_log(kind, setter(field, value))
        clean = collect.collect_file(CLEAN).runs[0]
        got = collect.collect_lines(lines, "bad.log")
        self.assertIn(("malformed", lineno),
                      [(p.kind, p.line) for p in got.problems])
        self.assertEqual(len(got.runs), 1)
        run = got.runs[0]
        # the record is left out, every other one kept
        self.assertEqual(len(run.by_seq), len(clean.by_seq) - 1)
        doc = results.build_results(run, {})
        json.dumps(doc, allow_nan=False)
        want = len(clean.of_type("result")) - (kind == "result")
        self.assertEqual(len(doc["results"]), want)
        typed = model.from_dict(doc, "bad")
        with tempfile.TemporaryDirectory() as tmp:
            report.write_all(typed, Path(tmp))
        report.terminal_table(typed, color=False)

    def test_result_fields(self) -> None:
        for field, value in self.RESULT_CASES.items():
            with self.subTest(field=field):
                self.check("result", field, value)
        for value in self.FOOTPRINTS:
            with self.subTest(footprint=value):
                self.check("result", "footprint", value)

    def test_suite_begin_fields(self) -> None:
        for field, value in self.BEGIN_CASES.items():
            with self.subTest(field=field):
                self.check("suite_begin", field, value)

    def test_nan_in_a_record_is_malformed(self) -> None:
        lines, lineno = mutated_log("result", setter("runs", 1))
        rec = records.parse_line(lines[lineno - 1])
        lines[lineno - 1] = records.make_line(
            rec.seq, rec.raw.decode().replace('"runs":1', '"runs":NaN')).encode()
        got = collect.collect_lines(lines, "bad.log")
        self.assertIn(("malformed", lineno),
                      [(p.kind, p.line) for p in got.problems])

    def test_collect_keeps_the_next_log(self) -> None:
        """A bad record in the first log loses nothing of the second."""
        lines, _ = mutated_log("suite_begin", setter("machine.tsc", 5))
        with tempfile.TemporaryDirectory() as tmp:
            bad = Path(tmp) / "bad.log"
            bad.write_bytes(b"\n".join(lines))
            out = Path(tmp) / "out"
            proc = subprocess.run(
                [str(ROOT / "kfront"), "collect", str(bad), str(CLEAN),
                 "--out", str(out)], capture_output=True, text=True)
            self.assertNotIn("Traceback", proc.stderr + proc.stdout)
            self.assertIn(proc.returncode, (0, 1), proc.stderr)
            self.assertIn("malformed", proc.stderr + proc.stdout)
            self.assertEqual(len(list(out.rglob("results.json"))), 2,
                             proc.stderr)


class BadResultsDocuments(unittest.TestCase):
    """D7: a results document with wrong types, NaN, infinity, huge
    integers or deep nesting is refused by the loader, naming the file and
    the field, before anything is written."""

    def setUp(self) -> None:
        self.tmp = Path(tempfile.mkdtemp(prefix="kfront-bad-doc-"))
        self.addCleanup(subprocess.run, ["rm", "-rf", str(self.tmp)])
        self.good = self.tmp / "good.json"
        self.good.write_text(json.dumps(clean_document()), encoding="utf-8")

    def write(self, name: str, text: str) -> Path:
        path = self.tmp / name / "results.json"
        path.parent.mkdir()
        path.write_text(text, encoding="utf-8")
        return path

    def mutated(self, name: str, change: Callable[[dict[str, Any]], None]
                ) -> Path:
        doc = clean_document()
        change(doc)
        return self.write(name, json.dumps(doc))

    def refused(self, path: Path, field: str) -> None:
        with self.assertRaises(results.ResultsError) as cm:
            model.load(path)
        msg = str(cm.exception)
        self.assertIn(str(path), msg)
        self.assertIn(field, msg)
        self.assertNotIn("\n", msg)
        status, _, err = run_cli("report", str(path))
        self.assertEqual(status, 2)
        self.assertEqual(len(err.strip().splitlines()), 1, err)
        self.assertFalse((path.parent / "report.md").exists())
        self.assertFalse((path.parent / "report.html").exists())
        status, _, err = run_cli("compare", str(self.good), str(path),
                                 "--fail-above", "5")
        self.assertEqual(status, 2)
        self.assertIn(field, err)

    def first_result(self, change: Callable[[dict[str, Any]], None]
                     ) -> Callable[[dict[str, Any]], None]:
        return lambda doc: change(doc["results"][0])

    def test_wrong_types(self) -> None:
        cases: dict[str, tuple[Callable[[dict[str, Any]], None], str]] = {
            "events": (setter("events", [{"type": 5}]), "events[0].type"),
            "tsc": (setter("machine.tsc", 5), "machine.tsc"),
            "sizes": (setter("sizes", [{"a": 1}]), "sizes[0].variant"),
            "truth": (setter("truth", {"x": [1]}), "truth.pmu"),
            "state": (setter("config", {"state": []}), "config.state"),
        }
        for name, (change, field) in cases.items():
            with self.subTest(name):
                self.refused(self.mutated(name, change), field)

    def test_absurd_numbers(self) -> None:
        def samples(r: dict[str, Any]) -> None:
            r["counters"]["tsc"]["samples"][0] = 10 ** 400
        cases = {
            "iters": (self.first_result(setter("iters", 10 ** 400)),
                      "results[0].iters"),
            "samples": (self.first_result(samples),
                        "results[0].counters.tsc.samples[0]"),
        }
        for name, (change, field) in cases.items():
            with self.subTest(name):
                self.refused(self.mutated(name, change), field)

    def test_impossible_values(self) -> None:
        """Figures of the right type that no run can give: a median below
        its minimum or below zero, no runs, a negative sample, footprint
        or ratio, an interval upside down. The report would print them as
        if measured (a median of -5 showed as 0)."""
        def op(field: str, value: Any) -> Callable[[dict[str, Any]], None]:
            def change(r: dict[str, Any]) -> None:
                r["counters"]["tsc"]["per_op"][field] = value
            return change

        def sample(r: dict[str, Any]) -> None:
            r["counters"]["tsc"]["samples"][0] = -1

        def ratio(field: str, value: float) -> Callable[[dict[str, Any]], None]:
            def change(doc: dict[str, Any]) -> None:
                rows = [r for r in doc["results"]
                        if r["counters"]["tsc"].get("ratio")]
                rows[0]["counters"]["tsc"]["ratio"][field] = value
            return change
        tsc = "results[0].counters.tsc"
        cases = {
            "negative median": (self.first_result(op("median", -5.0)),
                                f"{tsc}.per_op.median"),
            "median above max": (self.first_result(op("median", 1e12)),
                                 f"{tsc}.per_op.median"),
            "no runs": (self.first_result(op("n", 0)), f"{tsc}.per_op.n"),
            "negative mad": (self.first_result(op("mad", -1)), f"{tsc}.per_op.mad"),
            "ci upside down": (self.first_result(op("ci", [2.0, 1.0])),
                               f"{tsc}.per_op.ci"),
            "negative sample": (self.first_result(sample), f"{tsc}.samples[0]"),
            "negative footprint": (self.first_result(setter("footprint", -3)),
                                   "results[0].footprint"),
            "no counted runs": (self.first_result(setter("runs", 0)),
                                "results[0].runs"),
            "negative ratio": (ratio("value", -0.5), "ratio.value"),
            "ratio interval upside down": (ratio("lo", 1e9), "ratio.lo"),
        }
        for name, (change, field) in cases.items():
            with self.subTest(name):
                self.refused(self.mutated(name.replace(" ", "-"), change), field)

    def test_nan_and_infinity(self) -> None:
        for const in ("NaN", "Infinity", "-Infinity", "1e999"):
            with self.subTest(const):
                doc = clean_document()
                doc["results"][0]["counters"]["tsc"]["per_op"]["median"] = "@"
                text = json.dumps(doc).replace('"@"', const)
                self.refused(self.write(const, text),
                             "results[0].counters.tsc.per_op.median")

    def test_nan_never_passes_the_gate(self) -> None:
        """compare --fail-above on NaN medians is an error, not "no
        regression" with exit 0."""
        doc = clean_document()
        for r in doc["results"]:
            for c in r["counters"].values():
                c["per_op"]["median"] = "@"
        path = self.write("nanslow", json.dumps(doc).replace('"@"', "NaN"))
        status, out, err = run_cli("compare", str(self.good), str(path),
                                   "--fail-above", "5")
        self.assertEqual(status, 2)
        self.assertNotIn("no regression", out)

    def test_deep_nesting(self) -> None:
        for depth in (100, 100000):
            with self.subTest(depth=depth):
                text = '{"schema":' + "[" * depth + "]" * depth + "}"
                path = self.write(f"deep{depth}", text)
                for argv in (["report", str(path)],
                             ["compare", str(self.good), str(path)],
                             ["explain", str(path), "--bench", "x"]):
                    status, _, err = run_cli(*argv)
                    self.assertEqual(status, 2, argv)
                    self.assertEqual(len(err.strip().splitlines()), 1, err)
                proc = subprocess.run(
                    [str(ROOT / "kfront"), "pgo", "--goals", str(path)],
                    capture_output=True, text=True)
                self.assertEqual(proc.returncode, 2, proc.stderr)
                self.assertNotIn("Traceback", proc.stderr)


class BadExplainAndGoals(unittest.TestCase):
    """D8: explain and pgo --goals on documents of the wrong shape."""

    def setUp(self) -> None:
        self.tmp = Path(tempfile.mkdtemp(prefix="kfront-bad-doc-"))
        self.addCleanup(subprocess.run, ["rm", "-rf", str(self.tmp)])

    def write(self, i: int, doc: Any) -> Path:
        path = self.tmp / f"{i}.json"
        path.write_text(json.dumps(doc), encoding="utf-8")
        return path

    def test_explain(self) -> None:
        for i, doc in enumerate(([1, 2], {"results": 5}, {"results": [5]},
                                 {"results": [{"bench": "x", "variant": "O2",
                                               "sim_functions": {"top": 5}}]})):
            with self.subTest(doc=doc):
                status, _, err = run_cli("explain", str(self.write(i, doc)),
                                         "--bench", "x")
                self.assertEqual(status, 2)
                self.assertEqual(len(err.strip().splitlines()), 1, err)

    def test_pgo_goals(self) -> None:
        good = [{"bench": "net.udp_rr", "variant": v,
                 "counters": {"tsc": {"per_op": {"median": 1.0}}}}
                for v in ("O2", "Os", "pgo")]
        for i, doc in enumerate(({"results": 5}, {"results": [5]},
                                 {"results": good, "pgo": 5},
                                 {"results": good, "pgo": {"train": 5}})):
            with self.subTest(doc=doc):
                proc = subprocess.run(
                    [str(ROOT / "kfront"), "pgo", "--goals",
                     str(self.write(i, doc)), "--variant", "pgo"],
                    capture_output=True, text=True)
                self.assertEqual(proc.returncode, 2, proc.stderr)
                self.assertNotIn("Traceback", proc.stderr)
                self.assertEqual(len(proc.stderr.strip().splitlines()), 1)


if __name__ == "__main__":
    unittest.main()
