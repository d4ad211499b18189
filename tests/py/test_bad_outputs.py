# SPDX-License-Identifier: GPL-2.0-or-later
"""Bad output paths lose no data and end in a one-line error: a --csv that
is an input, an --out folder that already holds a run, a file that cannot
be written, text that would change a LAVA job, two benchmarks that would
share a chart file. "Unwritable" here is a path under a regular file or a
folder where a file is expected: chattr does not work everywhere."""

import argparse
import contextlib
import io
import json
import tempfile
import unittest
from pathlib import Path

from tests.py import FIXTURES
from kfront import cli, cmd_compare, model, report


def kfront(*argv: str) -> tuple[int, str]:
    """The exit status and stderr of `kfront ARGV` as the command runs it."""
    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        try:
            status = cli.main([str(a) for a in argv])
        except SystemExit as exc:
            status = int(exc.code or 0)
    return status, err.getvalue()


class BadOutputs(unittest.TestCase):
    def setUp(self) -> None:
        self._tmp = tempfile.TemporaryDirectory()
        self.tmp = Path(self._tmp.name)
        self.log = self.tmp / "serial.log"
        self.log.write_bytes((FIXTURES / "clean.log").read_bytes())
        self.a = self.tmp / "a.json"
        self.b = self.tmp / "b.json"
        status, err = kfront("collect", self.log, "--out", self.tmp / "run", "--no-report")
        self.assertTrue((self.tmp / "run" / "results.json").is_file(), err)
        for p in (self.a, self.b):
            p.write_bytes((self.tmp / "run" / "results.json").read_bytes())
        self.afile = self.tmp / "afile"
        self.afile.write_text("a regular file\n")

    def tearDown(self) -> None:
        self._tmp.cleanup()

    def assert_error(self, status: int, err: str, *parts: str) -> None:
        self.assertEqual(status, 2, err)
        self.assertNotIn("Traceback", err)
        for part in parts:
            self.assertIn(part, err)

    def test_d2_device_that_cannot_be_opened_writes_nothing(self) -> None:
        out = self.tmp / "dev"
        status, err = kfront("collect", "--device", self.tmp / "no-tty", "--out", out)
        self.assert_error(status, err, "cannot open")
        self.assertFalse(out.exists())
        # A folder with a log in it is refused before the device is opened.
        out.mkdir()
        (out / "serial.log").write_bytes(b"keep me\n")
        status, err = kfront("collect", "--device", self.tmp / "no-tty", "--out", out)
        self.assert_error(status, err, "already holds a run (serial.log)")
        self.assertEqual((out / "serial.log").read_bytes(), b"keep me\n")

    def test_d3_csv_onto_an_input_is_refused(self) -> None:
        before = self.a.read_bytes()
        status, err = kfront("compare", self.a, self.b, "--csv", self.a)
        self.assert_error(status, err, "is an input file")
        self.assertEqual(self.a.read_bytes(), before)
        # The same file by another name.
        status, err = kfront("compare", self.a, self.b, "--csv", self.tmp / "." / "b.json")
        self.assert_error(status, err, "is an input file")
        log = self.log.read_bytes()
        status, err = kfront("collect", self.log, "--out", self.tmp / "sc", "--csv", self.log)
        self.assert_error(status, err, "is an input file")
        self.assertEqual(self.log.read_bytes(), log)
        self.assertFalse((self.tmp / "sc").exists())
        status, err = kfront("collect", self.log, "--out", self.tmp / "sc",
                             "--csv", self.tmp / "sc" / "results.json")
        self.assertEqual(status, 2, err)
        vfile = self.tmp / "v.ini"
        vfile.write_text("[O2]\n")
        for command in ("run", "host"):
            status, err = kfront(command, "--variants-file", vfile, "--csv", vfile)
            self.assert_error(status, err, "is an input file")
            self.assertEqual(vfile.read_text(), "[O2]\n")

    def test_d4_out_folder_holding_a_run_is_refused(self) -> None:
        out = self.tmp / "run"
        before = (out / "results.json").read_bytes()
        status, err = kfront("collect", self.log, "--out", out)
        self.assert_error(status, err, f"--out {out} already holds a run (results.json); "
                          "give another folder")
        self.assertEqual((out / "results.json").read_bytes(), before)
        self.assertFalse((out / "report.md").exists())
        # Several runs: checked on each run-<n> before anything is written.
        multi = self.tmp / "multi"
        (multi / "run-2").mkdir(parents=True)
        (multi / "run-2" / "results.json").write_text("{}")
        status, err = kfront("collect", FIXTURES / "two_boots.log", "--out", multi)
        self.assert_error(status, err, "run-2 already holds a run (results.json)")
        self.assertFalse((multi / "run-1").exists())
        self.assertEqual((multi / "run-2" / "results.json").read_text(), "{}")

    def test_d9_unwritable_outputs(self) -> None:
        # compare: a failed CSV write is exit 2, never 1 (a regression).
        args = argparse.Namespace(a=self.a, b=self.b, fail_above=None, json=False,
                                  csv=self.afile / "x.csv")
        err = io.StringIO()
        with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
            status = cmd_compare.run(args)
        self.assert_error(status, err.getvalue(), f"cannot write {self.afile / 'x.csv'}")
        folder = self.tmp / "folder"
        folder.mkdir()
        status, err = kfront("compare", self.a, self.b, "--csv", folder)
        self.assert_error(status, err, "is a folder")
        for option in ("--out", "--device-dict"):
            status, err = kfront("lava-job", option, folder)
            self.assert_error(status, err, f"{option} {folder} is a folder")
        for path in (self.afile / "job.yaml", self.afile / "sub" / "job.yaml"):
            status, err = kfront("lava-job", "--out", path)
            self.assert_error(status, err, "cannot write", "Not a directory")
        self.assertEqual(self.afile.read_text(), "a regular file\n")

    def test_d10_csv_failure_names_the_csv(self) -> None:
        # A dangling link into a regular file passes the early checks and
        # fails when written.
        link = self.tmp / "figures.csv"
        link.symlink_to(self.afile / "x.csv")
        status, err = kfront("collect", self.log, "--out", self.tmp / "cc", "--csv", link)
        self.assert_error(status, err, f"cannot write {link}")

    def test_d11_lava_free_text(self) -> None:
        out = self.tmp / "job.yaml"
        for argv in (("--lava-device-type", "qemu\nevil: 1"),
                     ("--lava-device-type", "qemu evil"),
                     ("--job-name", "name\x1b[2J"), ("--job-name", "a\u2028b"),
                     ("--image-url", "not a url"), ("--image-url", "ftp://host/k.iso"),
                     ("--image-url", "https://host/k.iso\nx: 1"),
                     ("--", "quiet\x01")):
            status, err = kfront("lava-job", "--out", out, *argv)
            self.assert_error(status, err)
            self.assertEqual(len(err.strip().splitlines()), 1, err)
            self.assertFalse(out.exists(), argv)
        dd = self.tmp / "dd.yaml"
        dd.write_text("device\n")
        status, err = kfront("lava-job", "--out", dd, "--device-dict", self.tmp / "." / "dd.yaml")
        self.assert_error(status, err, "same file")
        self.assertEqual(dd.read_text(), "device\n")
        status, err = kfront("lava-job", "--out", out, "--job-name", "kfront: x",
                             "--lava-device-type", "qemu-x86_64",
                             "--image-url", "https://example.org/kfront.iso")
        self.assertEqual(status, 0, err)
        text = out.read_text()
        self.assertIn("job_name: 'kfront: x'", text)
        self.assertIn("device_type: 'qemu-x86_64'", text)

    def test_one_capture_given_twice(self) -> None:
        """The same log twice, or a copy of it, would count its runs twice."""
        copy = self.tmp / "copy.log"
        copy.write_bytes(self.log.read_bytes())
        for second in (self.log, copy):
            status, err = kfront("collect", self.log, second, "--out", self.tmp / "twice")
            self.assertEqual(status, 2, err)
            self.assertIn("hold the same capture", err)
            self.assertFalse((self.tmp / "twice").exists())

    def test_d12_chart_names_are_unique(self) -> None:
        data = json.loads(self.a.read_text())
        entries = [e for e in data["results"] if e.get("footprint") is None]
        first = entries[0]["bench"]
        plain = next(e["bench"] for e in entries if e["bench"] != first)
        for e in data["results"]:
            if e["bench"] == first:
                e["bench"] = "calib/x"
            elif e["bench"] == plain:
                e["bench"] = "calib_x"
        res = model.from_dict(data, "x.json")
        out = self.tmp / "rep"
        report.write_all(res, out)
        charts = sorted(p.name for p in (out / "charts").glob("bench-calib_x*.svg"))
        self.assertEqual(len(charts), 2, charts)
        self.assertIn("bench-calib_x.svg", charts)   # a plain name keeps its file name
        md = (out / "report.md").read_text()
        for name in charts:
            self.assertIn(f"(charts/{name})", md)


if __name__ == "__main__":
    unittest.main()
