# SPDX-License-Identifier: GPL-2.0-or-later
"""The record parser: valid lines, bad CRC, malformed and truncated lines,
missing sequence numbers, duplicates, garbage, boots and odd bytes."""

import json
import time
import unittest
import zlib

from kfront import records
from kfront.records import BadLine, Record, TextLine, make_line, parse_lines
from tests.py.reallogs import as_version_2, parse_bytes, real_log


def begin(**extra: object) -> dict:
    return dict({"t": "suite_begin", "kfront": "0.1.0", "machine": {}}, **extra)


def res(bench: str = "calib.empty", variant: str = "O2") -> dict:
    return {"t": "result", "bench": bench, "variant": variant, "iters": 10,
            "samples": {"tsc": [10, 11, 12]}, "digest": "ab"}


def end(n: int) -> dict:
    return {"t": "suite_end", "records": n, "status": 0}


def suite(n_results: int = 3) -> list[str]:
    payloads = [begin()] + [res(variant=f"v{i}") for i in range(n_results)]
    payloads.append(end(len(payloads)))
    return [make_line(i, p) for i, p in enumerate(payloads)]


def kinds(result: records.ParseResult) -> list[tuple[str, int]]:
    return [(p.kind, p.line) for p in result.problems]


class TestParseLine(unittest.TestCase):
    def test_valid_line(self) -> None:
        payload = '{"t":"suite_end","records":2,"status":0}'
        crc = zlib.crc32(payload.encode()) & 0xFFFFFFFF
        rec = records.parse_line(f"#KF1 2 {crc:08x} {payload}\r\n", 5)
        self.assertIsInstance(rec, Record)
        self.assertEqual((rec.seq, rec.type, rec.line), (2, "suite_end", 5))
        self.assertEqual(rec.payload["records"], 2)

    def test_known_crc(self) -> None:
        # The CRC-32 check value, as in the kernel's own unit test.
        line = b'#KF1 7 cbf43926 123456789'
        bad = records.parse_line(line)
        self.assertIsInstance(bad, BadLine)   # CRC fine, but not JSON
        self.assertEqual(bad.kind, "malformed")

    def test_bad_crc(self) -> None:
        line = make_line(3, res()).replace('"O2"', '"O3"')
        bad = records.parse_line(line)
        self.assertEqual((bad.kind, bad.seq), ("bad_crc", 3))

    def test_truncated(self) -> None:
        line = make_line(4, res())
        self.assertEqual(records.parse_line(line[:40]).kind, "truncated")
        self.assertEqual(records.parse_line("#KF1 4").kind, "truncated")
        self.assertEqual(records.parse_line("#KF1 4 0badcafe").kind,
                         "truncated")

    def test_malformed(self) -> None:
        good = make_line(1, res())
        self.assertEqual(records.parse_line(good.replace(" 1 ", " x1 ", 1))
                         .kind, "malformed")
        self.assertEqual(records.parse_line("#KF1 1 XYZ {}").kind,
                         "malformed")
        self.assertEqual(records.parse_line("#KF3 1 00000000 {}").kind,
                         "malformed")
        self.assertEqual(records.parse_line(make_line(1, "[1,2]")).kind,
                         "malformed")
        self.assertEqual(records.parse_line(make_line(1, '{"a":1}')).kind,
                         "malformed")

    def test_text_and_collision(self) -> None:
        self.assertIsInstance(records.parse_line("GRUB loading"), TextLine)
        self.assertTrue(records.parse_line("\x00\x00\r").blank)
        hit = records.parse_line("oops " + make_line(5, res()))
        self.assertEqual((hit.kind, hit.seq), ("garbage", 5))

    def test_odd_bytes_never_raise(self) -> None:
        for raw in (b"\xff\xfe\x00#KF1", b"#KF1 1 \xff\xff\xff\xff\xff\xff"
                    b"\xff\xff {}", b"\x00" * 100, b"#KF1 " + b"9" * 5000,
                    b"#KF1 1 00000000 " + b"{" * 200000):
            self.assertIsNotNone(records.parse_line(raw))
        long_line = b"#KF1 1 00000000 {" + b"x" * (records.MAX_LINE + 10)
        self.assertEqual(records.parse_line(long_line).kind, "malformed")

    def test_deeply_nested_payload_is_malformed(self) -> None:
        # A forged line (valid CRC) nested deeper than json follows used to
        # raise RecursionError.
        line = make_line(1, '{"t":"result","x":' + "[" * 100000 + "]}")
        bad = parse_lines([make_line(0, {"t": "suite_begin"}), line])
        self.assertEqual([(p.kind, p.line) for p in bad.problems],
                         [("incomplete", 2), ("malformed", 2)])

    def test_nul_padding_and_crlf(self) -> None:
        line = b"\x00\x00" + make_line(0, begin()).encode() + b"\r\n"
        self.assertIsInstance(records.parse_line(line), Record)


