# SPDX-License-Identifier: GPL-2.0-or-later
"""The collector on every fixture log (faults at their exact lines, results
still produced from the intact records), the pluggable input layer and the
live serial reader (through a pseudo-terminal)."""

import json
import os
import random
import threading
import time
import tty
import unittest
from pathlib import Path

from tests.py import FIXTURES
from kfront import collect, results
from kfront.records import BadLine, make_line


def manifest() -> dict:
    with open(FIXTURES / "faults.json", encoding="utf-8") as fh:
        return json.load(fh)


class TestFixtures(unittest.TestCase):
    def test_every_fault_at_its_line(self) -> None:
        for name, expect in manifest().items():
            with self.subTest(log=name):
                got = collect.collect_file(FIXTURES / f"{name}.log")
                self.assertEqual(sorted([p.kind, p.line]
                                        for p in got.problems),
                                 expect["problems"])
                self.assertEqual([r.complete for r in got.runs],
                                 expect["runs"])
                self.assertEqual(got.complete, all(expect["runs"]))

    def test_results_from_intact_records(self) -> None:
        # 3 variants x 3 benchmarks; faulty logs lose exactly their records.
        want = {"clean": [9], "flipped": [6], "dropped": [6],
                "duplicated": [9], "two_boots": [9, 9],
                "crash_reboot": [5, 9], "garbage": [8], "truncated": [6],
                "digest_mismatch": [9], "sweep": [12]}
        for name, counts in want.items():
            with self.subTest(log=name):
                got = collect.collect_file(FIXTURES / f"{name}.log")
                built = [results.build_results(r, {}) for r in got.runs]
                self.assertEqual([len(b["results"]) for b in built], counts)
                for b in built:
                    for e in b["results"]:
                        self.assertIn("tsc", e["counters"])

    def test_result_level_problems(self) -> None:
        for name, expect in manifest().items():
            with self.subTest(log=name):
                got = collect.collect_file(FIXTURES / f"{name}.log")
                seen = set()
                for r in got.runs:
                    b = results.build_results(r, {})
                    seen |= {(p["kind"], p["line"]) for p in b["problems"]}
                transport = {tuple(p) for p in expect["problems"]}
                self.assertEqual(sorted(list(p) for p in seen - transport),
                                 expect["result_problems"])

    def test_clean_flags(self) -> None:
        self.assertTrue(collect.collect_file(FIXTURES / "clean.log").clean)
        dup = collect.collect_file(FIXTURES / "duplicated.log")
        self.assertTrue(dup.complete)
        self.assertFalse(dup.clean)

    def test_missing_file(self) -> None:
        with self.assertRaises(collect.CollectError):
            collect.collect_file(FIXTURES / "no-such.log")


