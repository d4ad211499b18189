# SPDX-License-Identifier: GPL-2.0-or-later
"""Reader of LAVA job logs: the console lines of a LAVA job, for `collect`.

LAVA stores a job's log as a YAML list with one flow mapping per line
(lava_common.log.dump, 2023.01):

    - {"dt": "2024-05-01T10:00:00.123456", "lvl": "target", "msg": "..."}

Console output of the device is in `target` entries, one console line per
entry; every other level (info, debug, input, results, ...) is the
dispatcher's own. Before logging, LAVA's ShellLogger drops carriage returns
and ESC characters and writes every double quote as \\" ; YAML's own quoting
comes on top. The reader undoes both, so a record line comes back with the
bytes the kernel sent (minus the \\r the record format makes optional).

The parser is a small one for exactly this shape (flow mappings on one line,
double-quoted, single-quoted or plain scalars), so kfront needs no YAML
library. Line numbers stay those of the YAML file: a non-console entry
yields an empty line, and a damaged line (not a valid entry) yields a
`bad_entry` BadLine at its line, so the records before and after it are
kept and the damage is reported where it is.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Iterator

from .collect import CollectError, split_lines, _read_chunks
from .records import BadLine

# The sequence number a damaged entry seems to carry, so a record lost with
# it is not reported a second time as a gap.
_CLAIMED_SEQ = re.compile(r'#KF[0-9] ([0-9]{1,20}) ')

# "- {" then the first key, dt, quoted or not. lava-run prints the same
# entries to its standard output without the "- ".
_SNIFF = re.compile(rb'^(?:\xef\xbb\xbf)?\s*(?:-\s*)?\{\s*["\']?dt["\']?\s*:')

_ESCAPES = {
    '0': '\0', 'a': '\a', 'b': '\b', 't': '\t', '\t': '\t', 'n': '\n',
    'v': '\v', 'f': '\f', 'r': '\r', 'e': '\x1b', ' ': ' ', '"': '"',
    '/': '/', '\\': '\\', 'N': '\x85', '_': '\xa0', 'L': '\u2028',
    'P': '\u2029',
}
_HEX_LEN = {'x': 2, 'u': 4, 'U': 8}


class LavaLogError(ValueError):
    """A line that is not a LAVA log entry."""


def sniff(head: bytes) -> bool:
    """True for a LAVA job log (the first entry is a {dt: ...} mapping)."""
    return bool(_SNIFF.match(head))


def _double_quoted(text: str, pos: int) -> tuple[str, int]:
    """A YAML double-quoted scalar starting at text[pos] == '"'."""
    out = []
    i = pos + 1
    while i < len(text):
        c = text[i]
        if c == '"':
            return ''.join(out), i + 1
        if c != '\\':
            out.append(c)
            i += 1
            continue
        if i + 1 >= len(text):
            break
        e = text[i + 1]
        if e in _HEX_LEN:
            digits = text[i + 2:i + 2 + _HEX_LEN[e]]
            try:
                out.append(chr(int(digits, 16)))
            except ValueError:
                raise LavaLogError(f'bad escape \\{e}{digits}') from None
            i += 2 + _HEX_LEN[e]
        elif e in _ESCAPES:
            out.append(_ESCAPES[e])
            i += 2
        else:
            raise LavaLogError(f'bad escape \\{e}')
    raise LavaLogError('unterminated double-quoted string')


def _single_quoted(text: str, pos: int) -> tuple[str, int]:
    out = []
    i = pos + 1
    while i < len(text):
        if text[i] == "'":
            if text.startswith("''", i):
                out.append("'")
                i += 2
                continue
            return ''.join(out), i + 1
        out.append(text[i])
        i += 1
    raise LavaLogError('unterminated single-quoted string')


def _skip_ws(text: str, pos: int) -> int:
    while pos < len(text) and text[pos] in ' \t':
        pos += 1
    return pos


def _scalar(text: str, pos: int, stops: str) -> tuple[object, int]:
    """A scalar, or a nested flow mapping/sequence kept as its raw text."""
    if pos >= len(text):
        raise LavaLogError('line ends where a value should start')
    if text[pos] == '"':
        return _double_quoted(text, pos)
    if text[pos] == "'":
        return _single_quoted(text, pos)
    if text[pos] in '{[':
        # A nested collection (the msg of a "results" entry): the reader
        # never needs its content, only where it ends.
        depth, i, start = 0, pos, pos
        while i < len(text):
            c = text[i]
            if c in '"\'':
                _, i = (_double_quoted if c == '"' else _single_quoted)(text, i)
                continue
            if c in '{[':
                depth += 1
            elif c in '}]':
                depth -= 1
                if depth == 0:
                    return text[start:i + 1], i + 1
            i += 1
        raise LavaLogError('unterminated flow collection')
    end = pos
    while end < len(text) and text[end] not in stops:
        end += 1
    return text[pos:end].strip(), end


def parse_entry(line: str) -> dict[str, object]:
    """One log line `- {key: value, ...}` as a dict of its top-level keys
    (the "- " is optional: lava-run's own output has none)."""
    pos = _skip_ws(line, 0)
    if line.startswith('-', pos):
        pos = _skip_ws(line, pos + 1)
    if not line.startswith('{', pos):
        raise LavaLogError('not a flow mapping')
    pos += 1
    entry: dict[str, object] = {}
    while True:
        pos = _skip_ws(line, pos)
        if pos >= len(line):
            raise LavaLogError('unterminated mapping')
        if line[pos] == '}':
            return entry
        key, pos = _scalar(line, pos, ':')
        pos = _skip_ws(line, pos)
        if not line.startswith(':', pos):
            raise LavaLogError('missing ":" after a key')
        pos = _skip_ws(line, pos + 1)
        value, pos = _scalar(line, pos, ',}')
        entry[str(key)] = value
        pos = _skip_ws(line, pos)
        if line.startswith(',', pos):
            pos += 1


def console_text(msg: str) -> str:
    """Undo ShellLogger's \\" for ", which every quote got (if it did)."""
    if '\\"' in msg and re.search(r'(?<!\\)"', msg) is None:
        return msg.replace('\\"', '"')
    return msg


def damaged_entry(text: str, why: str) -> BadLine:
    """A line that is not a LAVA log entry (cut, flipped or garbled YAML):
    reported at its line; the console line it held is lost."""
    claimed = _CLAIMED_SEQ.search(text)
    seq = int(claimed.group(1)) if claimed else None
    lost = f': record seq {seq} lost' if seq is not None else ''
    return BadLine('bad_entry', f'not a LAVA log entry ({why}){lost}', seq)


def console_line(raw: bytes) -> bytes | BadLine:
    """The console line one line of a LAVA log holds: b'' for blank lines
    and the dispatcher's own entries, a BadLine for a damaged line."""
    text = raw.decode('utf-8', errors='replace').rstrip('\r')
    if not text.strip():
        return b''
    try:
        entry = parse_entry(text)
    except LavaLogError as exc:
        return damaged_entry(text, str(exc))
    if entry.get('lvl') != 'target' or not isinstance(entry.get('msg'), str):
        return b''
    return console_text(str(entry['msg'])).encode('utf-8', errors='replace')


def console_lines(lines: Iterable[bytes | BadLine]) -> Iterator[bytes | BadLine]:
    """The console lines of a LAVA log given as its lines, one out per
    line in, so line numbers stay those of the YAML file (a line too long
    to read stays the splitter's BadLine)."""
    for raw in lines:
        yield raw if isinstance(raw, BadLine) else console_line(raw)


@dataclass
class LavaLogSource:
    """The console lines of a LAVA job log (one line out per YAML line)."""

    path: Path
    name: str = ''

    def __post_init__(self) -> None:
        if not self.name:
            self.name = str(self.path)

    def lines(self) -> Iterator[bytes | BadLine]:
        try:
            with open(self.path, 'rb') as fh:
                yield from console_lines(split_lines(_read_chunks(fh)))
        except OSError as exc:
            raise CollectError(f'cannot read {self.path}: '
                               f'{exc.strerror or exc}') from None
