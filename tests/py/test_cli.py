# SPDX-License-Identifier: GPL-2.0-or-later
"""The collect, report and compare subcommands: exit status and output
files, driven through argparse as cli.py does."""

import argparse
import contextlib
import importlib.util
import io
import json
import os
import shutil
import tempfile
import unittest
from pathlib import Path

from tests.py import FIXTURES
from kfront import (argtypes, cmd_boot, cmd_collect, cmd_compare, cmd_flags,
                    cmd_host, cmd_repeats, cmd_report, cmd_run, cmd_simspeed, names)
from kfront.records import Record, parse_line

COMMANDS = (cmd_collect, cmd_report, cmd_compare, cmd_repeats, cmd_boot, cmd_run,
            cmd_host, cmd_flags, cmd_simspeed)


def parse(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="kfront")
    sub = parser.add_subparsers()
    for mod in COMMANDS:
        mod.register(sub)
    return parser.parse_args(argv)


def parse_error(argv: list[str]) -> tuple[int, str]:
    """The exit status and message of an argparse error."""
    err = io.StringIO()
    with contextlib.redirect_stderr(err), \
            contextlib.redirect_stdout(io.StringIO()):
        try:
            parse(argv)
        except SystemExit as exc:
            return int(exc.code or 0), err.getvalue()
    return 0, err.getvalue()


def run(argv: list[str]) -> tuple[int, str, str]:
    args = parse(argv)
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
        status, out, _ = run(["collect", str(FIXTURES / "two_boots.log"),
                              "--out", str(self.out), "--no-report"])
        self.assertEqual(status, 0)
        # TCG boots: no real-CPU time, so no `kfront repeats` to suggest
        self.assertNotIn("kfront repeats", out)
        self.assertTrue((self.out / "run-1" / "results.json").is_file())
        self.assertTrue((self.out / "run-2" / "results.json").is_file())
        self.assertFalse((self.out / "run-1" / "report.md").exists())
        status, _, _ = run(["collect", str(FIXTURES / "digest_mismatch.log"),
                            "--out", str(self.out / "d")])
        self.assertEqual(status, 1)

    def test_collect_several_bare_metal_boots(self) -> None:
        """Two boots of one image on a real CPU, the second with its code at
        another placement: collect names the command that asks whether
        their verdicts repeat."""
        spec = importlib.util.spec_from_file_location(
            "make_pmu_log", FIXTURES / "make_pmu_log.py")
        gen = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(gen)
        lines = (FIXTURES / "pmu_ring0.log").read_bytes().splitlines()
        second = []
        for ln in lines:
            rec = parse_line(ln)
            if isinstance(rec, Record):
                payload = dict(rec.payload)
                if payload["t"] == "suite_begin":
                    payload["cmdline"] += " placement=77"
                second.append(gen.record_line(rec.seq, payload))
        log = self.out / "box1.log"
        log.write_bytes(b"\n".join(lines + second) + b"\n")
        status, out, err = run(["collect", str(log), "--out", str(self.out / "r"),
                                "--no-report"])
        self.assertEqual(status, 0, err)
        runs = [self.out / "r" / f"run-{n}" / "results.json" for n in (1, 2)]
        self.assertIn(f"2 complete runs: `kfront repeats {runs[0]} {runs[1]}`", out)
        status, out, err = run(["repeats", *map(str, runs)])
        self.assertEqual(status, 0, err)
        self.assertIn("2 runs: ", out)

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
        self.assertNotIn("kfront repeats", out)     # one run, written once
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


