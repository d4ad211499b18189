# SPDX-License-Identifier: GPL-2.0-or-later
"""Serial record parser: lines of a console log -> runs of checked records.

The format is specified in docs/record-format.md (version 2; version 1
logs are still read):

    #KF2 <seq> <crc32 as 8 lowercase hex> <JSON payload>\\r\\n

In version 2 the CRC covers the sequence number's text, one space and the
payload; in version 1 it covers the payload only, so a damaged sequence
number went unnoticed there.

`parse_line` classifies a single line; `LogParser` consumes a stream of lines
(incrementally, so a live serial port can stop at the suite-end record) and
splits it into `Run`s, one per boot, while recording every `Problem` with the
1-based line number where it was seen:

- bad_crc      a record line whose payload fails its CRC-32 (flipped bytes)
- truncated    a record line cut short (missing fields, payload cut off)
- malformed    a record line with a bad sequence number, CRC field or JSON,
               or a known record with a field of the wrong type
               (check_fields): it is left out
- gap          sequence numbers that never arrived (dropped lines)
- duplicate    the same sequence number with the same payload again
- conflict     the same sequence number with a different payload
- order        a sequence number that arrived after a higher one
- garbage      console text between two records of one run (the kernel's
               own "kfront: ..." progress lines excepted)
- incomplete   a run that has no suite_end record (box crashed or hung)
- no_begin     records whose suite_begin record was lost
- panic        a panic record (CPU exception or kernel panic)
- panic_text   a panic message in console text outside a run (a note)
- count        suite_end's record count disagrees with its sequence number
- status       suite_end reports that not every benchmark ran
- unknown      a well-formed record of a type this parser does not know
- duplicate_run  a run that repeats an earlier run record for record (a log
               concatenated with itself): its results are not counted again
- bad_entry    a line of a wrapped log (LAVA YAML) that is not a valid entry;
               the console line it carried is lost, the lines around it kept

Console text before a run's suite_begin or after its suite_end (firmware,
GRUB, boot messages) is normal and not a problem. Text after the last record
of a run that never ended is the crash output, not garbage. Terminal escape
sequences (colour resets) and blanks before a record are not text: the
record is kept.

A new run starts at a suite_begin record with seq 0, and also, when that
record was lost, at the kernel's banner ("kfront <version> (<git>) booting")
or at a record that shows the sequence numbers restarted: any new record
after a panic record, or (version 2, whose CRC covers the number) a record
whose number is already taken in the run by a different payload and lies
below the highest one seen. The run it ends is `incomplete`, the new one
`no_begin`.
"""

from __future__ import annotations

import bisect
import json
import math
import re
import zlib
from dataclasses import dataclass, field
from typing import Any, Iterable

PREFIX = b"#KF2"
FORMAT_VERSION = 2
# Record prefixes this parser reads, and what each one's CRC covers.
PREFIXES = (b"#KF2", b"#KF1")
# RECORD_PAYLOAD_MAX of include/kfront/record.h (tests/py/test_limits.py).
MAX_PAYLOAD = 8192
# Lines longer than this are never parsed as JSON (a runaway line on a
# noisy link); they are reported and skipped.
MAX_LINE = 64 * 1024

# gcov_*: a training image's arc profile (docs/pgo.md, tools/kfront/pgo.py).
GCOV_TYPES = frozenset({"gcov_obj", "gcov_fn", "gcov_ctr"})
KNOWN_TYPES = frozenset(
    {"suite_begin", "result", "error", "timeout", "panic", "suite_end"}) | GCOV_TYPES

SEVERITY = {
    "bad_crc": "error", "truncated": "error", "malformed": "error",
    "gap": "error", "conflict": "error", "incomplete": "error",
    "no_begin": "error", "panic": "error", "count": "error",
    "digest_mismatch": "error",
    "duplicate": "warning", "order": "warning", "garbage": "warning",
    "status": "warning", "unknown": "warning", "stats_mismatch": "warning",
    "zero_counter": "warning", "clamped": "warning",
    "duplicate_run": "error", "bad_entry": "error",
    "panic_text": "note",
}

