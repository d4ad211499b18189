# SPDX-License-Identifier: GPL-2.0-or-later
"""Fuzz target for the collector: random damage to real logs.

Each mutant is a real log (the version 1 fixtures as captured, version 2
copies of them, and the LAVA wrapping of real_quick) with one to three
random mutations: flipped bytes, dropped, duplicated, swapped or cut lines,
a cut log, inserted NULs, random bytes or ANSI escapes, other line ends,
the log concatenated with itself, damaged sequence numbers. For every
mutant the collector must:

1. finish within PER_MUTANT_SECONDS (no hang; the logs take milliseconds);
2. raise no exception;
3. keep only true records: every kept record's payload is, byte for byte,
   the clean log's record with that sequence number (version 1, whose CRC
   does not cover the number, may keep a payload under a damaged number:
   it must still be a clean payload, and a problem must be reported);
4. account for every record of the clean log: it is kept intact (same
   sequence number, same payload) in some run, or a problem above a note
   (error or warning) is reported that names its sequence number (a damaged line's claimed
   number, a gap's range, the numbers an incomplete run never sent, the
   numbers before a lost suite_begin), or lies at or next to its line
   (within one line of where the mutation put the record's line, or of the
   lines around it when it was dropped). A mutant without any record
   left is accounted for as a whole: `kfront collect` reports "no kfront
   records found" and exits 1. In version 1 a payload moved under a
   damaged number can take a record's place: the record is then accounted
   for by a problem at the impostor's line or naming its true number.

The run is reproducible: KFRONT_FUZZ_SEED (default 15) seeds every mutant
from (seed, log, mutant number), and a failure prints all three and the
mutations applied. The time budget (KFRONT_FUZZ_SECONDS, default 16 s in
all) only decides how many mutants are tried; the count is printed.
"""

from __future__ import annotations

import os
import random
import sys
import time
import unittest
from dataclasses import dataclass, field
from typing import Callable, Iterable, Iterator

from tests.py import FIXTURES
from tests.py.reallogs import as_version_2
from kfront import lava_log, records
from kfront.collect import split_lines

SEED = int(os.environ.get("KFRONT_FUZZ_SEED", "15"))
BUDGET_SECONDS = float(os.environ.get("KFRONT_FUZZ_SECONDS", "16"))
# A mutant parses in milliseconds; the bound is generous because the test
# may share two cores with several builds.
PER_MUTANT_SECONDS = 2.0
# How near (in lines) a seq-less problem must be to a record it accounts for.
NEAR = 1

ANSI = [b"\x1b[0m", b"\x1b[1;32m", b"\x1b[H\x1b[J", b"\x1b(B", b"\x1b[2K\r"]


@dataclass
class Entry:
    """One line of a mutant: its bytes (no line end), the index of the
    clean line it came from (None for an inserted line), its line end."""

    data: bytes
    origin: int | None
    eol: bytes = b"\n"


@dataclass
class Mutant:
    entries: list[Entry]
    done: list[str] = field(default_factory=list)   # mutations applied

    def to_bytes(self) -> bytes:
        return b"".join(e.data + e.eol for e in self.entries)


# -- mutations ---------------------------------------------------------------

def _pick(rng: random.Random, m: Mutant) -> int:
    return rng.randrange(len(m.entries))


def flip_bytes(rng: random.Random, m: Mutant) -> str:
    i = _pick(rng, m)
    data = bytearray(m.entries[i].data)
    if not data:
        return f"flip: line {i} empty"
    for _ in range(rng.randint(1, 3)):
        pos = rng.randrange(len(data))
        data[pos] ^= 1 << rng.randrange(8)
    m.entries[i].data = bytes(data)
    return f"flip bytes in line {i}"


def drop_line(rng: random.Random, m: Mutant) -> str:
    i = _pick(rng, m)
    del m.entries[i]
    return f"drop line {i}"


def duplicate_line(rng: random.Random, m: Mutant) -> str:
    i = _pick(rng, m)
    e = m.entries[i]
    m.entries.insert(i + 1, Entry(e.data, e.origin, e.eol))
    return f"duplicate line {i}"


def swap_lines(rng: random.Random, m: Mutant) -> str:
    i = _pick(rng, m)
    j = min(len(m.entries) - 1, i + rng.randint(1, 3))
    m.entries[i], m.entries[j] = m.entries[j], m.entries[i]
    return f"swap lines {i} and {j}"


def cut_line(rng: random.Random, m: Mutant) -> str:
    i = _pick(rng, m)
    e = m.entries[i]
    e.data = e.data[:rng.randint(0, len(e.data))]
    return f"cut line {i} at {len(e.data)}"


def cut_log(rng: random.Random, m: Mutant) -> str:
    i = _pick(rng, m)
    m.entries[i].data = m.entries[i].data[:rng.randint(0, len(
        m.entries[i].data))]
    m.entries[i].eol = b""
    del m.entries[i + 1:]
    return f"cut the log in line {i}"


