# SPDX-License-Identifier: GPL-2.0-or-later
"""The collect, report and compare subcommands: exit status and output
files, driven through argparse as cli.py does."""

import argparse
import contextlib
import io
import json
import tempfile
import unittest
from pathlib import Path

from tests.py import FIXTURES
from kfront import cmd_collect, cmd_compare, cmd_report


def run(argv: list[str]) -> tuple[int, str, str]:
    parser = argparse.ArgumentParser(prog="kfront")
    sub = parser.add_subparsers()
    for mod in (cmd_collect, cmd_report, cmd_compare):
        mod.register(sub)
    args = parser.parse_args(argv)
    self_out, self_err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(self_out), \
            contextlib.redirect_stderr(self_err):
        status = args.func(args)
    return status, self_out.getvalue(), self_err.getvalue()


class TestCommands(unittest.TestCase):
    def setUp(self) -> None:
        self._tmp = tempfile.TemporaryDirectory()
        self.out = Path(self._tmp.name)

    def tearDown(self) -> None:
        self._tmp.cleanup()

    def test_collect_clean(self) -> None:
        status, out, err = run(["collect", str(FIXTURES / "clean.log"),
                                "--out", str(self.out)])
        self.assertEqual(status, 0, err)
        for name in ("results.json", "report.md", "report.html"):
            self.assertTrue((self.out / name).is_file())
        self.assertIn("complete", out)
        self.assertNotIn("\x1b[", out)   # not a tty

    def test_collect_faulty_reports_lines(self) -> None:
        status, _, err = run(["collect", str(FIXTURES / "dropped.log"),
                              "--out", str(self.out)])
        self.assertEqual(status, 1)
        with open(FIXTURES / "faults.json", encoding="utf-8") as fh:
            expect = json.load(fh)["dropped"]["problems"]
        self.assertEqual(len(expect), 2)
        for kind, line in expect:
            self.assertIn(f"dropped.log:{line}: error: {kind}:", err)
        self.assertTrue((self.out / "results.json").is_file())

    def test_collect_two_boots_and_digest(self) -> None:
        status, _, _ = run(["collect", str(FIXTURES / "two_boots.log"),
                            "--out", str(self.out), "--no-report"])
        self.assertEqual(status, 0)
        self.assertTrue((self.out / "run-1" / "results.json").is_file())
        self.assertTrue((self.out / "run-2" / "results.json").is_file())
        self.assertFalse((self.out / "run-1" / "report.md").exists())
        status, _, _ = run(["collect", str(FIXTURES / "digest_mismatch.log"),
                            "--out", str(self.out / "d")])
        self.assertEqual(status, 1)

    def test_collect_log_concatenated_with_itself(self) -> None:
        # Before the fix: two complete runs, exit 0, results counted twice.
        data = (FIXTURES / "real_quick.log").read_bytes()
        log = self.out / "twice.log"
        log.write_bytes(data + data)
        status, out, err = run(["collect", str(log), "--out",
                                str(self.out / "r"), "--no-report"])
        self.assertEqual(status, 1)
        self.assertIn("twice.log:44: error: duplicate_run:", err)
        self.assertIn("run 2: ", out)
        self.assertIn("DUPLICATE of run 1", out)
        self.assertTrue((self.out / "r" / "run-1" / "results.json").is_file())
        self.assertFalse((self.out / "r" / "run-2").exists())

    def test_usage_and_io_errors(self) -> None:
        status, _, err = run(["collect"])
        self.assertEqual(status, 2)
        self.assertIn("error:", err)
        status, _, err = run(["collect", str(self.out / "nope.log")])
        self.assertEqual(status, 2)
        self.assertNotIn("Traceback", err)
        status, _, err = run(["collect", "x.log", "--device", "/dev/null"])
        self.assertEqual(status, 2)
        status, _, err = run(["collect", "--device", "/dev/null",
                              "--baud", "12345"])
        self.assertEqual(status, 2)
        self.assertIn("baud", err)

    def test_report_and_compare(self) -> None:
        run(["collect", str(FIXTURES / "two_boots.log"), "--out",
             str(self.out), "--no-report"])
        a = self.out / "run-1" / "results.json"
        b = self.out / "run-2" / "results.json"
        status, out, _ = run(["report", str(a), "--out", str(self.out / "r")])
        self.assertEqual(status, 0)
        self.assertTrue((self.out / "r" / "report.html").is_file())
        self.assertIn("TSC ticks", out)
        status, out, _ = run(["compare", str(a), str(b)])
        self.assertEqual(status, 0)
        self.assertIn("B/A", out)
        status, _, err = run(["report", str(FIXTURES / "clean.log")])
        self.assertEqual(status, 2)
        self.assertIn("not JSON", err)
        status, _, err = run(["compare", str(a), str(self.out / "no.json")])
        self.assertEqual(status, 2)


if __name__ == "__main__":
    unittest.main()