_SEQ_RE = re.compile(rb"[0-9]{1,20}")
_CRC_RE = re.compile(rb"[0-9a-f]{8}")
# What may precede a record on its line without being console text that
# collided with it: terminal escape sequences (CSI such as the colour reset
# "\x1b[0m", a character set choice such as "\x1b(B", or a two-byte
# escape), blanks, carriage returns and NULs.
_ESCAPE = r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b[ -/]+[0-~]|\x1b[@-Z\\-_]"
_LEADING_NOISE_RE = re.compile(f"(?:{_ESCAPE}|[ \t\r\x00])+".encode())
_TEXT_NOISE_RE = re.compile(f"(?:{_ESCAPE}|[ \t\r])+")
# The kernel's first line on every boot (kernel/main.c).
_BANNER_RE = re.compile(r"kfront \S+ \([^()]*\) booting\b")
# One more than the largest sequence number a record can carry (20 digits):
# the open upper end of the numbers an incomplete run never sent.
SEQ_END = 10 ** 20
_PANIC_RE = re.compile(
    r"(?i)(\bpanic\b|^\s*(exception|oops)\b|triple fault|double fault|"
    r"\bcpu exception\b)")


@dataclass(frozen=True)
class Problem:
    """One problem found in a log, at a 1-based line number."""

    kind: str
    line: int
    message: str
    run: int | None = None      # index of the run it belongs to, if any
    end_line: int | None = None  # last line of a multi-line block
    # Sequence numbers this problem accounts for (first, last), when known:
    # a damaged line's claimed number, a gap's range, the numbers an
    # incomplete run never sent. Not part of the JSON form.
    seqs: tuple[int, int] | None = None

    @property
    def severity(self) -> str:
        return SEVERITY.get(self.kind, "error")

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"kind": self.kind, "severity": self.severity,
                             "line": self.line, "message": self.message}
        if self.run is not None:
            d["run"] = self.run
        if self.end_line is not None and self.end_line != self.line:
            d["end_line"] = self.end_line
        return d

    def __str__(self) -> str:
        return f"line {self.line}: {self.kind}: {self.message}"


@dataclass(frozen=True)
class Record:
    """A record line that passed every check."""

    seq: int
    payload: dict[str, Any]
    raw: bytes          # the payload bytes exactly as received
    line: int
    version: int = FORMAT_VERSION   # record format of its line

    @property
    def type(self) -> str:
        return str(self.payload.get("t", ""))


@dataclass(frozen=True)
class BadLine:
    """A line that is meant to be a record but fails a check."""

    kind: str           # bad_crc, truncated, malformed or garbage
    message: str
    seq: int | None     # the sequence number it claims, if readable


@dataclass(frozen=True)
class TextLine:
    """Ordinary console text (or a blank line)."""

    text: str

    @property
    def blank(self) -> bool:
        return not self.text.strip(" \t\r\n\x00")


ParsedLine = Record | BadLine | TextLine


def _to_bytes(raw: bytes | str) -> bytes:
    if isinstance(raw, str):
        return raw.encode("utf-8", errors="surrogateescape")
    return raw


def decode_text(raw: bytes) -> str:
    """Console bytes as text: never fails, NUL bytes dropped."""
    return raw.decode("utf-8", errors="replace").replace("\x00", "")


def _strip_eol(raw: bytes) -> bytes:
    """Drop the line ending and NUL padding that serial links add."""
    return raw.rstrip(b"\r\n").strip(b"\x00").rstrip(b"\r")


def _short(text: str, limit: int = 60) -> str:
    text = text.replace("\ufffd", "?")
    text = "".join(c if c.isprintable() else "?" for c in text)
    return text if len(text) <= limit else text[:limit - 3] + "..."


def _skip_leading_noise(data: bytes) -> bytes:
    """The line from its record on, when only escape sequences or blanks
    stand before the record (a colour reset is not a collision)."""
    noise = _LEADING_NOISE_RE.match(data)
    if noise and data.startswith(b"#KF", noise.end()):
        return data[noise.end():]
    return data


def plain_text(text: str) -> str:
    """Console text without leading escape sequences and blanks."""
    noise = _TEXT_NOISE_RE.match(text)
    return text[noise.end():] if noise else text


def _find_prefix(data: bytes) -> int:
    """Where a record starts inside a line of console text, or -1."""
    hits = [p for p in (data.find(x + b" ") for x in PREFIXES) if p > 0]
    return min(hits) if hits else -1