def _insert(rng: random.Random, m: Mutant, what: bytes, name: str) -> str:
    i = _pick(rng, m)
    e = m.entries[i]
    pos = 0 if rng.random() < 0.5 else rng.randint(0, len(e.data))
    e.data = e.data[:pos] + what + e.data[pos:]
    return f"insert {name} in line {i} at {pos}"


def insert_nul(rng: random.Random, m: Mutant) -> str:
    return _insert(rng, m, b"\x00" * rng.randint(1, 4), "NULs")


def insert_random(rng: random.Random, m: Mutant) -> str:
    junk = bytes(rng.randrange(256) for _ in range(rng.randint(1, 8)))
    return _insert(rng, m, junk, f"bytes {junk!r}")


def insert_ansi(rng: random.Random, m: Mutant) -> str:
    return _insert(rng, m, rng.choice(ANSI), "an ANSI escape")


def insert_noise_line(rng: random.Random, m: Mutant) -> str:
    i = rng.randint(0, len(m.entries))
    junk = bytes(rng.randrange(256) for _ in range(rng.randint(0, 40)))
    m.entries.insert(i, Entry(junk.replace(b"\n", b""), None))
    return f"insert a noise line before line {i}"


def change_line_ends(rng: random.Random, m: Mutant) -> str:
    style = rng.choice([b"\n", b"\r\n", b"\r", None])
    for e in m.entries:
        if e.eol:
            e.data = e.data.rstrip(b"\r")
            e.eol = style or rng.choice([b"\n", b"\r\n", b"\r"])
    return f"line ends {style!r}"


def concatenate(rng: random.Random, m: Mutant) -> str:
    if m.entries and not m.entries[-1].eol:
        m.entries[-1].eol = b"\n"
    m.entries += [Entry(e.data, e.origin, e.eol) for e in m.entries]
    return "concatenate the log with itself"


def damage_seq(rng: random.Random, m: Mutant) -> str:
    hits = [i for i, e in enumerate(m.entries) if b"#KF" in e.data]
    if not hits:
        return "damage seq: no record"
    i = rng.choice(hits)
    e = m.entries[i]
    start = e.data.index(b"#KF") + 5
    end = e.data.find(b" ", start)
    if end < 0:
        return f"damage seq: line {i} has none"
    new = rng.choice([str(rng.randint(0, 30)), "9" * 20, "0" + str(
        rng.randint(0, 9)), ""]).encode()
    e.data = e.data[:start] + new + e.data[end:]
    return f"seq of line {i} -> {new!r}"


MUTATIONS: list[Callable[[random.Random, Mutant], str]] = [
    flip_bytes, drop_line, duplicate_line, swap_lines, cut_line, cut_log,
    insert_nul, insert_random, insert_ansi, insert_noise_line,
    change_line_ends, concatenate, damage_seq]


# -- the logs ----------------------------------------------------------------

@dataclass
class Subject:
    """A real log and how the collector reads it."""

    name: str
    data: bytes
    console: Callable[[Iterable[bytes]], Iterator[bytes | records.BadLine]]
    loose_seq: bool         # version 1: the CRC does not cover the number


def _plain(lines: Iterable[bytes]) -> Iterator[bytes]:
    return iter(lines)


def subjects() -> list[Subject]:
    out = []
    for name in ("real_quick.log", "real_timeout.log", "real_panic.log"):
        data = (FIXTURES / name).read_bytes()
        out.append(Subject(name, data, _plain, True))
        out.append(Subject(name + " (v2)", as_version_2(data), _plain, False))
    out.append(Subject("real_quick.lava.yaml",
                       (FIXTURES / "real_quick.lava.yaml").read_bytes(),
                       lava_log.console_lines, True))
    return out


def collect_bytes(subject: Subject, data: bytes) -> records.ParseResult:
    """What `kfront collect` makes of these bytes."""
    return records.parse_lines(subject.console(split_lines([data])))


def entry_lines(m: Mutant) -> list[int]:
    """The 1-based line number at which each entry starts (and one more
    for the end), counted the way the collector splits lines."""
    starts = []
    prefix = b""
    for e in m.entries + [Entry(b"", None)]:
        starts.append(len(list(split_lines([prefix + b"x"]))))
        prefix += e.data + e.eol
    return starts


# -- the oracle --------------------------------------------------------------

@dataclass(frozen=True)
class CleanRecord:
    seq: int
    raw: bytes
    origin: int             # index of its line in the clean log


def clean_records(subject: Subject) -> list[CleanRecord]:
    parsed = collect_bytes(subject, subject.data)
    assert len(parsed.runs) == 1, subject.name
    return [CleanRecord(r.seq, r.raw, r.line - 1)
            for r in parsed.runs[0].records]