class TestInputLayer(unittest.TestCase):
    def test_split_lines_any_chunking(self) -> None:
        data = (FIXTURES / "clean.log").read_bytes()
        whole = list(collect.split_lines([data]))
        bytewise = list(collect.split_lines(data[i:i + 1]
                                            for i in range(len(data))))
        self.assertEqual(whole, bytewise)
        self.assertEqual(list(collect.split_lines([b"a\nb"])), [b"a", b"b"])

    def test_lone_carriage_return_ends_a_line(self) -> None:
        # An old terminal capture ends every line with \r only: before the
        # fix it was one line and not a record was recovered.
        data = (FIXTURES / "real_quick.log").read_bytes()
        plain = collect.collect_lines(collect.split_lines([data]), "lf")
        cr_only = data.replace(b"\r\n", b"\n").replace(b"\n", b"\r")
        got = collect.collect_lines(collect.split_lines([cr_only]), "cr")
        self.assertTrue(got.clean, got.problems)
        self.assertEqual([(r.seq, r.raw) for r in got.runs[0].records],
                         [(r.seq, r.raw) for r in plain.runs[0].records])
        bytewise = list(collect.split_lines(
            cr_only[i:i + 1] for i in range(len(cr_only))))
        self.assertEqual(bytewise, list(collect.split_lines([cr_only])))

    def test_crlf_stays_one_line_end(self) -> None:
        self.assertEqual(list(collect.split_lines([b"a\r\nb\r", b"\nc\r"])),
                         [b"a\r", b"b\r", b"c\r"])
        # \r next to \n (before or after it) and NUL padding split nothing,
        # so the line numbers of a \r\n log stay those an editor shows.
        self.assertEqual(list(collect.split_lines([b"\r\x00a\r\r\n\rb"])),
                         [b"\r\x00a\r\r", b"\rb"])
        self.assertEqual(list(collect.split_lines([b"a\rb\r\rc\n"])),
                         [b"a", b"b", b"", b"c"])

    def test_long_line_is_linear(self) -> None:
        # 32 MiB without a line end in 64 KiB chunks: rescanning the whole
        # buffer per chunk (the old split) took minutes. Such a line is
        # counted, not held: one BadLine stands for it.
        chunk = b"x" * collect.READ_CHUNK
        start = time.monotonic()
        lines = list(collect.split_lines(chunk for _ in range(512)))
        self.assertLess(time.monotonic() - start, 5.0)
        self.assertEqual(lines, [collect.overlong_line(512 * len(chunk),
                                                       collect.LINE_LIMIT)])
        self.assertIn("33554432 bytes without a line end", lines[0].message)



    def test_collect_lines_accepts_str(self) -> None:
        text = (FIXTURES / "clean.log").read_bytes().decode("utf-8",
                                                           "replace")
        got = collect.collect_lines(text.splitlines(), "mem")
        self.assertTrue(got.complete)
        self.assertEqual(got.source, "mem")

    def test_pluggable_format(self) -> None:
        """A new log format is one more SourceFormat (as LAVA will be)."""

        class Prefixed:
            def __init__(self, path: Path) -> None:
                self.path, self.name = path, f"prefixed:{path}"

            def lines(self):
                for raw in self.path.read_bytes().split(b"\n"):
                    yield raw[len(b"target: "):]

        fmt = collect.SourceFormat("prefixed",
                                   lambda head: head.startswith(b"target: "),
                                   Prefixed)
        path = Path(self.tmp) / "x.log"
        body = b"\n".join(b"target: " + line for line in
                          (FIXTURES / "clean.log").read_bytes().split(b"\n"))
        path.write_bytes(body)
        src = collect.open_source(path, [fmt] + collect.source_formats())
        got = collect.collect_source(src)
        self.assertTrue(got.complete)
        self.assertTrue(got.source.startswith("prefixed:"))

    def setUp(self) -> None:
        import tempfile
        self._tmp = tempfile.TemporaryDirectory()
        self.tmp = self._tmp.name

    def tearDown(self) -> None:
        self._tmp.cleanup()


class TestSerialDevice(unittest.TestCase):
    def test_pty_until_suite_end(self) -> None:
        master, slave = os.openpty()
        tty.setraw(slave)   # as a serial port is before anything is sent
        device = os.ttyname(slave)
        data = (FIXTURES / "clean.log").read_bytes()
        extra = b"#KF1 0 00000000 after the end\r\n"

        def writer() -> None:
            for i in range(0, len(data), 700):
                os.write(master, data[i:i + 700])
            os.write(master, extra)

        t = threading.Thread(target=writer)
        t.start()
        try:
            import io
            log = io.BytesIO()
            got = collect.collect_device(device, 115200, timeout=20, log=log)
        finally:
            t.join()
            os.close(master)
            os.close(slave)
        self.assertTrue(got.complete, [str(p) for p in got.problems])
        self.assertEqual(got.notes, [])
        self.assertEqual(len(got.runs), 1)
        self.assertIn(b"suite_end", log.getvalue())

    def test_timeout_without_suite_end(self) -> None:
        master, slave = os.openpty()
        tty.setraw(slave)
        try:
            os.write(master, make_line(0, {"t": "suite_begin"}).encode()
                     + b"\r\n")
            got = collect.collect_device(os.ttyname(slave), 9600,
                                         timeout=0.5)
        finally:
            os.close(master)
            os.close(slave)
        self.assertFalse(got.complete)
        self.assertTrue(got.notes)
        self.assertEqual([p.kind for p in got.problems], ["incomplete"])

    def test_bad_baud_and_device(self) -> None:
        with self.assertRaises(ValueError):
            collect.baud_constant(123)
        with self.assertRaises(collect.CollectError):
            collect.collect_device("/nonexistent/tty", 115200, timeout=0.1)