def _line_crc(prefix: bytes, seq_text: bytes, payload: bytes) -> int:
    """The CRC a record line must carry: version 2 covers the sequence
    number too, version 1 the payload alone."""
    covered = payload if prefix == b"#KF1" else seq_text + b" " + payload
    return zlib.crc32(covered) & 0xFFFFFFFF


def _no_constant(name: str) -> Any:
    """json's NaN, Infinity and -Infinity are not JSON (the kernel never
    prints them); taken as numbers they would pass every comparison."""
    raise ValueError(f"{name} is not a JSON number")


def _finite(text: str) -> float:
    """A JSON number with a fraction or exponent (1e999 is not infinity)."""
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(f"number {_short(text, 20)} out of range")
    return value


# -- field types -----------------------------------------------------------
#
# What each field a reader uses must hold, checked once where a record (or a
# results document, model.py) is read, so that no reader meets a list where
# it expects a number. A spec is one of the names in _SIMPLE, ("list", spec)
# for a list of such items, ("map", spec) for an object of such values, or a
# dict {field: spec} for an object whose listed fields are checked when
# present (absent or null is always allowed; other fields are free).

# Payload integers are unsigned and fit in 64 bits (docs/record-format.md);
# a larger one would overflow the float statistics.
U64_LIMIT = 1 << 64


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


_SIMPLE: dict[str, tuple[str, Any]] = {
    "str": ("a string", lambda v: isinstance(v, str)),
    "bool": ("true or false", lambda v: isinstance(v, bool)),
    "u64": ("an integer from 0 to 2^64-1",
            lambda v: _is_int(v) and 0 <= v < U64_LIMIT),
    "int": ("an integer of at most 64 bits",
            lambda v: _is_int(v) and -U64_LIMIT < v < U64_LIMIT),
    "num": ("a finite number",
            lambda v: (_is_int(v) and -U64_LIMIT < v < U64_LIMIT)
            or (isinstance(v, float) and math.isfinite(v))),
    "scalar": ("a string, number or boolean",
               lambda v: not isinstance(v, (dict, list)) and v is not None
               and (not isinstance(v, float) or math.isfinite(v))),
    "obj": ("an object", lambda v: isinstance(v, dict)),
    "list": ("a list", lambda v: isinstance(v, list)),
}


def fits(value: Any, spec: str) -> bool:
    """Whether `value` is of the simple type `spec` ("u64", "num", ...)."""
    return _SIMPLE[spec][1](value)


def _shown(value: Any) -> str:
    return _short(json.dumps(value) if isinstance(value, (dict, list, str))
                  else repr(value), 40)


def check_value(value: Any, spec: Any, where: str) -> str | None:
    """None if `value` matches `spec`, else "WHERE: expected ..., got ..."
    naming the first wrong field (dotted path from `where`)."""
    at = where or "top level"
    if isinstance(spec, str):
        what, ok = _SIMPLE[spec]
        return None if ok(value) else \
            f"{at}: expected {what}, got {_shown(value)}"
    if isinstance(spec, dict):
        if not isinstance(value, dict):
            return f"{at}: expected an object, got {_shown(value)}"
        for name, sub in spec.items():
            if value.get(name) is not None:
                wrong = check_value(value[name], sub,
                                    f"{where}.{name}" if where else name)
                if wrong:
                    return wrong
        return None
    kind, sub = spec
    if kind == "list":
        if not isinstance(value, list):
            return f"{at}: expected a list, got {_shown(value)}"
        items = enumerate(value)
        fmt = "{}[{}]"
    else:
        if not isinstance(value, dict):
            return f"{at}: expected an object, got {_shown(value)}"
        items = value.items()
        fmt = "{}.{}"
    for key, item in items:
        wrong = check_value(item, sub, fmt.format(where, key))
        if wrong:
            return wrong
    return None


