# SPDX-License-Identifier: GPL-2.0-or-later
"""Reports: the files exist, the HTML is self-contained, every SVG parses,
TSC is labelled as a reference clock, and digits stay honest."""

import re
import tempfile
import unittest
import xml.etree.ElementTree as ET
from dataclasses import replace
from html.parser import HTMLParser
from pathlib import Path

from tests.py import FIXTURES
from kfront import collect, model, report, results


def build(name: str) -> model.Results:
    run = collect.collect_file(FIXTURES / f"{name}.log").runs[0]
    return model.from_dict(results.build_results(run, {"source": f"{name}.log"}),
                           f"{name}.log")


class _Refs(HTMLParser):
    """Collects attributes that could load something."""

    def __init__(self) -> None:
        super().__init__()
        self.refs: list[str] = []
        self.tags: set[str] = set()

    def handle_starttag(self, tag: str, attrs: list) -> None:
        self.tags.add(tag)
        for name, value in attrs:
            if name in ("src", "href", "xlink:href", "data") and value:
                self.refs.append(value)


class TestWriteAll(unittest.TestCase):
    def setUp(self) -> None:
        self._tmp = tempfile.TemporaryDirectory()
        self.out = Path(self._tmp.name)

    def tearDown(self) -> None:
        self._tmp.cleanup()

    def test_files_and_self_contained_html(self) -> None:
        for name in ("clean", "sweep", "flipped", "digest_mismatch"):
            with self.subTest(log=name):
                out = self.out / name
                paths = report.write_all(build(name), out)
                for p in paths:
                    self.assertTrue(p.is_file(), p)
                self.assertIn(out / "report.md", paths)
                page = (out / "report.html").read_text(encoding="utf-8")
                self.assertNotRegex(page, r"(?i)https?://")
                self.assertNotIn("url(", page)
                refs = _Refs()
                refs.feed(page)
                self.assertEqual(refs.refs, [])
                self.assertIn("svg", refs.tags)
                svgs = [p for p in paths if p.suffix == ".svg"]
                self.assertTrue(svgs)
                for s in svgs:
                    root = ET.parse(s).getroot()
                    self.assertEqual(root.tag, "{http://www.w3.org/2000/svg}svg")
                for inline in re.findall(r"<svg.*?</svg>", page, re.S):
                    ET.fromstring(inline)

    def test_chart_kinds(self) -> None:
        names = {p.name for p in report.write_all(build("clean"), self.out)}
        self.assertIn("bench-calib.memcpy20.svg", names)
        names = {p.name for p in report.write_all(build("sweep"),
                                                  self.out / "s")}
        self.assertIn("sweep-sweep.calls.svg", names)
        self.assertIn("sweep-sweep.calls-sim.l1i_misses.svg", names)
        svg = (self.out / "s" / "charts" / "sweep-sweep.calls.svg").read_text()
        for variant in ("O2", "Os", "hybrid"):
            self.assertIn(f">{variant}<", svg)
        self.assertEqual(svg.count("<polyline"), 3)

    def test_tsc_label_and_mismatch_at_top(self) -> None:
        report.write_all(build("digest_mismatch"), self.out)
        md = (self.out / "report.md").read_text(encoding="utf-8")
        self.assertIn("TSC ticks (reference clock, not core cycles)", md)
        first_section = md.split("\n## ")[0]
        self.assertIn("Verification digests differ on calib.calls",
                      first_section)
        self.assertIn("MISMATCH", md)
        chart = (self.out / "charts" / "bench-calib.calls.svg").read_text()
        self.assertIn("TSC ticks (reference clock, not core cycles)", chart)

    def test_unavailable_shown_with_reason(self) -> None:
        report.write_all(build("clean"), self.out)
        md = (self.out / "report.md").read_text(encoding="utf-8")
        self.assertRegex(md, r"Unavailable: cycles, .*QEMU TCG has no PMU")
        self.assertNotIn("core cycles per operation", md)


