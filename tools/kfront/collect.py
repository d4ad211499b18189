# SPDX-License-Identifier: GPL-2.0-or-later
"""Collection of result records from console captures.

The input layer is pluggable: a `LineSource` yields the raw lines of one
console (bytes, line numbers are their 1-based positions). `FileSource`
reads a plain serial capture, `SerialSource` reads a live serial port until
the suite-end record or a timeout. `open_source()` picks a source for a path
by asking each registered format in `SOURCE_FORMATS` whether it recognises
the file's first bytes, so a LAVA YAML log reader can be added later as one
more entry without touching the parser.
"""

from __future__ import annotations

import os
import re
import select
import termios
import time
import tty
from dataclasses import dataclass, field
from pathlib import Path
from typing import BinaryIO, Callable, Iterable, Iterator, Protocol

from .records import BadLine, LogParser, ParseResult, Problem, Run

READ_CHUNK = 64 * 1024
DEFAULT_BAUD = 115200
DEFAULT_DEVICE_TIMEOUT = 600.0


class CollectError(Exception):
    """An input that cannot be read at all (one-line message)."""


@dataclass
class CollectResult:
    """The runs found in one console log and every problem in it."""

    source: str
    runs: list[Run]
    problems: list[Problem]
    lines: int = 0
    notes: list[str] = field(default_factory=list)

    @property
    def complete(self) -> bool:
        """At least one run and every run complete."""
        return bool(self.runs) and all(r.complete for r in self.runs)

    @property
    def clean(self) -> bool:
        """Complete, and no problem worse than a note."""
        return self.complete and not any(
            p.severity != "note" for p in self.problems)


class LineSource(Protocol):
    """Where console lines come from (file, serial port, LAVA log, ...)."""

    name: str

    def lines(self) -> Iterator[bytes | BadLine]:
        """The console's lines in order, line ends included or not; a
        line the source could not read is a BadLine at its place."""
        ...


# Padding a serial link or terminal puts around a line end: a carriage
# return and NUL bytes next to a \n belong to that line end.
_EDGE = b"\r\x00"
_PADDING_RUN = re.compile(rb"[\r\x00]+")


def split_at_cr(line: bytes) -> list[bytes]:
    """One \n-terminated line as the lines it holds: a lone carriage
    return between text ends a line too (old terminal captures end every
    line with \r only), while \r at either edge is part of the \n line
    end (\r\n, or the \r a console sends before text) and splits
    nothing, so a log with \r\n line ends keeps its line numbers."""
    core = line.strip(_EDGE)
    if b"\r" not in core:
        return [line]
    start = len(line) - len(line.lstrip(_EDGE))
    parts = core.split(b"\r")
    parts[0] = line[:start] + parts[0]
    parts[-1] += line[start + len(core):]
    return parts


# The longest console line the splitter gives out. A line is at most a
# record (records.MAX_LINE) or a printk line (512 bytes); a longer one is
# noise on the link (a wrong baud rate for hours), and holding it whole
# cost three times its size in memory (a 200 MB line, 600 MB).
LINE_LIMIT = 1 << 20


def overlong_line(size: int, limit: int) -> BadLine:
    """What stands in a log for a console line longer than `limit`."""
    return BadLine("garbage", f"{size} bytes without a line end, more than "
                   f"the {limit} a console line can be: not read", None)