MACHINE_FIELDS: dict[str, Any] = {
    "vendor": "str", "brand": "str", "uarch": "str", "hypervisor": "str",
    "family": "u64", "model": "u64", "stepping": "u64", "apic": "bool",
    "features": ("list", "str"),
    "tsc": {"hz": "num", "source": "str", "invariant": "bool",
            "check": {"hz": "num", "source": "str"}},
    "lfence": {"serialising": "bool", "how": "str"},
    "string_helpers": {"memcpy": "str", "memset": "str", "by": "str"},
    "pmu": {"available": "bool", "reason": "str", "version": "u64",
            "gp": "u64", "gp_width": "u64", "fixed": "u64",
            "groups": "list",
            "encodings": ("map", {"event": "str", "encoding": "str"})},
    "counters": ("list", "str"),
    "unavailable": ("map", "str"),
}
CONFIG_FIELDS: dict[str, Any] = {
    "runs": "u64", "iters": "u64", "warmup": "u64", "quick": "bool",
    "method": "str", "budget_ms": "u64", "state": "str",
    "placement": {"how": "str", "text_pa": "str", "page": "u64",
                  "text_bytes": "u64", "page_bytes": "u64"},
    "text_pages": {"asked": "str", "text_bytes": "u64", "huge_bytes": "u64",
                   "note": "str"},
}
VARIANT_FIELDS: dict[str, Any] = {"name": "str", "cc": "str", "flags": "str",
                                  "shift": "u64"}
# Per record type (docs/record-format.md). A result's samples and counters
# are checked counter by counter where they are used (results.py): one bad
# counter loses that counter, not the record.
RECORD_FIELDS: dict[str, dict[str, Any]] = {
    "suite_begin": {
        "kfront": "str", "git": "str", "cmdline": "str", "context": "str",
        "wire": "str", "machine": MACHINE_FIELDS, "config": CONFIG_FIELDS,
        "variants": ("list", VARIANT_FIELDS),
    },
    "result": {
        "bench": "str", "variant": "str", "group": "scalar", "op": "str",
        "method": "str", "state": "str", "wire": "str", "footprint": "u64",
        "runs": "u64", "warmup": "u64", "digest": "scalar",
        "overhead": ("map", "num"), "overhead_spread": ("map", "obj"),
        "clamped": ("map", "u64"), "positions": ("list", "u64"),
        "per_region": ("list", "str"), "samples": "obj", "counters": "obj",
        "sim_functions": "obj", "vg_functions": "obj",
    },
    "suite_end": {"records": "u64", "status": "int"},
}


def check_fields(payload: dict[str, Any]) -> str | None:
    """Why a record's fields have the wrong type, or None (types without
    a spec, and fields no reader uses, are not checked)."""
    spec = RECORD_FIELDS.get(payload.get("t", ""))
    return None if spec is None else check_value(payload, spec, "")


def parse_line(raw: bytes | str, lineno: int = 0) -> ParsedLine:
    """Classify one line of a console log (with or without its line end)."""
    data = _skip_leading_noise(_strip_eol(_to_bytes(raw)))
    if not data.startswith(b"#KF"):
        pos = _find_prefix(data)
        if pos > 0:
            after = parse_line(data[pos:], lineno)
            claimed = None if isinstance(after, TextLine) else after.seq
            lost = f" (record seq {claimed} lost)" if claimed is not None \
                else ""
            return BadLine("garbage", "console text collided with a record: "
                           f"'{_short(decode_text(data[:pos]), 40)}' before "
                           f"the record{lost}", claimed)
        return TextLine(decode_text(data))
    if len(data) > MAX_LINE:
        return BadLine("malformed", f"record line of {len(data)} bytes is "
                       f"longer than {MAX_LINE}", None)
    prefix = data[:4]
    if prefix not in PREFIXES:
        version = _short(decode_text(data[3:4]), 4)
        return BadLine("malformed",
                       f"unsupported record format '#KF{version}'", None)
    fields = data.split(b" ", 3)
    if fields[0] != prefix:
        return BadLine("malformed", f"no space after {prefix.decode()}", None)
    seq: int | None = None
    if len(fields) >= 2 and _SEQ_RE.fullmatch(fields[1]):
        seq = int(fields[1])
    if len(fields) < 4 or not fields[3]:
        return BadLine("truncated", "record line ends after "
                       f"{len(fields) - 1} of 3 fields", seq)
    _, seq_text, crc_text, payload = fields
    if seq is None:
        return BadLine("malformed", "bad sequence number "
                       f"'{_short(decode_text(seq_text), 24)}'", None)
    if not _CRC_RE.fullmatch(crc_text):
        return BadLine("malformed", "bad CRC field "
                       f"'{_short(decode_text(crc_text), 24)}'", seq)
    crc = int(crc_text, 16)
    actual = _line_crc(prefix, seq_text, payload)
    if actual != crc:
        if not payload.rstrip(b" ").endswith(b"}"):
            return BadLine("truncated", f"record seq {seq} cut short after "
                           f"{len(payload)} payload bytes (CRC mismatch)", seq)
        # The claimed number may itself be the damaged part (version 2
        # covers it): it only ever silences a gap report, never drives a
        # loop, so a wild value costs nothing.
        return BadLine("bad_crc", f"record seq {seq}: CRC {crc:08x} "
                       f"expected, line has {actual:08x}", seq)
    try:
        obj = json.loads(payload.decode("ascii"),
                         parse_constant=_no_constant, parse_float=_finite)
    except (UnicodeDecodeError, ValueError, RecursionError) as exc:
        # RecursionError: a payload nested deeper than json can follow
        # (the CRC is easy to forge; the kernel never nests that deep).
        reason = str(exc).split(":")[0]
        return BadLine("malformed", f"record seq {seq}: payload is not "
                       f"ASCII JSON ({_short(reason, 40)})", seq)
    if not isinstance(obj, dict) or not isinstance(obj.get("t"), str):
        return BadLine("malformed", f"record seq {seq}: payload is not a "
                       "JSON object with a string 't'", seq)
    wrong = check_fields(obj)
    if wrong is not None:
        # Left out like a damaged line (its number is accounted for): a
        # forged record must not stop the collection of the others.
        return BadLine("malformed", f"record seq {seq}: {_short(obj['t'], 24)}"
                       f" {_short(wrong, 120)}", seq)
    return Record(seq, obj, payload, lineno, 1 if prefix == b"#KF1" else 2)


