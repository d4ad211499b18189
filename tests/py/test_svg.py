# SPDX-License-Identifier: GPL-2.0-or-later
"""Charts: the axis covers every interval, labels fit the drawing (by the
same width estimate the charts are sized with), sweeps keep footprint 0,
and a chart without data is not drawn at all."""

import math
import re
import tempfile
import unittest
import xml.etree.ElementTree as ET
from pathlib import Path

from tests.py import FIXTURES
from kfront import collect, model, report, results, svg

NUM = r"(-?[0-9.]+)"


def text_extents(drawing: svg.Svg) -> list[tuple[str, float, float]]:
    """(text, left, right) of every unrotated text, by the charts' estimate."""
    out = []
    for part in drawing.parts:
        m = re.match(rf'<text x="{NUM}" y="{NUM}" text-anchor="(\w+)" font-size="(\d+)"'
                     r'(?P<rest>[^>]*)>(?P<text>[^<]*)</text>', part)
        if not m or "rotate" in m.group("rest"):
            continue
        x, anchor, size = float(m.group(1)), m.group(3), int(m.group(4))
        w = svg.text_width(m.group("text"), size)
        left = {"start": x, "middle": x - w / 2, "end": x - w}[anchor]
        out.append((m.group("text"), left, left + w))
    return out


class TestTicks(unittest.TestCase):
    def test_last_tick_covers_the_maximum(self) -> None:
        for lo, hi in ((0, 61.9), (0, 3700), (0, 1.0001), (-3.2, 7), (0, 2.115)):
            with self.subTest(hi=hi):
                ticks = svg.nice_ticks(lo, hi)
                self.assertLessEqual(ticks[0], lo)
                self.assertGreaterEqual(ticks[-1], hi)


class TestBarChart(unittest.TestCase):
    def bars(self, label: str = "hybrid (cold)") -> list[svg.Bar]:
        return [svg.Bar("O2", 60.0, 58.5, 61.9, "60.0", "#000"),
                svg.Bar(label, 42.6, -1.5, 44.0, "42.6", "#111")]

    def test_labels_inside_the_drawing(self) -> None:
        long = "a-very-long-variant-name-from-a-user-file (cold)"
        d = svg.bar_chart("t", [svg.Panel("calib.calls: TSC ticks (reference clock, "
                                          "not core cycles) per operation",
                                          self.bars(long), "TSC ticks per operation")])
        assert d is not None
        for text, left, right in text_extents(d):
            with self.subTest(text=text):
                self.assertGreaterEqual(left, 0)
                self.assertLessEqual(right, d.width)

    def test_whiskers_inside_the_plot(self) -> None:
        d = svg.bar_chart("t", [svg.Panel("p", self.bars(), "x")])
        assert d is not None
        for part in d.parts:
            for x in re.findall(rf'x[12]="{NUM}"', part):
                self.assertTrue(0 <= float(x) <= d.width, part)

    def test_no_bars_no_chart(self) -> None:
        self.assertIsNone(svg.bar_chart("t", [svg.Panel("p", [], "x")]))
        self.assertIsNone(svg.bar_chart("t", []))


class TestLineChart(unittest.TestCase):
    def test_footprint_zero_is_a_point(self) -> None:
        pts = [(0.0, 10.0, 9.0, 11.0), (32.0, 12.0, None, None), (128.0, 30.0, 29.0, 31.0)]
        d = svg.line_chart("sweep", [svg.Series("O2", pts, "#000")], "footprint", "per op")
        assert d is not None
        xml = d.render(True)
        self.assertEqual(xml.count("<circle"), 3)
        self.assertIn(">0</text>", xml)
        self.assertIn(svg.SWEEP_X_NOTE, xml)
        # evenly spaced: the same pitch between neighbours
        cx = [float(x) for x in re.findall(rf'<circle cx="{NUM}"', xml)]
        self.assertTrue(math.isclose(cx[1] - cx[0], cx[2] - cx[1], abs_tol=0.02))
        for text, left, right in text_extents(d):
            self.assertGreaterEqual(left, 0, text)
            self.assertLessEqual(right, d.width, text)

    def test_no_points_no_chart(self) -> None:
        self.assertIsNone(svg.line_chart("t", [svg.Series("O2", [], "#000")], "x", "y"))
        self.assertIsNone(svg.line_chart("t", [], "x", "y"))


class TestReportCharts(unittest.TestCase):
    def test_sweep_at_footprint_zero_is_drawn(self) -> None:
        run = collect.collect_file(FIXTURES / "sweep.log").runs[0]
        data = results.build_results(run, {"source": "sweep.log"})
        smallest = min(r["footprint"] for r in data["results"])
        for r in data["results"]:
            if r["footprint"] == smallest:
                r["footprint"] = 0
        res = model.from_dict(data, "sweep.log")
        with tempfile.TemporaryDirectory() as tmp:
            report.write_all(res, Path(tmp))
            chart = Path(tmp, "charts", "sweep-sweep.calls.svg").read_text()
        ET.fromstring(chart)
        self.assertIn(">0</text>", chart)
        self.assertEqual(chart.count("<circle"), 3 * 4)
        self.assertNotIn("no data", chart)

    def test_real_sweep_with_the_simulator(self) -> None:
        """A real --sim sweep from footprint 0 (tests/py/test_html_browser.py
        names the command): every sweep chart starts at 0."""
        res = model.load(FIXTURES / "real_sweep_sim.json")
        charts = {c.name: c for c in report.build_charts(res)}
        for bench in ("net.udp_stream", "mix.tcp_rr_wakeup"):
            for stem in (f"sweep-{bench}", f"sweep-{bench}-sim.skylake.l1i_misses"):
                with self.subTest(chart=stem):
                    xml = charts[stem].drawing.render(True)
                    ET.fromstring(xml)
                    self.assertIn('text-anchor="middle" font-size="10">0</text>', xml)
                    self.assertGreaterEqual(xml.count("<circle"), 8)

    def test_chart_without_values_not_emitted_nor_linked(self) -> None:
        run = collect.collect_file(FIXTURES / "clean.log").runs[0]
        data = results.build_results(run, {"source": "clean.log"})
        kept = [r for r in data["results"] if r["bench"] != "calib.calls"]
        for r in data["results"]:
            if r["bench"] == "calib.calls":
                r["counters"] = {}
        self.assertNotEqual(len(kept), len(data["results"]))
        res = model.from_dict(data, "clean.log")
        with tempfile.TemporaryDirectory() as tmp:
            paths = report.write_all(res, Path(tmp))
            page = Path(tmp, "report.html").read_text()
            md = Path(tmp, "report.md").read_text()
        self.assertNotIn("bench-calib.calls.svg", {p.name for p in paths})
        self.assertNotIn("charts/bench-calib.calls.svg", md)
        self.assertNotIn("calib.calls: cost per operation", page)


class TestHtml(unittest.TestCase):
    def test_phone_ready_markup(self) -> None:
        run = collect.collect_file(FIXTURES / "real_quick.log").runs[-1]
        res = model.from_dict(results.build_results(run, {"source": "q"}), "q")
        with tempfile.TemporaryDirectory() as tmp:
            report.write_all(res, Path(tmp))
            page = Path(tmp, "report.html").read_text()
        self.assertIn('<meta name="viewport" content="width=device-width, '
                      'initial-scale=1">', page)
        self.assertEqual(page.count("<table"), page.count('<div class="scroll"><table'))
        self.assertIn("figure svg{max-width:100%;height:auto}", page)
        self.assertIn('class="sortable"', page)
        self.assertEqual(page.count("<script>"), 1)


if __name__ == "__main__":
    unittest.main()
