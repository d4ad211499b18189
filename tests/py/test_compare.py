# SPDX-License-Identifier: GPL-2.0-or-later
"""compare: two results side by side."""

import argparse
import contextlib
import csv
import dataclasses
import io
import json
import tempfile
import unittest
from pathlib import Path

from tests.py import FIXTURES
from kfront import cli, cmd_compare, collect, compare, model, results, truth


def runs(name: str, context: str | None = None) -> list[model.Results]:
    got = collect.collect_file(FIXTURES / f"{name}.log")
    extra = {"source": name, **({"context": context} if context else {})}
    return [model.from_dict(results.build_results(r, dict(extra)), name)
            for r in got.runs]


class TestCompare(unittest.TestCase):
    def test_two_boots(self) -> None:
        a, b = runs("two_boots")
        cmp = compare.compare(a, b)
        self.assertEqual(len(cmp.rows), 9)
        self.assertEqual(cmp.only_a, [])
        for row in cmp.rows:
            self.assertAlmostEqual(row.ratio_value, 1.0, delta=0.05)
            self.assertIsNotNone(row.ratio)
            self.assertFalse(row.digest_differs)
        text = compare.format_comparison(a, b, cmp, color=False)
        self.assertIn("calib.memcpy20", text)
        self.assertNotIn("\x1b[", text)

    def test_digest_and_missing_results(self) -> None:
        (a,) = runs("clean")
        (b,) = runs("digest_mismatch")
        cmp = compare.compare(a, b)
        differ = [(r.bench, r.variant) for r in cmp.rows if r.digest_differs]
        self.assertEqual(differ, [("calib.calls", "Os")])
        text = compare.format_comparison(a, b, cmp, color=True)
        self.assertIn("\x1b[31", text)
        (c,) = runs("flipped")
        cmp = compare.compare(a, c)
        self.assertEqual(len(cmp.rows), 6)
        self.assertEqual(len(cmp.only_a), 3)
        self.assertTrue(any("incomplete" in n for n in cmp.notes))

    def test_significant_difference(self) -> None:
        (a,) = runs("clean")
        b = runs("clean")[0]
        for e in b.results:
            if e.variant == "Os":
                c = e.counters["tsc"]
                c.samples = [s * 2 for s in c.samples]
                c.per_op = dataclasses.replace(c.per_op,
                                               median=c.per_op.median * 2)
        cmp = compare.compare(a, b)
        sig = {(r.bench, r.variant) for r in cmp.rows if r.significant}
        self.assertEqual({v for _, v in sig}, {"Os"})

    def test_verdicts_of_the_two_runs(self) -> None:
        """Each side's verdict against its own baseline, by the rule of its
        verdict (verdict.outcome()), and how many agree: the same run twice
        agrees everywhere; a win made a loss is "reversed", a loss made a
        tie "differs". Only counters a verdict judges get one: the TSC of
        a host-harness run (context "user"), never a TCG guest's."""
        kernel = compare.compare(runs("clean")[0], runs("clean")[0])
        self.assertEqual([(r.a_verdict, r.b_verdict) for r in kernel.rows],
                         [(None, None)] * len(kernel.rows))
        self.assertEqual(compare.verdict_agreement(kernel), {})
        self.assertNotIn("Verdicts against the baseline",
                         compare.format_comparison(runs("clean")[0], runs("clean")[0], kernel,
                                                   color=False))
        (a,) = runs("clean", "user")
        cmp = compare.compare(a, runs("clean", "user")[0])
        got = {(r.bench, r.variant): (r.a_verdict, r.b_verdict) for r in cmp.rows}
        self.assertEqual(got[("calib.calls", "Os")], ("win", "win"))
        self.assertEqual(got[("calib.memcpy20", "hybrid")], ("loss", "loss"))
        self.assertEqual(got[("calib.empty", "Os")], ("tie", "tie"))
        self.assertEqual(got[("calib.calls", "O2")], (None, None))     # the baseline
        agreement = compare.verdict_agreement(cmp)["tsc"]
        self.assertEqual((agreement["rows"], agreement["differ"], agreement["reversed"]),
                         (6, [], []))
        self.assertEqual(agreement["agree"], {"win": 1, "loss": 2, "tie": 3})
        # real-CPU time in both: how far the ratios to the baseline moved
        # (not at all, the same run twice) against A's intervals
        self.assertIsNone(kernel.moves)
        self.assertEqual((cmp.moves["median"], cmp.moves["max"]), (0.0, 0.0))
        self.assertIn("Real-CPU time: a point's time ratio moved by a median of 0.0 % between "
                      "the runs (at most 0.0 %: ",
                      compare.format_comparison(a, a, cmp, color=False))

        b = runs("clean", "user")[0]
        for e in b.results:
            c = e.counters["tsc"]
            if (e.bench, e.variant) == ("calib.calls", "Os"):
                c.ratio = dataclasses.replace(c.ratio, value=1 / c.ratio.value)
            if (e.bench, e.variant) == ("calib.memcpy20", "hybrid"):
                c.ratio = dataclasses.replace(c.ratio, significant=False)
        cmp = compare.compare(a, b)
        agreement = compare.verdict_agreement(cmp)["tsc"]
        self.assertEqual([(r.bench, r.variant, r.a_verdict, r.b_verdict)
                          for r in agreement["reversed"]],
                         [("calib.calls", "Os", "win", "loss")])
        self.assertEqual([(r.bench, r.variant, r.a_verdict, r.b_verdict)
                          for r in agreement["differ"]],
                         [("calib.memcpy20", "hybrid", "loss", "tie")])
        text = compare.format_comparison(a, b, cmp, color=False)
        self.assertIn("win / loss !", text)
        self.assertIn("TSC: 4 of 6 agree (1 loss, 3 ties); 1 differ", text)
        self.assertIn("1 reversed (a win in one run, a loss in the other): "
                      "calib.calls Os (win in A, loss in B)", text)
        doc = cmd_compare.document(argparse.Namespace(a="A", b="B", fail_above=None), cmp,
                                   None)
        self.assertEqual(doc["verdicts"]["tsc"]["reversed"][0]["b_verdict"], "loss")
        self.assertEqual(doc["rows"][1]["a_verdict"], "tie")
        self.assertEqual(len(cmd_compare._csv_rows(cmp)[0]), len(cmd_compare.CSV_HEADERS))

    def test_emulator_time_has_no_ratio_to_the_baseline(self) -> None:
        """Two kfront run documents under TCG: their kernel TSC is emulator
        time, so the rows say so, give no ratio to the baseline and no
        verdict, and a note says what B/A still means."""
        run = collect.collect_file(FIXTURES / "real_quick.log").runs[0]
        data = results.build_results(run, {"source": "qemu"})
        data["truth"] = truth.decide(data["machine"], "tcg", []).to_dict()
        a, b = model.from_dict(data, "A"), model.from_dict(data, "B")
        cmp = compare.compare(a, b)
        self.assertEqual(cmp.emulator, {"tsc"})
        row = next(r for r in compare.table_rows(cmp) if r[1].text == "Os")
        self.assertEqual([c.text for c in row[2:3] + row[6:9]],
                         ["TSC (emulator time)", "-", "-", "-"])
        self.assertTrue(any("TSC (emulator time) is a TCG guest's TSC" in n for n in cmp.notes))

    def test_two_runs_compare_their_host_harnesses_too(self) -> None:
        """Two kfront run documents: after the kernel's rows, their host
        harnesses' (the real-CPU rows), with each run's own verdicts, a
        point its timing processes did not repeat counted as such; --json
        gives them under "host"."""
        def run_doc(flip: bool) -> dict:
            run = collect.collect_file(FIXTURES / "clean.log").runs[0]
            doc = results.build_results(run, {"source": "qemu"})
            host = results.build_results(run, {"source": "host.log", "context": "user"})
            if flip:
                host["extra"]["host_repeats"] = {"processes": 2, "baseline": "O2", "rows": [
                    {"bench": "calib.calls", "footprint": 0, "counter": "tsc",
                     "verdicts": {"Os": ["win", "tie"]}, "repeated": False,
                     "flipped_pairs": [["Os", "O2"]]}]}
            doc["host"] = host
            return doc
        with tempfile.TemporaryDirectory() as tmp:
            paths = []
            for name, flip in (("a.json", False), ("b.json", True)):
                path = Path(tmp) / name
                path.write_text(json.dumps(run_doc(flip)), encoding="utf-8")
                paths.append(path)
            out, err = io.StringIO(), io.StringIO()
            csv_file = Path(tmp) / "cmp.csv"
            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
                status = cli.main(["compare", str(paths[0]), str(paths[1]), "--json",
                                   "--csv", str(csv_file)])
            csv_rows = list(csv.DictReader(csv_file.open(encoding="utf-8")))
        self.assertEqual(status, 0, err.getvalue())
        # the CSV: the kernel's rows, then the host harnesses', told apart
        parts = [r["part"] for r in csv_rows]
        self.assertEqual(set(parts), {"own", "host"})
        self.assertEqual(parts, sorted(parts, key=lambda p: p == "host"))
        self.assertIn("not repeated", {r["b_verdict"] for r in csv_rows if r["part"] == "host"})
        text, doc = err.getvalue(), json.loads(out.getvalue())
        self.assertIn("Real-CPU time: the host harness of each run (A/host, B/host)", text)
        self.assertIn("calib.calls Os (win in A, not repeated in B)", text)
        host = doc["host"]["verdicts"]["tsc"]
        self.assertEqual(host["rows"], 6)
        self.assertEqual([(r["bench"], r["a_verdict"], r["b_verdict"]) for r in host["differ"]],
                         [("calib.calls", "win", "not repeated")])
        self.assertEqual(doc["verdicts"], {})       # the kernel's TSC: no verdicts
        self.assertIsNone(doc["moves"])
        self.assertEqual(doc["host"]["moves"]["median"], 0.0)
        self.assertIn("where A's 95 % intervals (median ±", text)

    def test_rebuilt_variants_noted(self) -> None:
        """Same names, other flags (bench/variants.ini against
        bench/variants-asm-string.ini): the note names the variants; the
        same build on two runs has none."""
        (a,) = runs("clean")
        self.assertFalse(any("flags differ" in n for n in compare.compare(a, runs("clean")[0]).notes))
        b = runs("clean")[0]
        b.variants = [dict(v, flags=v["flags"] + " -DKFRONT_ASM_STRING")
                      if v["name"] in ("O2", "Os") else v for v in b.variants]
        notes = [n for n in compare.compare(a, b).notes if "flags differ" in n]
        self.assertEqual(len(notes), 1)
        self.assertIn("compiler or flags differ for O2, Os (", notes[0])

    def test_simulated_history_note(self) -> None:
        """sim.* figures depend on what ran before a benchmark in its boot:
        comparing a boot that ran other benchmarks first says so."""
        def with_sim(r: model.Results) -> model.Results:
            for e in r.results:
                e.counters["sim.uop_misses"] = e.counters["tsc"]
            return r

        (a,) = runs("clean")
        (b,) = runs("clean")
        a, b = with_sim(a), with_sim(b)
        self.assertFalse(any("sim.*" in n for n in compare.compare(a, b).notes))
        first = a.results[0].bench
        later = [e for e in b.results if e.bench != first]
        self.assertLess(len(later), len(b.results))
        c = dataclasses.replace(b, results=later)
        notes = [n for n in compare.compare(a, c).notes if "sim.*" in n]
        self.assertEqual(len(notes), 1, compare.compare(a, c).notes)
        self.assertIn("ran other benchmarks before them", notes[0])
        self.assertIn(later[0].label, notes[0])
        self.assertIn("Note: sim.* figures",
                      compare.format_comparison(a, c, compare.compare(a, c),
                                                color=False))
        # a simulator that emptied its caches at every point's start (the
        # harness's flush marker) makes the order irrelevant
        flushed = {"sim": {"header": {"flush": True, "flushes": 12}}}
        fa = dataclasses.replace(a, extra=flushed)
        fc = dataclasses.replace(c, extra=flushed)
        self.assertFalse(any("sim.*" in n for n in compare.compare(fa, fc).notes))
        # ... on both sides: one boot from an older plugin still differs
        self.assertTrue(any("sim.*" in n for n in compare.compare(a, fc).notes))
        ignored = {"sim": {"header": {"flush": False, "flushes": 0}}}
        self.assertTrue(any("sim.*" in n for n in compare.compare(
            dataclasses.replace(a, extra=ignored), fc).notes))
        # without simulated counters compared, timings need no such note
        (d,) = runs("clean")
        e = dataclasses.replace(d, results=[x for x in d.results
                                            if x.bench != first])
        self.assertFalse(any("sim.*" in n for n in compare.compare(d, e).notes))

    def test_miss_counters_of_other_code_noted(self) -> None:
        """A run from before extra.sim.misses_of counted the harness's own
        misses in sim.MODEL.*_misses; one after it does not: compare says so."""
        from kfront import regions
        (a,) = runs("clean")
        old = dataclasses.replace(a, extra={"sim": {"header": {}}})
        new = dataclasses.replace(a, extra={"sim": {"misses_of": regions.MISSES_MEASURED}})
        notes = [n for n in compare.compare(old, new).notes if "miss counters" in n]
        self.assertEqual(len(notes), 1)
        self.assertIn("A whole region (written before misses_of), B measured code", notes[0])
        self.assertFalse([n for n in compare.compare(new, new).notes if "miss counters" in n])
        # both count the whole region, for different reasons: nothing to say
        rows_less = dataclasses.replace(
            a, extra={"sim": {"misses_of": regions.MISSES_WHOLE_REGION}})
        self.assertFalse([n for n in compare.compare(old, rows_less).notes
                          if "miss counters" in n])
        # callgrind's vg.i1_misses likewise (extra.valgrind)
        old_vg = dataclasses.replace(a, extra={"valgrind": {"tool": "callgrind"}})
        new_vg = dataclasses.replace(
            a, extra={"valgrind": {"misses_of": regions.MISSES_MEASURED}})
        notes = [n for n in compare.compare(old_vg, new_vg).notes if "miss counters" in n]
        self.assertEqual(len(notes), 1)
        self.assertTrue(notes[0].startswith("callgrind's miss counters count other code"))
        # runs without the simulator have nothing to say about it
        self.assertFalse([n for n in compare.compare(a, new).notes if "miss counters" in n])


if __name__ == "__main__":
    unittest.main()