class LineSplitter:
    """Incremental splitter of a byte stream into console lines.

    A line ends at \n (with the \r and NUL padding next to it) or at a
    lone \r between text. Each byte is searched once: a long line without
    a line end costs time in proportion to its length, not its square.

    Memory stays within a few times `limit`. When an unfinished line grows
    past it, the lines a lone \r has ended are given out at once (an old
    terminal capture ends every line with \r only, so its whole log is one
    \n line). A line longer than `limit`, or followed by more than `limit`
    bytes of padding, is counted instead of held: it and the rest of its
    \n line become one BadLine at the \n. Which lines those are depends
    on the bytes only, never on how they were cut into chunks."""

    def __init__(self, limit: int = LINE_LIMIT) -> None:
        self.limit = limit
        self._rest: list[bytes] = []    # pieces of the unfinished line
        self._size = 0                  # their length
        self._run = 0                   # padding bytes at their end
        self._spill_at = limit          # size at which to look again
        self._dropped = -1              # bytes of a line too long, or -1

    def feed(self, chunk: bytes) -> list[bytes | BadLine]:
        """The lines completed by this chunk."""
        out: list[bytes | BadLine] = []
        start = 0
        while (end := chunk.find(b"\n", start)) >= 0:
            self._add(chunk[start:end], out)
            out.extend(self._line_end())
            start = end + 1
        if start < len(chunk):
            self._add(chunk[start:], out)
        return out

    def finish(self) -> list[bytes | BadLine]:
        """The last line, when the stream does not end with a line end."""
        return self._line_end() if self._size or self._dropped >= 0 else []

    def _add(self, piece: bytes, out: list[bytes | BadLine]) -> None:
        if self._dropped >= 0:
            self._dropped += len(piece)
            return
        over = self._padding_over(piece)
        if over >= 0:
            # as if fed byte by byte: the byte that makes the padding too
            # long drops the line it follows, and the rest is counted
            self._append(piece[:over + 1])
            self._spill(out, drop_last=True)
            self._dropped += len(piece) - over - 1
            return
        self._append(piece)
        if self._size > self._spill_at:
            self._spill(out)

    def _padding_over(self, piece: bytes) -> int:
        """The index in `piece` of the byte at which the padding after the
        held text first exceeds the limit, or -1."""
        lead = len(piece) - len(piece.lstrip(_EDGE))
        if self._run + lead > self.limit:
            return self.limit - self._run
        if len(piece) - lead <= self.limit:
            return -1       # no room for a run that long after the text
        for m in _PADDING_RUN.finditer(piece, lead):
            if m.end() - m.start() > self.limit:
                return m.start() + self.limit
        return -1

    def _append(self, piece: bytes) -> None:
        self._rest.append(piece)
        self._size += len(piece)
        text = piece.rstrip(_EDGE)
        self._run = len(piece) - len(text) if text else self._run + len(piece)

    def _spill(self, out: list[bytes | BadLine], drop_last: bool = False) -> None:
        """Give out the lines a lone \r has ended; drop a line too long.
        The parts split_at_cr() returns, joined with \r, are the bytes it
        was given, so what is kept or counted is exactly the rest."""
        parts = split_at_cr(b"".join(self._rest))
        for k, part in enumerate(parts[:-1]):
            if len(part) > self.limit:
                self._drop(parts[k:])
                return
            out.append(part)
        last = parts[-1]
        if drop_last or len(last.rstrip(_EDGE)) > self.limit:
            self._drop([last])
            return
        self._rest, self._size = [last], len(last)
        self._spill_at = self._size + self.limit

    def _drop(self, parts: list[bytes]) -> None:
        self._dropped = sum(len(p) for p in parts) + len(parts) - 1
        self._rest, self._size, self._run = [], 0, 0

    def _line_end(self) -> list[bytes | BadLine]:
        """The lines of the \n line that ends here."""
        lines: list[bytes | BadLine] = []
        if self._dropped < 0:
            parts = split_at_cr(b"".join(self._rest))
            for k, part in enumerate(parts):
                if len(part) > self.limit:
                    self._drop(parts[k:])
                    break
                lines.append(part)
        if self._dropped >= 0:
            lines.append(overlong_line(self._dropped, self.limit))
        self._rest, self._size, self._run = [], 0, 0
        self._spill_at, self._dropped = self.limit, -1
        return lines


def split_lines(chunks: Iterable[bytes]) -> Iterator[bytes | BadLine]:
    """Split a byte stream into lines (see LineSplitter); any line length
    and any chunking give the same lines."""
    splitter = LineSplitter()
    for chunk in chunks:
        yield from splitter.feed(chunk)
    yield from splitter.finish()


def _read_chunks(fh: BinaryIO) -> Iterator[bytes]:
    while True:
        chunk = fh.read(READ_CHUNK)
        if not chunk:
            return
        yield chunk


@dataclass
class FileSource:
    """A plain serial capture (USB-serial adapter, IPMI SOL, conserver...)."""

    path: Path
    name: str = ""

    def __post_init__(self) -> None:
        if not self.name:
            self.name = str(self.path)

    def lines(self) -> Iterator[bytes | BadLine]:
        try:
            with open(self.path, "rb") as fh:
                yield from split_lines(_read_chunks(fh))
        except OSError as exc:
            raise CollectError(f"cannot read {self.path}: "
                               f"{exc.strerror or exc}") from None


@dataclass(frozen=True)
class SourceFormat:
    """A log format: a sniffer over the first bytes and a source factory."""

    name: str
    sniff: Callable[[bytes], bool]
    open: Callable[[Path], LineSource]


def _plain_sniff(head: bytes) -> bool:
    return True


def source_formats() -> list[SourceFormat]:
    """Known log formats, most specific first; plain text is the fallback.

    A LAVA job log (YAML list of {dt, lvl, msg} entries, serial output in
    'target' entries) is read by lava_log.
    """
    from . import lava_log  # imports this module: import it late
    return [SourceFormat("lava", lava_log.sniff, lava_log.LavaLogSource),
            SourceFormat("serial", _plain_sniff, FileSource)]