@dataclass
class Run:
    """The records of one boot, from its suite_begin to its suite_end."""

    index: int
    begin: Record | None = None
    end: Record | None = None
    by_seq: dict[int, Record] = field(default_factory=dict)
    first_line: int = 0
    last_line: int = 0
    problems: list[Problem] = field(default_factory=list)
    # Sequence numbers claimed by corrupted lines (already reported there).
    lost: dict[int, int] = field(default_factory=dict)
    highest: int = -1
    crashed: bool = False       # a panic record arrived
    # Index of the earlier run this one repeats record for record (its
    # results are that run's, not new ones).
    duplicate_of: int | None = None

    @property
    def records(self) -> list[Record]:
        """Accepted records in sequence order."""
        return [self.by_seq[s] for s in sorted(self.by_seq)]

    @property
    def ended(self) -> bool:
        return self.end is not None

    @property
    def complete(self) -> bool:
        """suite_begin and suite_end present, every record from 0 to the
        suite_end received, and no error-level problem."""
        if self.begin is None or self.end is None:
            return False
        # Distinct non-negative numbers up to end.seq: all there iff counted.
        if sum(1 for s in self.by_seq if s <= self.end.seq) \
                != self.end.seq + 1:
            return False
        return not any(p.severity == "error" for p in self.problems)

    def of_type(self, kind: str) -> list[Record]:
        return [r for r in self.records if r.type == kind]


@dataclass
class ParseResult:
    """Everything a log held: its runs and all problems, by line."""

    runs: list[Run]
    problems: list[Problem]
    lines: int


# The kernel's own console lines (progress "kfront: [3/9] calib.calls",
# error echoes) may appear between records; they are not garbage.
CONSOLE_PREFIXES = ("kfront: ", "kfront ")


