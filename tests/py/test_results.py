# SPDX-License-Identifier: GPL-2.0-or-later
"""results.json: schema fields, statistics per run and per operation,
ratios to O2, digests, unavailable counters and load/save."""

import json
import tempfile
import unittest
from pathlib import Path

from tests.py import FIXTURES
from kfront import collect, results
from kfront.records import make_line, parse_lines


def build(name: str, run: int = 0, extra: dict | None = None) -> dict:
    got = collect.collect_file(FIXTURES / f"{name}.log")
    return results.build_results(got.runs[run], extra or {})


class TestBuild(unittest.TestCase):
    def test_schema_and_context(self) -> None:
        r = build("clean", extra={"source": "clean.log", "accel": "tcg"})
        self.assertEqual(r["schema"], 1)
        self.assertEqual(r["context"], "kernel")
        self.assertTrue(r["complete"])
        self.assertEqual(r["source"], "clean.log")
        self.assertEqual(r["extra"], {"accel": "tcg"})
        self.assertEqual(r["baseline"], "O2")
        self.assertEqual([v["name"] for v in r["variants"]],
                         ["O2", "Os", "hybrid"])
        self.assertEqual(r["problems"], [])
        self.assertEqual(build("clean", extra={"context": "user"})["context"],
                         "user")
        json.dumps(r)   # serialisable as it is

    def test_per_run_and_per_op(self) -> None:
        r = build("clean")
        e = r["results"][0]
        c = e["counters"]["tsc"]
        n = len(c["samples"])
        self.assertEqual(c["per_run"]["n"], n)
        self.assertEqual(c["per_op"]["median"],
                         c["per_run"]["median"] / e["iters"])
        self.assertEqual(c["per_op"]["mad"], c["per_run"]["mad"] / e["iters"])
        lo, hi = c["per_op"]["ci"]
        self.assertLessEqual(lo, c["per_op"]["median"])
        self.assertGreaterEqual(hi, c["per_op"]["median"])

    def test_ratios(self) -> None:
        r = build("clean")
        by = {(e["bench"], e["variant"]): e for e in r["results"]}
        self.assertIsNone(by[("calib.memcpy20", "O2")]["counters"]["tsc"]
                          ["ratio"])
        os_ratio = by[("calib.memcpy20", "Os")]["counters"]["tsc"]["ratio"]
        self.assertAlmostEqual(os_ratio["value"], 1.35, delta=0.03)
        self.assertTrue(os_ratio["excludes_one"])
        empty = by[("calib.empty", "Os")]["counters"]["tsc"]["ratio"]
        self.assertFalse(empty["excludes_one"])
        # measured TSC ticks vary from run to run: said of the runs
        self.assertFalse(os_ratio["every_run_same"])

    def test_every_run_same_is_asked_of_the_runs(self) -> None:
        """A ratio records whether both variants gave one count in every
        run (the tables then say so instead of a zero-width interval)."""
        e = {"bench": "b", "group": 0, "variant": "Os", "iters": 10}
        ref = dict(e, variant="O2")
        c = {"samples": [30, 30, 30], "per_op": {"median": 3.0}}
        rc = {"samples": [20, 20, 20], "per_op": {"median": 2.0}}
        self.assertTrue(results._ratio_entry(e, ref, "sim.x", c, rc, "O2")["every_run_same"])
        c["samples"] = [30, 30, 31]
        self.assertFalse(results._ratio_entry(e, ref, "sim.x", c, rc, "O2")["every_run_same"])

    def test_holm_and_autocorrelation_fields(self) -> None:
        r = build("clean")
        ratios = [c["ratio"] for e in r["results"]
                  for c in e["counters"].values() if c["ratio"]]
        self.assertTrue(ratios)
        for ratio in ratios:
            self.assertGreaterEqual(ratio["p_holm"], ratio["p"])
            self.assertEqual(ratio["significant"], ratio["excludes_one"]
                             and ratio["p_holm"] < 0.05)
            self.assertEqual(ratio["effective"], ratio["resamples"])
        memcpy = [e for e in r["results"] if e["bench"] == "calib.memcpy20"
                  and e["variant"] == "Os"][0]["counters"]["tsc"]
        self.assertTrue(memcpy["ratio"]["significant"])
        self.assertIn("lag1", memcpy["per_op"])
        self.assertIsInstance(memcpy["per_op"]["autocorrelated"], bool)

    def test_event_encodings_from_the_machine_record(self) -> None:
        payloads = [
            {"t": "suite_begin", "machine": {"pmu": {"encodings": {
                "l1i_misses": {"event": "ICACHE_64B.IFTAG_MISS",
                               "encoding": "evtsel 0x430283"}}}}},
            {"t": "suite_end", "records": 1, "status": 0}]
        run = parse_lines([make_line(i, p) for i, p in
                           enumerate(payloads)]).runs[0]
        r = results.build_results(run, {})
        self.assertEqual(r["counters"]["events"]["l1i_misses"]["event"],
                         "ICACHE_64B.IFTAG_MISS")
        from kfront import model
        counters = model.from_dict(r).counters
        self.assertEqual(counters.event("l1i_misses"), "ICACHE_64B.IFTAG_MISS")
        self.assertEqual(counters.event("tsc"), "")

    def test_series_that_carries_state_is_flagged(self) -> None:
        payloads = [
            {"t": "suite_begin", "machine": {}},
            {"t": "result", "bench": "b", "variant": "O2", "iters": 1,
             "samples": {"tsc": list(range(100, 130))}, "digest": "x"},
            {"t": "suite_end", "records": 2, "status": 0}]
        run = parse_lines([make_line(i, p) for i, p in
                           enumerate(payloads)]).runs[0]
        po = results.build_results(run, {})["results"][0]["counters"]["tsc"][
            "per_op"]
        self.assertGreater(po["lag1"], 0.8)
        self.assertTrue(po["autocorrelated"])

    def test_deterministic(self) -> None:
        self.assertEqual(build("clean"), build("clean"))

    def test_unavailable_counters_have_reasons(self) -> None:
        r = build("clean")
        una = r["counters"]["unavailable"]
        self.assertIn("cycles", una)
        self.assertIn("QEMU TCG", una["cycles"])
        self.assertEqual(r["counters"]["measured"], ["tsc"])
        for e in r["results"]:
            self.assertEqual(list(e["counters"]), ["tsc"])

    def test_unavailable_counter_is_never_zero(self) -> None:
        machine = {"counters": ["tsc"], "unavailable": {"cycles": "no PMU"}}
        payloads = [
            {"t": "suite_begin", "machine": machine,
             "variants": [{"name": "O2"}]},
            {"t": "result", "bench": "b", "variant": "O2", "iters": 1,
             "samples": {"tsc": [5, 6, 7], "cycles": [0, 0, 0]},
             "digest": "1"},
            {"t": "suite_end", "records": 2, "status": 0}]
        run = parse_lines([make_line(i, p) for i, p in
                           enumerate(payloads)]).runs[0]
        r = results.build_results(run, {})
        self.assertNotIn("cycles", r["results"][0]["counters"])
        self.assertEqual([p["kind"] for p in r["problems"]], ["zero_counter"])

    def test_digest_mismatch(self) -> None:
        r = build("digest_mismatch")
        self.assertEqual(len(r["digest_mismatches"]), 1)
        m = r["digest_mismatches"][0]
        self.assertEqual(m["bench"], "calib.calls")
        self.assertNotEqual(m["digests"]["Os"], m["digests"]["O2"])
        self.assertEqual([p["kind"] for p in r["problems"]],
                         ["digest_mismatch"])
        self.assertTrue(r["complete"])   # the data arrived intact

    def test_incomplete_and_events(self) -> None:
        r = build("crash_reboot", 0)
        self.assertFalse(r["complete"])
        self.assertEqual([e["type"] for e in r["events"]], ["panic"])
        self.assertEqual(r["events"][0]["sym"], "calib_calls_os+0x1c")
        self.assertFalse(r["run"]["ended"])

    def test_footprint_field(self) -> None:
        r = build("sweep")
        fps = sorted({e["footprint"] for e in r["results"]})
        self.assertEqual(fps, [4096, 16384, 65536, 262144])
        self.assertIn("sim.l1i_misses", r["results"][0]["counters"])

    def test_save_and_load(self) -> None:
        r = build("clean")
        with tempfile.TemporaryDirectory() as tmp:
            path = results.save(r, Path(tmp) / "x" / "results.json")
            self.assertEqual(results.load(path), r)
            bad = Path(tmp) / "bad.json"
            bad.write_text('{"schema": 99, "results": []}')
            with self.assertRaises(results.ResultsError):
                results.load(bad)
            bad.write_text("not json")
            with self.assertRaises(results.ResultsError):
                results.load(bad)
            with self.assertRaises(results.ResultsError):
                results.load(Path(tmp) / "missing.json")

    def test_kernel_statistics_checked_and_used(self) -> None:
        def problems(samples: object, stats: dict) -> dict:
            payloads = [
                {"t": "suite_begin", "machine": {}},
                {"t": "result", "bench": "b", "variant": "O2", "iters": 2,
                 "samples": samples, "counters": {"tsc": stats},
                 "digest": "x"},
                {"t": "suite_end", "records": 2, "status": 0}]
            run = parse_lines([make_line(i, p) for i, p in
                               enumerate(payloads)]).runs[0]
            return results.build_results(run, {})

        even = {"tsc": [1, 10, 20, 30]}
        ok = {"median": 10, "min": 1, "max": 30, "mad": 5, "n": 4}
        self.assertEqual(problems(even, ok)["problems"], [])
        # One definition everywhere: the lower middle value, so a midpoint
        # from the kernel would be a mismatch.
        for wrong in (15, 25):
            bad = problems(even, dict(ok, median=wrong))
            self.assertEqual([p["kind"] for p in bad["problems"]],
                             ["stats_mismatch"])
        self.assertEqual(bad["results"][0]["counters"]["tsc"]["per_run"]
                         ["median"], 10)   # host value from the samples
        # Without samples the kernel's statistics are used, without an
        # interval.
        only = problems({}, ok)["results"][0]["counters"]["tsc"]
        self.assertEqual(only["per_op"]["median"], 5)
        self.assertIsNone(only["per_op"]["ci"])
        self.assertEqual(only["samples"], [])

    def test_zero_counters_and_odd_runs(self) -> None:
        """No usable counter, no results, no suite_begin: no crash."""
        from kfront import model, report
        payloads = [
            {"t": "suite_begin", "machine": {"counters": []}},
            {"t": "result", "bench": "b", "variant": "O2", "iters": 5,
             "samples": {}, "counters": {}, "digest": "x"},
            {"t": "result", "bench": "b", "variant": "Os", "iters": 0},
            {"t": "error", "bench": "c", "variant": "Os", "msg": "bad"},
            {"t": "timeout", "bench": "d", "variant": "O2",
             "budget_ms": 2000},
            {"t": "suite_end", "records": 5, "status": 1}]
        lines = [make_line(i, p) for i, p in enumerate(payloads)]
        cases = [lines, lines[:1], lines[1:]]
        with tempfile.TemporaryDirectory() as tmp:
            for i, case in enumerate(cases):
                for run in parse_lines(case).runs:
                    r = results.build_results(run, {})
                    json.dumps(r)
                    typed = model.from_dict(r, f"case {i}")
                    report.write_all(typed, Path(tmp) / str(i))
                    report.terminal_table(typed, color=False)
        r = results.build_results(parse_lines(lines).runs[0], {})
        self.assertEqual([e["type"] for e in r["events"]],
                         ["error", "timeout"])
        self.assertEqual(r["results"][0]["counters"], {})
        self.assertIn("malformed", [p["kind"] for p in r["problems"]])

    def test_out_of_range_integers_are_malformed(self) -> None:
        # A forged record (valid CRC) with integers beyond 64 bits used to
        # raise OverflowError in the statistics and stop the collection.
        huge = 10 ** 400
        payloads = [
            {"t": "suite_begin", "machine": {}},
            {"t": "result", "bench": "b", "variant": "O2", "iters": 2,
             "samples": {"tsc": [huge, 1, 2]}, "digest": "x"},
            {"t": "result", "bench": "b", "variant": "Os", "iters": 2,
             "counters": {"tsc": {"median": huge, "min": 0, "max": huge,
                                  "mad": 0, "n": 3}}, "digest": "x"},
            {"t": "result", "bench": "c", "variant": "O2", "iters": huge},
            {"t": "suite_end", "records": 4, "status": 0}]
        run = parse_lines([make_line(i, p) for i, p in
                           enumerate(payloads)]).runs[0]
        r = results.build_results(run, {})
        self.assertEqual([(p["kind"], p["line"]) for p in r["problems"]],
                         [("malformed", 2), ("malformed", 3),
                          ("malformed", 4)])
        self.assertEqual([e["counters"] for e in r["results"]], [{}, {}])

    def test_labels(self) -> None:
        self.assertEqual(results.counter_label("tsc"),
                         "TSC ticks (reference clock, not core cycles)")


if __name__ == "__main__":
    unittest.main()