def open_source(path: Path,
                formats: list[SourceFormat] | None = None) -> LineSource:
    """A LineSource for a log file, chosen by its first bytes."""
    try:
        with open(path, "rb") as fh:
            head = fh.read(4096)
    except OSError as exc:
        raise CollectError(f"cannot read {path}: "
                           f"{exc.strerror or exc}") from None
    for fmt in formats if formats is not None else source_formats():
        if fmt.sniff(head):
            return fmt.open(path)
    raise CollectError(f"{path}: not a format kfront can collect from")


def collect_lines(lines: Iterable[bytes | str | BadLine],
                  source: str) -> CollectResult:
    """Parse a console log given as lines into runs and problems."""
    parser = LogParser()
    for raw in lines:
        parser.feed(raw)
    return _result(parser.finish(), source)


def _result(parsed: ParseResult, source: str) -> CollectResult:
    return CollectResult(source, parsed.runs, parsed.problems, parsed.lines)


def collect_source(src: LineSource) -> CollectResult:
    return collect_lines(src.lines(), src.name)


def collect_file(path: Path | str) -> CollectResult:
    """Collect every run from a serial log file (raises CollectError)."""
    return collect_source(open_source(Path(path)))


# -- live serial port -------------------------------------------------------

def baud_constant(baud: int) -> int:
    """termios speed constant for a baud rate (ValueError if unknown)."""
    const = getattr(termios, f"B{baud}", None)
    if not isinstance(const, int):
        raise ValueError(f"unsupported baud rate {baud}")
    return const


@dataclass
class SerialSource:
    """A live serial port read in raw mode until a run ends or time is up.

    `stop` is asked after every line whether to stop (the collector stops
    at the suite-end record); `log` receives every byte read, so the raw
    capture can be kept as serial.log.
    """

    device: str
    baud: int = DEFAULT_BAUD
    timeout: float = DEFAULT_DEVICE_TIMEOUT
    stop: Callable[[], bool] = lambda: False
    log: BinaryIO | None = None
    name: str = ""
    timed_out: bool = False

    def __post_init__(self) -> None:
        if not self.name:
            self.name = self.device

    def lines(self) -> Iterator[bytes | BadLine]:
        speed = baud_constant(self.baud)
        try:
            fd = os.open(self.device, os.O_RDWR | os.O_NOCTTY | os.O_NONBLOCK)
        except OSError as exc:
            raise CollectError(f"cannot open {self.device}: "
                               f"{exc.strerror or exc}") from None
        saved = None
        try:
            if os.isatty(fd):
                saved = termios.tcgetattr(fd)
                tty.setraw(fd, termios.TCSANOW)  # keep what is buffered
                attrs = termios.tcgetattr(fd)
                attrs[2] |= termios.CLOCAL | termios.CREAD
                attrs[4] = attrs[5] = speed
                termios.tcsetattr(fd, termios.TCSANOW, attrs)
            yield from self._read(fd)
        finally:
            if saved is not None:
                try:
                    termios.tcsetattr(fd, termios.TCSANOW, saved)
                except termios.error:
                    pass
            os.close(fd)

    def _read(self, fd: int) -> Iterator[bytes | BadLine]:
        deadline = time.monotonic() + self.timeout
        splitter = LineSplitter()
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                self.timed_out = True
                break
            ready, _, _ = select.select([fd], [], [], min(left, 1.0))
            if not ready:
                continue
            try:
                chunk = os.read(fd, READ_CHUNK)
            except BlockingIOError:
                continue
            except OSError as exc:
                raise CollectError(f"reading {self.device}: "
                                   f"{exc.strerror or exc}") from None
            if not chunk:
                break  # the other end hung up
            if self.log is not None:
                self.log.write(chunk)
                self.log.flush()
            for line in splitter.feed(chunk):
                yield line
                if self.stop():
                    return
        yield from splitter.finish()


def collect_device(device: str, baud: int = DEFAULT_BAUD,
                   timeout: float = DEFAULT_DEVICE_TIMEOUT,
                   log: BinaryIO | None = None) -> CollectResult:
    """Read a live serial port until the suite-end record or the timeout."""
    parser = LogParser()
    src = SerialSource(device, baud, timeout,
                       stop=lambda: parser.last_run_ended, log=log)
    for raw in src.lines():
        parser.feed(raw)
    result = _result(parser.finish(), src.name)
    if src.timed_out:
        result.notes.append(f"stopped after the {timeout:g} s timeout "
                            "without a suite-end record")
    return result