def reference_lines(data: bytes, limit: int) -> list[bytes | BadLine]:
    """The splitter's rule written plainly, holding everything: each \n
    line split at lone \r (split_at_cr); the first part longer than the
    limit, or whose text is followed by more than the limit of padding
    (\r, NUL), and all after it in that \n line are one BadLine of their
    size."""
    out: list[bytes | BadLine] = []
    lines = data.split(b"\n")
    if not lines[-1]:
        lines.pop()         # the stream ends with a line end
    for line in lines:
        parts = collect.split_at_cr(line)
        start = 0
        for part in parts:
            text = part.rstrip(b"\r\x00")
            end = start + len(text)
            run = len(line[end:]) - len(line[end:].lstrip(b"\r\x00"))
            if len(part) > limit or (text and run > limit):
                out.append(collect.overlong_line(len(line) - start, limit))
                break
            out.append(part)
            start += len(part) + 1
    return out


class TestLineLimit(unittest.TestCase):
    """A console line longer than the limit is dropped and counted, so a
    noisy link without line ends costs bounded memory; every other line
    comes out as before, for any chunking."""

    ALPHABET = b"ab\r\n\x00"
    TRIALS = 400

    def split(self, data: bytes, limit: int, cuts: list[int]) -> list[bytes | BadLine]:
        splitter = collect.LineSplitter(limit)
        out: list[bytes | BadLine] = []
        held = 0
        spans = list(zip([0] + cuts, cuts + [len(data)]))
        for a, b in spans:
            out += splitter.feed(data[a:b])
            held = max(held, sum(len(p) for p in splitter._rest))
        # a line's text and padding up to the limit each, the limit again
        # before it looks, and a chunk: never the whole line
        self.assertLessEqual(held, 3 * limit + max(b - a for a, b in spans))
        return out + splitter.finish()

    def test_random_streams_any_chunking(self) -> None:
        rng = random.Random(18)
        for trial in range(self.TRIALS):
            n = rng.randrange(0, 120)
            weights = [rng.random() for _ in self.ALPHABET]
            data = bytes(rng.choices(self.ALPHABET, weights, k=n))
            limit = rng.choice([1, 3, 8, 40, 1000])
            cuts = sorted(rng.sample(range(1, n), min(n - 1, rng.randrange(0, 12)))) if n > 1 else []
            with self.subTest(trial=trial, data=data, limit=limit, cuts=cuts):
                self.assertEqual(self.split(data, limit, cuts),
                                 reference_lines(data, limit))
                # within the limit the lines are the old splitter's
                if all(not isinstance(x, BadLine) for x in reference_lines(data, limit)):
                    self.assertEqual(self.split(data, limit, cuts),
                                     list(collect.split_lines([data])))

    def test_records_around_a_long_line_are_kept(self) -> None:
        data = (FIXTURES / "clean.log").read_bytes()
        lines = data.split(b"\n")
        noisy = b"\n".join(lines[:5] + [b"\x55" * (2 * collect.LINE_LIMIT)] + lines[5:])
        got = collect.collect_lines(collect.split_lines([noisy]), "noisy")
        plain = collect.collect_lines(collect.split_lines([data]), "plain")
        self.assertEqual([(r.seq, r.raw) for r in got.runs[0].records],
                         [(r.seq, r.raw) for r in plain.runs[0].records])
        long = [p for p in got.problems if "without a line end" in p.message]
        self.assertEqual([(p.kind, p.line) for p in long], [("garbage", 6)])


if __name__ == "__main__":
    unittest.main()