def _windows(m: Mutant, origin: int, starts: list[int]
             ) -> list[tuple[int, int]]:
    """The mutant lines where a clean line went: its own copies, or when
    it was dropped, the lines of its neighbours."""
    def spans(o: int) -> list[tuple[int, int]]:
        return [(starts[k] - NEAR, starts[k + 1] + NEAR)
                for k, e in enumerate(m.entries) if e.origin == o]
    own = spans(origin)
    if own:
        return own
    return spans(origin - 1) + spans(origin + 1) + [
        (starts[-1] - NEAR, starts[-1] + NEAR)]   # cut at the end


def check_mutant(subject: Subject, clean: list[CleanRecord], m: Mutant,
                 result: records.ParseResult) -> list[str]:
    """Everything wrong with the collector's answer for one mutant."""
    errors = []
    by_seq = {c.seq: c for c in clean}
    payloads = {c.raw for c in clean}
    kept = {(r.seq, r.raw) for run in result.runs for r in run.records}
    # A record lost in a collision with console text is a garbage warning
    # (its run is incomplete all the same): any problem above a note counts.
    real_errors = [p for p in result.problems if p.severity != "note"]
    for seq, raw in kept:
        want = by_seq.get(seq)
        if want is not None and want.raw == raw:
            continue
        if not subject.loose_seq or raw not in payloads:
            errors.append(f"kept record seq {seq} is not the clean log's: "
                          f"{raw[:60]!r}")
        elif not real_errors:
            errors.append(f"payload kept under damaged seq {seq} without "
                          "an error")
    if not result.runs:
        # `kfront collect` says "no kfront records found" and exits 1.
        return errors
    starts = entry_lines(m)
    for c in clean:
        if (c.seq, c.raw) in kept:
            continue
        named = [p for p in real_errors if p.seqs is not None
                 and p.seqs[0] <= c.seq <= p.seqs[1]]
        windows = _windows(m, c.origin, starts)
        near = [p for p in real_errors if any(
            lo <= p.line <= hi or (p.end_line and lo <= p.end_line <= hi)
            for lo, hi in windows)]
        if not named and not near and subject.loose_seq:
            named = _impostor_reported(c, result, real_errors, clean)
        if not named and not near:
            errors.append(f"clean record seq {c.seq} (line {c.origin + 1}) "
                          f"neither kept nor reported (looked near lines "
                          f"{windows})")
    return errors


def _impostor_reported(c: CleanRecord, result: records.ParseResult,
                       problems: list[records.Problem],
                       clean: list[CleanRecord]) -> list[records.Problem]:
    """Version 1 only: another clean payload whose number was damaged into
    c's took c's place. The damage is accounted for by a problem at that
    impostor's line (an order or conflict report) or naming the number it
    really had (the gap it left)."""
    true_seq = {x.raw: x.seq for x in clean}
    out = []
    for run in result.runs:
        impostor = run.by_seq.get(c.seq)
        if impostor is None or impostor.raw == c.raw:
            continue
        real = true_seq.get(impostor.raw, -1)
        out += [p for p in problems
                if abs(p.line - impostor.line) <= NEAR
                or (p.seqs is not None and p.seqs[0] <= real <= p.seqs[1])]
    return out


def mutate(rng: random.Random, subject: Subject) -> Mutant:
    lines = subject.data.split(b"\n")
    last_eol = b"" if lines[-1] else b"\n"
    if not lines[-1]:
        lines.pop()
    m = Mutant([Entry(data, i) for i, data in enumerate(lines)])
    m.entries[-1].eol = last_eol
    for _ in range(rng.randint(1, 3)):
        if not m.entries:
            break
        m.done.append(rng.choice(MUTATIONS)(rng, m))
    return m


class TestCollectorFuzz(unittest.TestCase):
    def test_random_damage_to_real_logs(self) -> None:
        subs = subjects()
        cleans = {s.name: clean_records(s) for s in subs}
        deadline = time.monotonic() + BUDGET_SECONDS
        tried = 0
        slowest = 0.0
        number = 0
        while time.monotonic() < deadline:
            for subject in subs:
                rng = random.Random(f"{SEED}/{subject.name}/{number}")
                m = mutate(rng, subject)
                data = m.to_bytes()
                where = (f"KFRONT_FUZZ_SEED={SEED} log {subject.name} "
                         f"mutant {number}: {'; '.join(m.done)}")
                start = time.monotonic()
                try:
                    result = collect_bytes(subject, data)
                except Exception as exc:   # any exception is the failure
                    self.fail(f"{where}: {type(exc).__name__}: {exc}")
                took = time.monotonic() - start
                slowest = max(slowest, took)
                self.assertLess(took, PER_MUTANT_SECONDS, where)
                errors = check_mutant(subject, cleans[subject.name], m,
                                      result)
                self.assertEqual(errors, [], where)
                tried += 1
            number += 1
        print(f"\ncollector fuzz: {tried} mutants of {len(subs)} real logs "
              f"(seed {SEED}), slowest {slowest * 1000:.0f} ms",
              file=sys.stderr)
        self.assertGreater(tried, 0)


if __name__ == "__main__":
    unittest.main()