class TestHostileOptions(unittest.TestCase):
    """Numbers that float() takes but no timeout can be, and kernel
    arguments that cannot reach the kernel: an error naming the option and
    its valid range, never a traceback or a boot that cannot time out."""

    BAD_SECONDS = ("nan", "NaN", "inf", "-inf", "-1", "0", "-0", "ten")

    def test_timeouts_reject_nan_inf_and_non_positive(self) -> None:
        for command in (["boot"], ["run"], ["host"], ["flags"],
                        ["collect", "x.log"]):
            for bad in self.BAD_SECONDS:
                with self.subTest(command=command[0], value=bad):
                    status, err = parse_error(command + [f"--timeout={bad}"])
                    self.assertEqual(status, 2)
                    self.assertIn("argument --timeout", err)
                    self.assertIn(repr(bad), err)
                    self.assertNotIn("Traceback", err)

    def test_timeouts_accept_positive_numbers(self) -> None:
        self.assertEqual(parse(["boot", "--timeout", "2.5"]).timeout, 2.5)
        self.assertEqual(parse(["run", "--timeout", "1e3"]).timeout, 1000.0)

    def test_non_utf8_kernel_argument_names_it(self) -> None:
        bad = os.fsdecode(b"bench=\xff")
        for argv in (["boot", "--", bad], ["run", "--", bad]):
            with self.subTest(command=argv[0]):
                status, out, err = run(argv)
                self.assertEqual(status, 2)
                self.assertIn("b'bench=\\xff' is not valid UTF-8", err)
                self.assertNotIn("Traceback", err)

    def test_memory_sizes(self) -> None:
        self.assertEqual(parse(["boot", "--memory", "64M"]).memory, 64)
        self.assertEqual(parse(["boot", "--memory", "2G"]).memory, 2048)
        self.assertEqual(parse(["boot", "--memory", "1024"]).memory, 1024)
        self.assertEqual(parse(["boot"]).memory, 512)
        for bad in ("12X", "1.5G", "", "-64M", "16M", "64G", "nan"):
            with self.subTest(value=bad):
                status, err = parse_error(["boot", f"--memory={bad}"])
                self.assertEqual(status, 2)
                self.assertIn("argument --memory", err)

    def test_smp_counts(self) -> None:
        self.assertEqual(parse(["run", "--smp", "2"]).smp, 2)
        for bad in ("0", "-1", "65"):
            with self.subTest(value=bad):
                status, err = parse_error(["boot", f"--smp={bad}"])
                self.assertEqual(status, 2)
                self.assertIn(f"want 1 to {argtypes.SMP_MAX} CPUs", err)
        for bad in ("two", "1.5"):
            with self.subTest(value=bad):
                status, err = parse_error(["boot", f"--smp={bad}"])
                self.assertEqual(status, 2)
                self.assertIn("not a whole number of CPUs", err)

    def test_flags_footprint(self) -> None:
        """kfront flags scores at one footprint the kernel can run."""
        self.assertEqual(parse(["flags", "--footprint", "128"]).footprint, 128)
        self.assertEqual(parse(["flags"]).footprint, 0)
        for bad, why in (("x", "want a whole number of packet-filter rules"),
                         ("-1", "want a whole number of packet-filter rules"),
                         ("0,64", "want a whole number of packet-filter rules"),
                         ("99999", "more than the 1024 filter rules")):
            with self.subTest(value=bad):
                status, err = parse_error(["flags", f"--footprint={bad}"])
                self.assertEqual(status, 2)
                self.assertIn(why, err)

    def test_flags_footprint_needs_a_swept_benchmark(self) -> None:
        """Above 0, a --bench list without a benchmark that takes a
        footprint would score nothing: refused before any build."""
        status, out, err = run(["flags", "--footprint", "64", "--bench", "sched.*"])
        self.assertEqual(status, 2)
        self.assertIn("--footprint 64: none of the benchmarks --bench sched.* selects takes "
                      "a footprint (those that do: mix.tcp_rr_wakeup, net.tcp_rr,", err)
        self.assertIsNone(names.unswept_problem("sched.*,net.tcp_rr"))
        self.assertIsNone(names.unswept_problem("net.*"))


        self.assertEqual(parse(["run", "--sim-jobs", "3"]).sim_jobs, 3)
        self.assertIsNone(parse(["run"]).sim_jobs)
        for bad in ("0", "17", "-1", "two", "1.5", ""):
            with self.subTest(value=bad):
                status, err = parse_error(["run", f"--sim-jobs={bad}"])
                self.assertEqual(status, 2)
                self.assertIn("want a whole number of boots from 1 to 16", err)

    def test_sim_speed_rounds(self) -> None:
        self.assertEqual(parse(["sim-speed", "--rounds", "5"]).rounds, 5)
        self.assertEqual(parse(["sim-speed"]).rounds, 3)
        for bad in ("0", "51", "-1", "two", "1.5", ""):
            with self.subTest(value=bad):
                status, err = parse_error(["sim-speed", f"--rounds={bad}"])
                self.assertEqual(status, 2)
                self.assertIn("want a whole number of rounds from 1 to 50", err)

    @unittest.skipUnless(shutil.which("qemu-system-x86_64"),
                         "qemu-system-x86_64 not installed (./kfront setup)")
    def test_unknown_cpu_model_points_at_the_list(self) -> None:
        for argv in (["boot", "--cpu", "Pentium9000", "--", "bench=none"],
                     ["run", "--cpu", "Pentium9000,+avx2"]):
            with self.subTest(command=argv[0]):
                status, _, err = run(argv)
                self.assertEqual(status, 2)
                self.assertIn("unknown CPU model 'Pentium9000'", err)
                self.assertIn("qemu-system-x86_64 -cpu help", err)
        args = parse(["boot", "--cpu", "Skylake-Client,-avx2"])
        self.assertIsNone(cmd_boot.machine_problem(args))


class TestLabSetup(unittest.TestCase):
    """`kfront setup --lab` adds lava-dispatcher, and CI asks for it, so
    the LAVA boot tests run there instead of skipping."""

    def test_lab_packages_only_with_lab(self) -> None:
        from kfront import cli, deps
        self.assertIn("lava-dispatcher", deps.wanted_packages(lab=True))
        self.assertNotIn("lava-dispatcher", deps.wanted_packages())
        self.assertTrue(cli.make_parser().parse_args(["setup", "--lab"]).lab)
        self.assertFalse(cli.make_parser().parse_args(["setup"]).lab)

    def test_ci_installs_the_lab_packages(self) -> None:
        ci = (Path(__file__).resolve().parents[2] / ".ci" / "run").read_text()
        self.assertRegex(ci, r"(?m)^\./kfront setup --lab$")


if __name__ == "__main__":
    unittest.main()