class TestStream(unittest.TestCase):
    def test_clean_run(self) -> None:
        lines = ["GRUB", "booting"] + suite() + ["bye"]
        r = parse_lines(lines)
        self.assertEqual(r.problems, [])
        self.assertEqual(len(r.runs), 1)
        run = r.runs[0]
        self.assertTrue(run.complete)
        self.assertEqual((run.first_line, run.last_line), (3, 7))
        self.assertEqual(len(run.of_type("result")), 3)

    def test_missing_sequence_number(self) -> None:
        lines = suite(4)
        del lines[2]   # seq 2
        r = parse_lines(lines)
        self.assertEqual(kinds(r), [("gap", 3)])
        self.assertFalse(r.runs[0].complete)
        self.assertIn("seq 2", r.problems[0].message)

    def test_duplicate_and_conflict(self) -> None:
        lines = suite()
        lines.insert(2, lines[1])                     # duplicate of seq 1
        lines.insert(4, make_line(2, res("other")))   # conflict with seq 2
        r = parse_lines(lines)
        self.assertEqual(kinds(r), [("duplicate", 3), ("conflict", 5)])
        self.assertFalse(r.runs[0].complete)          # conflict is an error

    def test_duplicated_first_and_last_line(self) -> None:
        lines = suite()
        lines = [lines[0]] + lines + [lines[-1]]
        r = parse_lines(lines)
        self.assertEqual(len(r.runs), 1)
        self.assertEqual(kinds(r), [("duplicate", 2), ("duplicate", 7)])
        self.assertTrue(r.runs[0].complete)

    def test_bad_crc_accounts_for_its_seq(self) -> None:
        lines = suite()
        lines[2] = lines[2].replace('"v1"', '"v9"')
        r = parse_lines(lines)
        self.assertEqual(kinds(r), [("bad_crc", 3)])   # no extra gap
        self.assertFalse(r.runs[0].complete)

    def test_garbage_only_inside_a_run(self) -> None:
        lines = ["before"] + suite() + ["after"]
        lines.insert(3, "[ 1.0] console chatter")
        lines.insert(4, "more chatter")
        r = parse_lines(lines)
        self.assertEqual(kinds(r), [("garbage", 4)])
        self.assertEqual(r.problems[0].end_line, 5)
        self.assertTrue(r.runs[0].complete)

    def test_truncated_end(self) -> None:
        lines = suite()[:-1]
        lines[-1] = lines[-1][:30]
        r = parse_lines(lines)
        self.assertEqual(kinds(r), [("incomplete", 4), ("truncated", 4)])
        self.assertFalse(r.runs[0].complete)

    def test_two_boots_and_crash(self) -> None:
        first = suite()[:3]
        lines = first + ["reset", "GRUB"] + suite()
        r = parse_lines(lines)
        self.assertEqual(len(r.runs), 2)
        self.assertEqual(kinds(r), [("incomplete", 6)])
        self.assertEqual([run.complete for run in r.runs], [False, True])

    def test_kernel_console_lines_are_not_garbage(self) -> None:
        lines = suite()
        lines.insert(2, "kfront: [2/3] calib.memcpy20")
        lines.insert(4, "kfront: timeout: O2/calib.calls: budget exceeded")
        lines.insert(5, "stray text")
        r = parse_lines(lines)
        self.assertEqual(kinds(r), [("garbage", 6)])
        strict = records.LogParser(console_prefixes=())
        for line in lines:
            strict.feed(line)
        self.assertEqual(kinds(strict.finish()), [("garbage", 3),
                                                  ("garbage", 5)])

    def test_panic_text_before_run_is_a_note(self) -> None:
        lines = ["Kernel panic - not syncing"] + suite()
        r = parse_lines(lines)
        self.assertEqual(kinds(r), [("panic_text", 1)])
        self.assertEqual(r.problems[0].severity, "note")
        self.assertTrue(r.runs[0].complete)

    def test_lost_suite_begin(self) -> None:
        lines = suite()
        lines[0] = lines[0][:25]
        r = parse_lines(lines)
        self.assertEqual(kinds(r), [("truncated", 1), ("no_begin", 2)])
        self.assertFalse(r.runs[0].complete)

    def test_suite_end_count_and_status(self) -> None:
        lines = suite()
        lines[-1] = make_line(4, {"t": "suite_end", "records": 3,
                                  "status": 1})
        r = parse_lines(lines)
        self.assertEqual(kinds(r), [("count", 5), ("status", 5)])

    def test_incremental_stop_flag(self) -> None:
        parser = records.LogParser()
        lines = suite()
        for line in lines[:-1]:
            parser.feed(line)
            self.assertFalse(parser.last_run_ended)
        parser.feed(lines[-1])
        self.assertTrue(parser.last_run_ended)

    def test_make_line_matches_format(self) -> None:
        line = make_line(9, {"t": "x"})
        prefix, seq, crc, payload = line.split(" ", 3)
        self.assertEqual((prefix, seq), ("#KF2", "9"))
        self.assertEqual(int(crc, 16), zlib.crc32(f"9 {payload}".encode()))
        self.assertEqual(json.loads(payload), {"t": "x"})

    def test_version_1_lines_still_read(self) -> None:
        line = make_line(9, {"t": "x"}, version=1)
        prefix, _, crc, payload = line.split(" ", 3)
        self.assertEqual(prefix, "#KF1")
        self.assertEqual(int(crc, 16), zlib.crc32(payload.encode()))
        rec = records.parse_line(line)
        self.assertIsInstance(rec, Record)
        self.assertEqual((rec.seq, rec.payload), (9, {"t": "x"}))

    def test_damaged_sequence_number_fails_the_crc(self) -> None:
        # Version 2 covers the sequence number: a flipped digit is caught.
        line = make_line(7, res())
        bad = records.parse_line(line.replace(" 7 ", " 70000000000 ", 1))
        self.assertIsInstance(bad, BadLine)
        self.assertEqual(bad.kind, "bad_crc")

    def test_wild_sequence_number_is_cheap(self) -> None:
        # A version 1 log (CRC over the payload only) with one sequence
        # number damaged to 20 digits: the gap check must not walk up to it.
        lines = [make_line(i, p, version=1) for i, p in
                 enumerate([begin(), res(), res("Os"), end(3)])]
        lines[2] = lines[2].replace(" 2 ", " 99999999999999999999 ", 1)
        start = time.monotonic()
        r = parse_lines(lines)
        self.assertLess(time.monotonic() - start, 2.0)
        gaps = [p for p in r.problems if p.kind == "gap"]
        # Version 1 cannot tell the damage from a real number: seq 2 is
        # missing, and the numbers up to the wild one form one range.
        self.assertEqual([p.message.split(" missing")[0] for p in gaps],
                         ["record seq 2",
                          "record seqs 4..99999999999999999998"])
        self.assertEqual(len(r.runs), 1)
        self.assertFalse(r.runs[0].complete)