class TestTerminal(unittest.TestCase):
    def test_color_only_when_asked(self) -> None:
        r = build("digest_mismatch")
        plain = report.terminal_table(r, color=False)
        colored = report.terminal_table(r, color=True)
        self.assertNotIn("\x1b[", plain)
        self.assertIn(report.RED, colored)
        self.assertIn("MISMATCH", plain)
        self.assertNotIn("\x1b[", report.terminal_table(build("clean"), True))

    def test_tsc_not_invariant_is_said(self) -> None:
        r = build("clean")
        for invariant in (True, False):
            r.machine["tsc"] = dict(r.machine.get("tsc") or {},
                                    invariant=invariant)
            table = report.terminal_table(r, color=False)
            self.assertEqual("not invariant: its rate may follow" in table,
                             not invariant)

    def test_a_tsc_check_that_differs_is_said(self) -> None:
        # the kernel's second calibration (machine.tsc.check): shown in the
        # machine line, and an alert only when it differs by over 1 %
        r = build("clean")
        for check_hz, alert in ((2_096_030_000, False), (2_140_000_000, True)):
            r.machine["tsc"] = {"hz": 2_096_010_000, "source": "pit", "invariant": True,
                                "check": {"hz": check_hz, "source": "hpet"}}
            table = report.terminal_table(r, color=False)
            self.assertIn("checked against hpet", "\n".join(report._machine_lines(r)))
            self.assertEqual("differ by 2.1%" in table, alert, table[-600:])
        r.machine["tsc"] = {"hz": 2_096_010_000, "source": "cpuid15", "invariant": True}
        self.assertNotIn("checked against", "\n".join(report._machine_lines(r)))

    def test_hardware_event_names_shown(self) -> None:
        r = build("clean")
        r.counters.events = {"tsc": {"event": "RDTSC", "encoding": "rdtsc"}}
        table = report.terminal_table(r, color=False)
        self.assertIn("TSC ticks (reference clock, not core cycles) [RDTSC] "
                      "per operation", table)
        with tempfile.TemporaryDirectory() as tmp:
            report.write_all(r, Path(tmp))
            md = (Path(tmp) / "report.md").read_text(encoding="utf-8")
        self.assertIn("Event of tsc: RDTSC (rdtsc)", md)

    def test_run_order_rule_is_stated(self) -> None:
        self.assertIn("rotated", report.run_order_line("warm"))
        self.assertIn("same variant", report.run_order_line("warm"))
        self.assertIn("fixed order", report.run_order_line(None))
        r = build("clean")
        r.config["state"] = "cold"
        with tempfile.TemporaryDirectory() as tmp:
            report.write_all(r, Path(tmp))
            md = (Path(tmp) / "report.md").read_text(encoding="utf-8")
        self.assertIn("Runs: cold: each counted run follows", md)

    def test_chart_names_never_collide(self) -> None:
        """Bench `a-b` swept for counter `c` and bench `a` for counter
        `b-c` make one stem: both get their title's hash, others keep
        their plain name."""
        drawing = object()
        charts = [report.Chart("sweep-a-b-c", "a-b footprint sweep: c", drawing),
                  report.Chart("sweep-a-b-c", "a footprint sweep: b-c", drawing),
                  report.Chart("bench-x", "x", drawing)]
        names = [c.name for c in report.unique_names(charts)]
        self.assertEqual(len(set(names)), 3)
        self.assertRegex(names[0], r"^sweep-a-b-c-[0-9a-f]{8}$")
        self.assertEqual(names[2], "bench-x")
        self.assertEqual(names, [c.name for c in report.unique_names(charts)])

    def test_code_placement_is_stated(self) -> None:
        """Where the kernel's code ran (config.placement): loaded, given or
        random; nothing for documents without it (the host harness, older
        logs)."""
        self.assertIsNone(report.code_placement_line(None))
        self.assertIsNone(report.code_placement_line({"how": "loaded"}))
        loaded = report.code_placement_line(
            {"how": "loaded", "text_pa": "0x209000", "page": 9, "text_bytes": 1593344})
        self.assertIn("(1.52 MiB) ran from physical 0x209000, where the boot "
                      "loader put it (page 9 of a 2 MiB region)", loaded)
        self.assertIn("placement=N or placement=random", loaded)
        self.assertIn("a copy at physical 0x605000 (page 5 of a 2 MiB region, "
                      "placement=5)", report.code_placement_line(
                          {"how": "given", "text_pa": "0x605000", "page": 5,
                           "text_bytes": 1593344}))
        self.assertIn("drawn at boot by placement=random", report.code_placement_line(
            {"how": "random", "text_pa": "0x7d6000", "page": 470}))
        large = {"how": "loaded", "text_pa": "0x400000", "page": 0,
                 "text_bytes": 1593344, "page_bytes": 2 << 20}
        self.assertIn("ran from physical 0x400000, where the boot loader put it, "
                      "mapped with 2 MiB pages (textpages=2m)",
                      report.code_placement_line(large))
        self.assertIn("in 4 KiB pages", loaded)
        self.assertEqual(report.code_placement_short(large),
                         "kernel code at 0x400000 in 2 MiB pages (textpages=2m) "
                         "(page 0, as loaded)")
        self.assertIsNone(report.code_placement_short({"how": "loaded"}))
        r = build("clean")
        r.config["placement"] = {"how": "given", "text_pa": "0x605000", "page": 5,
                                 "text_bytes": 1593344}
        with tempfile.TemporaryDirectory() as tmp:
            report.write_all(r, Path(tmp))
            md = (Path(tmp) / "report.md").read_text(encoding="utf-8")
        self.assertIn("Code placement: the kernel's code (1.52 MiB) ran from a copy", md)
        self.assertNotIn("Code pages (host harness)", md)

    def test_host_code_pages_in_a_run_report(self) -> None:
        """kfront run's report names the host harness's code pages next to
        the kernel's placement (textpages=2m gives it --huge-text)."""
        r = build("clean")
        r.host = build("clean")
        r.host.config["text_pages"] = {"asked": "huge", "text_bytes": 1536625,
                                       "huge_bytes": 2 << 20}
        with tempfile.TemporaryDirectory() as tmp:
            report.write_all(r, Path(tmp))
            md = (Path(tmp) / "report.md").read_text(encoding="utf-8")
        self.assertIn("Code pages (host harness): the program's code (1.47 MiB) ran "
                      "from 2 MiB of anonymous huge pages", md)

    def test_weak_lfence_is_said(self) -> None:
        r = build("clean")
        r.machine["lfence"] = {"serialising": False,
                               "how": "DE_CFG unreadable (#GP)"}
        self.assertIn("LFENCE is not known to serialise",
                      report.terminal_table(r, color=False))
        r.machine["lfence"] = {"serialising": True, "how": "x"}
        self.assertNotIn("LFENCE is not known",
                         report.terminal_table(r, color=False))

    def test_significance_is_holm_corrected_and_unbounded_shown(self) -> None:
        ratio = model.Ratio(baseline="O2", value=1.5, lo=1.2, hi=1.9, method="m",
                            confidence=0.95, excludes_one=True, p=0.01,
                            p_holm=0.2, significant=False)
        self.assertNotIn("*", report.ratio_text(ratio, False).text)
        self.assertIn("*", report.ratio_text(replace(ratio, significant=True),
                                             False).text)
        # Results from before the correction: the uncorrected mark.
        old = replace(ratio, p=None, p_holm=None, significant=None)
        self.assertIn("*", report.ratio_text(old, False).text)
        unb = replace(ratio, hi=None, unbounded=True)
        self.assertIn("unbounded)", report.ratio_text(unb, False).text)
        table = report.terminal_table(build("clean"), color=False)
        self.assertIn("Holm", table)

    def test_zero_width_intervals_say_every_run_the_same(self) -> None:
        """Deterministic counts (the simulator's) give the same figure in
        every run: the tables say so instead of "1.0550541 [1.0550541,
        1.0550541]", which reads as a measured spread."""
        same = model.Ratio(baseline="O2", value=1.0550541, lo=1.0550541,
                           hi=1.0550541, method="m", confidence=0.95,
                           excludes_one=True, significant=True,
                           every_run_same=True)
        self.assertEqual(report.ratio_text(same, False).text,
                         "1.0550541 (every run the same) *")
        self.assertEqual(report.ratio_text(replace(same, value=1.0, lo=1.0, hi=1.0,
                                                   excludes_one=False,
                                                   significant=False),
                                           False).text,
                         "1 (every run the same)")
        # a zero-width interval from runs that were not all alike keeps
        # its bounds: "every run the same" is said of the runs only
        self.assertIn("[", report.ratio_text(replace(same, every_run_same=False),
                                             False).text)
        r = build("clean")
        e = r.results[0]
        c = next(iter(e.counters.values()))
        c.per_op = replace(c.per_op, ci=(c.per_op.median, c.per_op.median))
        c.samples = [c.samples[0]] * len(c.samples)
        value, ci = report.per_op_text(e, c)
        self.assertEqual(ci, "(every run the same)")
        self.assertNotIn("[", value)
        c.samples = c.samples[:-1] + [c.samples[0] + 1]
        self.assertTrue(report.per_op_text(e, c)[1].startswith("["))

    def test_digits_supported(self) -> None:
        table = report.terminal_table(build("clean"), color=False)
        # No per-op value is printed with more than 3 decimals at 1000 iters
        # (the resolution of integer counts), nor any ratio with more than 3.
        for number in re.findall(r"\d+\.(\d+)", table):
            self.assertLessEqual(len(number), 3, table)


if __name__ == "__main__":
    unittest.main()
