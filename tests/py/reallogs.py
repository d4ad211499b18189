# SPDX-License-Identifier: GPL-2.0-or-later
"""Real console logs for the collector tests: the version 1 fixtures as
captured, and version 2 copies of them made with records.make_line."""

from tests.py import FIXTURES
from kfront import records
from kfront.collect import split_lines


def real_log(name: str) -> bytes:
    """A fixture log's bytes, e.g. real_log("real_quick.log")."""
    return (FIXTURES / name).read_bytes()


def _to_version_2(line: bytes) -> bytes:
    body = line.rstrip(b"\r")
    item = records.parse_line(body)
    if not isinstance(item, records.Record) or item.version != 1:
        return line
    start = body.index(b"#KF1")
    new = records.make_line(item.seq, item.raw.decode("ascii")).encode()
    return body[:start] + new + line[len(body):]


def as_version_2(data: bytes) -> bytes:
    """The same log with every intact version 1 record rewritten as
    version 2 (same payload, CRC over the sequence number too); everything
    else, line ends included, unchanged."""
    return b"\n".join(_to_version_2(line) for line in data.split(b"\n"))


def parse_bytes(data: bytes) -> records.ParseResult:
    """Parse a log's bytes the way `kfront collect` reads a file."""
    return records.parse_lines(split_lines([data]))
