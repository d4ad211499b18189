# SPDX-License-Identifier: GPL-2.0-or-later
"""The report's document model: sections of paragraphs, alerts, tables and
charts. report.py says what a report holds in it; report_render.py turns
it into Markdown, HTML and terminal tables, so all of them say the same."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Union

from . import svg


@dataclass(frozen=True)
class Cell:
    text: str
    cls: str = ""       # "bad" (red), "sig" (interval excludes 1), "num"


@dataclass
class Table:
    headers: list[str]
    rows: list[list[Cell]]
    caption: str = ""


@dataclass(frozen=True)
class Alert:
    kind: str           # one of report.py's ALERT_* kinds
    text: str


@dataclass(frozen=True)
class Chart:
    name: str           # file stem under charts/
    title: str
    drawing: svg.Svg


Block = Union[str, Table, Alert, Chart]


@dataclass
class Section:
    title: str
    blocks: list[Block] = field(default_factory=list)