class LogParser:
    """Incremental parser: feed lines in order, then call finish().

    Inside a run, text lines starting with one of `console_prefixes` are the
    kernel's own messages and are skipped; any other text is garbage.
    """

    def __init__(self, console_prefixes: tuple[str, ...] = CONSOLE_PREFIXES
                 ) -> None:
        self.console_prefixes = console_prefixes
        self.runs: list[Run] = []
        self.problems: list[Problem] = []
        self.lineno = 0
        self._open: Run | None = None      # run between begin and end
        self._pending: list[tuple[int, str]] = []  # text since last record
        # The banner of a new boot was seen and no run has started since:
        # the next record starts a run even if its suite_begin was lost.
        self._booting = False
        # (seq, payload bytes) of each result record -> the first run that
        # holds it, to find a run that repeats an earlier one.
        self._result_owner: dict[tuple[int, bytes], int] = {}

    # -- public -----------------------------------------------------------

    @property
    def last_run_ended(self) -> bool:
        """True once the most recent run has its suite_end record."""
        return bool(self.runs) and self.runs[-1].ended

    def feed(self, raw: bytes | str | BadLine) -> ParsedLine:
        """Consume the next line of the log. A BadLine stands for a line
        its source could not read (a damaged entry of a wrapped log)."""
        self.lineno += 1
        item = raw if isinstance(raw, BadLine) else \
            parse_line(raw, self.lineno)
        if isinstance(item, Record):
            self._on_record(item)
        elif isinstance(item, BadLine):
            self._on_bad(item)
        elif _BANNER_RE.match(plain_text(item.text)):
            self._on_banner(item.text)
        elif not item.blank and not (
                self._open is not None
                and plain_text(item.text).startswith(self.console_prefixes)):
            self._pending.append((self.lineno, item.text))
        return item

    def finish(self) -> ParseResult:
        """End of input: close the last run and return the result."""
        run = self._open
        if run is not None:
            self._flush_text(garbage=False, run=run)
            self._close(run, self.lineno, "the log ends")
            self._open = None
        else:
            self._flush_text(garbage=False, run=None)
        problems = sorted(self.problems, key=lambda p: (p.line, p.kind))
        return ParseResult(self.runs, problems, self.lineno)

    # -- internals --------------------------------------------------------

    def _report(self, kind: str, line: int, msg: str, run: Run | None,
                end_line: int | None = None,
                seqs: tuple[int, int] | None = None) -> None:
        prob = Problem(kind, line, msg, run.index if run else None, end_line,
                       seqs)
        self.problems.append(prob)
        if run is not None:
            run.problems.append(prob)

    def _flush_text(self, garbage: bool, run: Run | None) -> None:
        """Classify the console text seen since the last record."""
        if not self._pending:
            return
        blocks: list[list[tuple[int, str]]] = []
        for lineno, text in self._pending:
            if blocks and blocks[-1][-1][0] == lineno - 1:
                blocks[-1].append((lineno, text))
            else:
                blocks.append([(lineno, text)])
        self._pending = []
        for block in blocks:
            first, last = block[0][0], block[-1][0]
            panic = [t for _, t in block if _PANIC_RE.search(t)]
            if garbage:
                what = " (panic text)" if panic else ""
                count = f"{len(block)} lines of " if len(block) > 1 else ""
                self._report("garbage", first,
                             f"{count}console text inside a run{what}: "
                             f"'{_short(block[0][1])}'", run, last)
            elif panic and not (run and any(
                    p.kind in ("panic", "panic_text") for p in run.problems)):
                line = next(n for n, t in block if _PANIC_RE.search(t))
                self._report("panic_text", line,
                             f"panic message on the console: "
                             f"'{_short(panic[0])}'", run, last)

    def _start(self, rec: Record | None, line: int) -> Run:
        run = Run(index=len(self.runs), begin=rec, first_line=line,
                  last_line=line)
        self.runs.append(run)
        self._open = run
        self._booting = False
        return run

    def _start_without_begin(self, rec: Record) -> Run:
        run = self._start(None, rec.line)
        self._report("no_begin", rec.line, f"record seq {rec.seq} without a "
                     "suite_begin record: the start of this run was lost",
                     run, seqs=(0, rec.seq - 1) if rec.seq > 0 else None)
        return run

    def _on_banner(self, text: str) -> None:
        """The kernel's banner: a new boot, whatever came before. An open
        run is closed at the next record (where a suite_begin closes it
        too), so its incomplete report stays at the new run's start."""
        if self._open is not None:
            # What the crashed boot printed last is its crash output.
            self._flush_text(garbage=False, run=self._open)
        self._booting = True

    def _restarts(self, run: Run, rec: Record) -> bool:
        """Whether a record belongs to a new boot whose suite_begin (and
        banner) were lost: the sequence numbers started again."""
        old = run.by_seq.get(rec.seq)
        if old is not None and old.raw == rec.raw:
            return False        # a repeated line, not a new boot
        if run.crashed:
            return True         # nothing follows a panic record in a boot
        # Only version 2 proves the number is real (its CRC covers it); a
        # version 1 number may be damaged and stays a conflict.
        return (old is not None and rec.seq < run.highest
                and rec.version >= 2 and old.version >= 2)

    def _on_record(self, rec: Record) -> None:
        run = self._open
        if (rec.type == "suite_begin" and rec.seq == 0 and run is not None
                and run.begin is not None and run.highest == 0
                and run.begin.raw == rec.raw):
            # The first line repeated before anything else arrived: a
            # duplicate, not a second boot (a new boot prints more first).
            self._flush_text(garbage=True, run=run)
        elif rec.type == "suite_begin" and rec.seq == 0:
            if run is not None:
                self._flush_text(garbage=False, run=run)
                self._close(run, rec.line, "a new boot begins")
            else:
                self._flush_text(garbage=False, run=self._last_run())
            run = self._start(rec, rec.line)
        elif run is None:
            last = self._last_run()
            old = last.by_seq.get(rec.seq) if last else None
            if (last is not None and old is not None and old.raw == rec.raw
                    and not self._booting):
                self._flush_text(garbage=False, run=last)
                self._report("duplicate", rec.line, f"record seq {rec.seq} "
                             f"repeats line {old.line}", last)
                return
            self._flush_text(garbage=False, run=last)
            run = self._start_without_begin(rec)
        elif self._booting:
            self._flush_text(garbage=False, run=run)
            self._close(run, rec.line, "a new boot begins")
            run = self._start_without_begin(rec)
        elif self._restarts(run, rec):
            self._flush_text(garbage=False, run=run)
            self._close(run, rec.line, f"record seq {rec.seq} starts the "
                        "sequence again (a new boot)")
            run = self._start_without_begin(rec)
        else:
            # The kernel prints its panic report as text, then the panic
            # record: that text is the crash report, not garbage.
            self._flush_text(garbage=rec.type != "panic", run=run)
        self._add(run, rec)

    def _last_run(self) -> Run | None:
        return self.runs[-1] if self.runs else None

    def _on_bad(self, bad: BadLine) -> None:
        run = self._open
        if run is not None:
            # After a new boot's banner, text is boot output, not garbage.
            self._flush_text(garbage=not self._booting, run=run)
            if bad.seq is not None:
                run.lost.setdefault(bad.seq, self.lineno)
            run.last_line = self.lineno
        else:
            self._flush_text(garbage=False, run=self._last_run())
        self._report(bad.kind, self.lineno, bad.message, run,
                     seqs=None if bad.seq is None else (bad.seq, bad.seq))

    def _add(self, run: Run, rec: Record) -> None:
        run.last_line = rec.line
        old = run.by_seq.get(rec.seq)
        if old is not None:
            if old.raw == rec.raw:
                self._report("duplicate", rec.line, f"record seq {rec.seq} "
                             f"repeats line {old.line}", run)
            else:
                self._report("conflict", rec.line, f"record seq {rec.seq} "
                             f"differs from the one at line {old.line} "
                             "(kept the first)", run,
                             seqs=(rec.seq, rec.seq))
            return
        if rec.seq < run.highest:
            self._report("order", rec.line, f"record seq {rec.seq} arrived "
                         f"after seq {run.highest}", run)
        run.by_seq[rec.seq] = rec
        run.highest = max(run.highest, rec.seq)
        if rec.type not in KNOWN_TYPES:
            self._report("unknown", rec.line, f"record seq {rec.seq} has "
                         f"unknown type '{_short(rec.type, 24)}'", run)
        elif rec.type == "panic":
            run.crashed = True
            p = rec.payload
            self._report("panic", rec.line, "kernel panic: "
                         f"{_short(str(p.get('name') or p.get('msg', '')))} "
                         f"at {p.get('rip', '?')} {p.get('sym', '')}".rstrip(),
                         run)
        elif rec.type == "suite_begin" and rec.seq != 0:
            self._report("malformed", rec.line, "suite_begin record with "
                         f"seq {rec.seq} instead of 0", run)
        elif rec.type == "suite_end":
            self._end(run, rec)

    def _end(self, run: Run, rec: Record) -> None:
        run.end = rec
        self._open = None
        count = rec.payload.get("records")
        if count != rec.seq:
            self._report("count", rec.line, f"suite_end says {count} records "
                         f"were sent before it, its seq is {rec.seq}", run)
        status = rec.payload.get("status", 0)
        if status != 0:
            self._report("status", rec.line, f"suite_end reports status "
                         f"{status}: not every benchmark ran", run)
        self._check_gaps(run)
        self._check_repeat(run)

    def _close(self, run: Run, line: int, why: str) -> None:
        """A run that stops without its suite_end record."""
        self._check_gaps(run)
        last = max(run.by_seq.values(), key=lambda r: r.line, default=None)
        where = (f"last record seq {last.seq} at line {last.line}"
                 if last else "no record survived")
        self._report("incomplete", line, f"run {run.index + 1} (from line "
                     f"{run.first_line}) has no suite_end record when {why} "
                     f"({where}): the box crashed, hung or was cut off", run,
                     seqs=(run.highest + 1, SEQ_END - 1))
        self._check_repeat(run)

    def _check_repeat(self, run: Run) -> None:
        """Report a run whose every record is one of an earlier run's, byte
        for byte (a log concatenated with itself): its results were
        measured once. Only runs with results count: a boot that crashes
        the same way twice legitimately prints the same panic record.

        One dictionary look-up finds the only candidate, and the check is
        one pass over this run's records, so the work stays linear."""
        mine = sorted(((r.seq, r.raw) for r in run.by_seq.values()
                       if r.type == "result"))
        if not mine:
            return
        owner = self._result_owner.get(mine[0])
        if owner is not None and all(
                (old := self.runs[owner].by_seq.get(r.seq)) is not None
                and old.raw == r.raw for r in run.by_seq.values()):
            run.duplicate_of = owner
            first = self.runs[owner]
            self._report("duplicate_run", run.first_line,
                         f"run {run.index + 1} (lines {run.first_line}-"
                         f"{run.last_line}) repeats run {owner + 1} (lines "
                         f"{first.first_line}-{first.last_line}) record for "
                         "record: the same boot is in the log twice, its "
                         "results are counted once", run, run.last_line)
            return
        for key in mine:
            self._result_owner.setdefault(key, run.index)

    def _check_gaps(self, run: Run) -> None:
        """Report sequence numbers that left no trace at all.

        The work is bounded by the number of records seen, never by a
        sequence number read from the log: each hole between two known
        numbers is one range, however wide."""
        if not run.by_seq:
            return
        known = sorted(set(run.by_seq) | set(run.lost))
        start = 0 if run.begin is not None else min(run.by_seq)
        # First line of an accepted record with seq above each position.
        by_seq = sorted(run.by_seq.values(), key=lambda r: r.seq)
        first_line_after = [0] * len(by_seq)
        low = run.last_line
        for i in range(len(by_seq) - 1, -1, -1):
            low = min(low, by_seq[i].line)
            first_line_after[i] = low
        seqs = [r.seq for r in by_seq]
        prev = start - 1
        for seq in known:
            if seq > run.highest:
                break
            if seq > prev + 1:
                self._report_gap(run, prev + 1, seq - 1, seqs,
                                 first_line_after)
            prev = max(prev, seq)

    def _report_gap(self, run: Run, first: int, last: int, seqs: list[int],
                    first_line_after: list[int]) -> None:
        i = bisect.bisect_right(seqs, last)
        line = first_line_after[i] if i < len(seqs) else run.last_line
        what = f"seq {first}" if first == last else f"seqs {first}..{last}"
        self._report("gap", line, f"record {what} missing before this line "
                     "(dropped lines)", run, seqs=(first, last))


def parse_lines(lines: Iterable[bytes | str | BadLine]) -> ParseResult:
    """Parse a whole log given as lines (bytes or str, line ends optional)."""
    parser = LogParser()
    for raw in lines:
        parser.feed(raw)
    return parser.finish()


def make_line(seq: int, payload: dict[str, Any] | str,
              version: int = FORMAT_VERSION) -> str:
    """Format one record line (used by tests, fixtures and the host harness);
    `version=1` writes the old format, for tests of old logs."""
    text = payload if isinstance(payload, str) else json.dumps(
        payload, separators=(",", ":"), ensure_ascii=True)
    prefix = f"#KF{version}".encode()
    if prefix not in PREFIXES:
        raise ValueError(f"no record format version {version}")
    crc = _line_crc(prefix, str(seq).encode(), text.encode("ascii"))
    return f"{prefix.decode()} {seq} {crc:08x} {text}"