def lines_of(name: str) -> list[bytes]:
    """A real log as version 2, split on \\n (line ends kept as \\r)."""
    return as_version_2(real_log(name)).split(b"\n")


def seqs_and_payloads(run: records.Run) -> list[tuple[int, bytes]]:
    return [(r.seq, r.raw) for r in run.records]


class TestRecovery(unittest.TestCase):
    """Damage built from real logs that used to lose intact records or
    merge boots (issue 15)."""

    def test_record_after_escape_or_blanks_is_kept(self) -> None:
        lines = lines_of("real_quick.log")
        clean = parse_bytes(b"\n".join(lines)).runs[0]
        lines[8] = b"\x1b[0m" + lines[8]          # colour reset, seq 1
        lines[9] = b"\x1b[1;32m\x1b(B  " + lines[9]
        lines[10] = b" \t\r" + lines[10]
        r = parse_bytes(b"\n".join(lines))
        self.assertEqual(r.problems, [])
        self.assertEqual(seqs_and_payloads(r.runs[0]),
                         seqs_and_payloads(clean))

    def test_text_before_record_is_still_garbage(self) -> None:
        lines = lines_of("real_quick.log")
        lines[8] = b"\x1b[0mcalib done " + lines[8]
        r = parse_bytes(b"\n".join(lines))
        self.assertEqual(kinds(r), [("garbage", 9)])   # claims seq 1

    def test_log_concatenated_with_itself(self) -> None:
        for version_2 in (False, True):
            data = real_log("real_quick.log")
            if version_2:
                data = as_version_2(data)
            r = parse_bytes(data + data)
            self.assertEqual(len(r.runs), 2)
            # The copy starts at line 38: suite_begin 38 + 6, end 38 + 35.
            self.assertEqual(kinds(r), [("duplicate_run", 44)])
            self.assertEqual(r.problems[0].severity, "error")
            self.assertEqual(r.problems[0].end_line, 73)
            self.assertEqual(r.runs[1].duplicate_of, 0)
            self.assertTrue(r.runs[0].complete)
            self.assertFalse(r.runs[1].complete)

    def test_partial_copy_is_a_duplicate_run_too(self) -> None:
        data = as_version_2(real_log("real_quick.log"))
        cut = data.split(b"\n")[:20]
        r = parse_bytes(data + b"\n".join(cut))
        self.assertEqual(kinds(r), [("duplicate_run", 44),
                                    ("incomplete", 57)])
        self.assertEqual(r.runs[1].duplicate_of, 0)

    def test_identical_crash_boots_are_not_duplicates(self) -> None:
        data = as_version_2(real_log("real_panic.log"))
        r = parse_bytes(data + data)
        self.assertNotIn("duplicate_run", [p.kind for p in r.problems])
        self.assertEqual(len(r.runs), 2)

    def _crash_then_boot_without_begin(self, banner: bool) -> list[bytes]:
        crashed = lines_of("real_quick.log")[:18]      # up to seq 8
        second = lines_of("real_timeout.log")
        second[6] = second[6][:30]                     # suite_begin cut
        if not banner:
            del second[2]
        return crashed + second

    def _assert_two_boots(self, lines: list[bytes], begin_line: int,
                          crash_text: list[tuple[str, int]]) -> None:
        r = parse_bytes(b"\n".join(lines))
        self.assertEqual(len(r.runs), 2, kinds(r))
        first, second = r.runs
        self.assertEqual([x.seq for x in first.records], list(range(9)))
        timeout = parse_bytes(as_version_2(real_log("real_timeout.log")))
        self.assertEqual(seqs_and_payloads(second),
                         seqs_and_payloads(timeout.runs[0])[1:])
        self.assertEqual(kinds(r), crash_text + [
                                    ("truncated", begin_line + 1),
                                    ("incomplete", begin_line + 3),
                                    ("no_begin", begin_line + 3),
                                    ("status", begin_line + 13)])

    def test_banner_starts_a_new_boot(self) -> None:
        # Before the fix seqs 1-7 of the second boot were conflicts in the
        # first run, and the second boot's results were lost.
        self._assert_two_boots(self._crash_then_boot_without_begin(True), 24,
                               [])

    def test_sequence_restart_starts_a_new_boot(self) -> None:
        # Without the banner nothing tells the new boot's GRUB line from
        # console text inside the first run.
        self._assert_two_boots(self._crash_then_boot_without_begin(False),
                               23, [("garbage", 19)])

    def test_record_after_a_panic_starts_a_new_boot(self) -> None:
        panic = lines_of("real_panic.log")
        quick = lines_of("real_quick.log")
        del quick[6]                                   # suite_begin lost
        del quick[2]                                   # banner lost
        r = parse_bytes(b"\n".join(panic + quick))
        self.assertEqual(len(r.runs), 2)
        self.assertEqual([x.seq for x in r.runs[1].records],
                         list(range(1, 23)))
        self.assertIn(("no_begin", 29), kinds(r))


if __name__ == "__main__":
    unittest.main()
