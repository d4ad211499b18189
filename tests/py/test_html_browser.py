# SPDX-License-Identifier: GPL-2.0-or-later
"""report.html in a real browser: headless Chromium lays the reports of
realistic fixtures (a real quick run, a real footprint sweep with the
simulator, a synthetic sweep, a digest mismatch) out at a
phone's width (390 px) and a desktop's (1400 px), and a script measures
them: no element reaches past the page's width (tables may only scroll
inside their own box), no part of a chart falls outside its drawing, and a
click on a column heading sorts the table.

One browser start for every page and width: each report is an iframe of a
wrapper page (srcdoc, so the frames share the wrapper's origin and write
their measurements into it), and `--dump-dom` prints the wrapper. Skipped,
with the reason, where Chromium is not installed (`./kfront setup` installs
Debian's chromium).
"""

import html
import json
import os
import re
import shutil
import subprocess
import tempfile
import unittest
from pathlib import Path

from tests.py import FIXTURES
from kfront import collect, model, report, results

WIDTHS = (390, 1400)
# Serial logs, and real_sweep_sim.json: the results.json of
#   ./kfront run --quick --sim skylake --bench net.udp_stream,mix.tcp_rr_wakeup \
#       --footprint 0,32,64,128 -- runs=5
# (a loaded 2-core machine: some points timed out, as they do) trimmed to
# stay small: no sizes, no sim_functions, of the sim counters only
# sim.instructions and skylake's l1i and uop misses.
FIXTURE_LOGS = ("real_quick", "real_sweep_sim", "sweep", "digest_mismatch")
BROWSER_TIMEOUT_S = 60

# Runs inside each report frame once it is parsed. An element overflows
# when its box ends left of 0 or right of the frame's layout width and no
# ancestor scrolls sideways. Chart parts are compared with their <svg>.
MEASURE = r"""
<script>
(function () {
  var doc = document.documentElement, vw = doc.clientWidth, over = [], clip = [];
  function scrolls(el) {
    for (var p = el.parentElement; p; p = p.parentElement) {
      var o = getComputedStyle(p).overflowX;
      if (o === "auto" || o === "scroll") return true;
    }
    return false;
  }
  function what(el) {
    return el.tagName + " " + (el.textContent || "").trim().slice(0, 50);
  }
  document.querySelectorAll("body *").forEach(function (el) {
    if (el.closest("svg") && el.tagName.toLowerCase() !== "svg") return;
    var r = el.getBoundingClientRect();
    if (r.width === 0 && r.height === 0) return;
    if ((r.right > vw + 0.5 || r.left < -0.5) && !scrolls(el))
      over.push(what(el) + " [" + r.left.toFixed(1) + ", " + r.right.toFixed(1) + "]");
  });
  document.querySelectorAll("svg").forEach(function (svg) {
    var b = svg.getBoundingClientRect();
    svg.querySelectorAll("text, line, rect, circle, polyline").forEach(function (el) {
      var r = el.getBoundingClientRect();
      if (r.left < b.left - 1 || r.right > b.right + 1 ||
          r.top < b.top - 1 || r.bottom > b.bottom + 1)
        clip.push(what(el) + " in " + svg.querySelector("title").textContent);
    });
  });
  var sorted = [], table = document.querySelector("table.sortable");
  if (table) {
    var th = table.querySelector("th");
    for (var i = 0; i < 2; i++) {
      th.click();
      sorted.push(Array.from(table.tBodies[0].rows, function (r) {
        return r.cells[0].textContent;
      }));
    }
  }
  var out = parent.document.getElementById("out");
  out.textContent += JSON.stringify({
    frame: window.frameElement.id, vw: vw, scroll_width: doc.scrollWidth,
    overflow: over, clipped: clip, sorted: sorted,
    svgs: document.querySelectorAll("svg").length}) + "\n";
})();
</script>
"""


def chromium() -> str | None:
    return shutil.which("chromium") or shutil.which("chromium-browser")


def report_html(name: str, outdir: Path) -> str:
    if (FIXTURES / f"{name}.json").is_file():
        res = model.load(FIXTURES / f"{name}.json")
    else:
        run = collect.collect_file(FIXTURES / f"{name}.log").runs[-1]
        res = model.from_dict(results.build_results(run, {"source": f"{name}.log"}),
                              f"{name}.log")
    report.write_all(res, outdir / name)
    return (outdir / name / "report.html").read_text(encoding="utf-8")


def wrapper_page(pages: dict[str, str]) -> str:
    frames = []
    for name, page in pages.items():
        idx = page.rindex("</body>")
        measured = page[:idx] + MEASURE + page[idx:]
        for width in WIDTHS:
            frames.append(f'<iframe id="{name}@{width}" width="{width}" height="900" '
                          f'srcdoc="{html.escape(measured, quote=True)}"></iframe>')
    return "<!DOCTYPE html><html><body><pre id=\"out\"></pre>" + \
        "".join(frames) + "</body></html>"


@unittest.skipUnless(chromium(), "chromium is not installed (./kfront setup installs it)")
class TestReportInBrowser(unittest.TestCase):
    measured: dict[str, dict] = {}

    @classmethod
    def setUpClass(cls) -> None:
        with tempfile.TemporaryDirectory() as tmp:
            out = Path(tmp)
            pages = {name: report_html(name, out) for name in FIXTURE_LOGS}
            wrapper = out / "wrapper.html"
            wrapper.write_text(wrapper_page(pages), encoding="utf-8")
            env = dict(os.environ, DBUS_SESSION_BUS_ADDRESS="disabled:")
            res = subprocess.run(
                [str(chromium()), "--headless", "--no-sandbox", "--disable-gpu",
                 "--no-first-run", "--user-data-dir=" + str(out / "profile"),
                 "--window-size=1500,1000", "--dump-dom", wrapper.as_uri()],
                capture_output=True, text=True, timeout=BROWSER_TIMEOUT_S, env=env)
        match = re.search(r'<pre id="out">(.*?)</pre>', res.stdout, re.S)
        if not match:
            raise AssertionError(f"chromium printed no measurements (status "
                                 f"{res.returncode}): {res.stderr[-2000:]}")
        for line in html.unescape(match.group(1)).splitlines():
            item = json.loads(line)
            cls.measured[item["frame"]] = item

    def test_every_page_was_measured(self) -> None:
        want = {f"{n}@{w}" for n in FIXTURE_LOGS for w in WIDTHS}
        self.assertEqual(set(self.measured), want)
        for key, m in self.measured.items():
            with self.subTest(frame=key):
                width = int(key.split("@")[1])
                # the layout width is the frame's, less a scroll bar at most
                self.assertLessEqual(m["vw"], width)
                self.assertGreater(m["vw"], width - 30)
                self.assertGreater(m["svgs"], 0)

    def test_nothing_overflows_the_page(self) -> None:
        for key, m in self.measured.items():
            with self.subTest(frame=key):
                self.assertEqual(m["overflow"], [])
                self.assertLessEqual(m["scroll_width"], m["vw"])

    def test_charts_not_clipped(self) -> None:
        for key, m in self.measured.items():
            with self.subTest(frame=key):
                self.assertEqual(m["clipped"], [])

    def test_click_sorts_the_table(self) -> None:
        for key, m in self.measured.items():
            with self.subTest(frame=key):
                up, down = m["sorted"]
                self.assertEqual(up, sorted(up))
                self.assertEqual(down, sorted(up, reverse=True))


if __name__ == "__main__":
    unittest.main()
