# SPDX-License-Identifier: GPL-2.0-or-later
"""Hand-written SVG charts: interval bar charts and footprint line charts.

Standard library only. `Svg.render(standalone=True)` gives a file with the
SVG namespace declaration (needed by browsers for a separate .svg file);
`standalone=False` gives the same drawing for inline use in HTML5, where the
namespace is implied and no external reference is needed.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from xml.sax.saxutils import escape, quoteattr

# Okabe-Ito palette: distinguishable with the common colour-vision defects.
PALETTE = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00",
           "#56B4E9", "#000000", "#F0E442")
SVG_NS = "http://www.w3.org/2000/svg"
FONT = "font-family=\"sans-serif\""


def colour(index: int) -> str:
    return PALETTE[index % len(PALETTE)]


def _num(x: float) -> str:
    return f"{x:.2f}".rstrip("0").rstrip(".")


@dataclass
class Svg:
    """An SVG drawing built element by element."""

    width: int
    height: int
    title: str
    parts: list[str] = field(default_factory=list)

    def add(self, tag: str, text: str | None = None, /,
            **attrs: object) -> None:
        items = []
        for key, value in attrs.items():
            name = key.rstrip("_").replace("_", "-")
            val = _num(value) if isinstance(value, float) else str(value)
            items.append(f"{name}={quoteattr(val)}")
        attr = " ".join(items)
        if text is None:
            self.parts.append(f"<{tag} {attr}/>")
        else:
            self.parts.append(f"<{tag} {attr}>{escape(text)}</{tag}>")

    def line(self, x1: float, y1: float, x2: float, y2: float,
             stroke: str = "#444", width: float = 1.0, **kw: object) -> None:
        self.add("line", x1=float(x1), y1=float(y1), x2=float(x2),
                 y2=float(y2), stroke=stroke, stroke_width=float(width), **kw)

    def text(self, x: float, y: float, text: str, anchor: str = "start",
             size: int = 12, **kw: object) -> None:
        self.add("text", text, x=float(x), y=float(y), text_anchor=anchor,
                 font_size=size, **kw)

    def render(self, standalone: bool) -> str:
        ns = f" xmlns=\"{SVG_NS}\"" if standalone else ""
        head = (f"<svg{ns} width=\"{self.width}\" height=\"{self.height}\" "
                f"viewBox=\"0 0 {self.width} {self.height}\" {FONT} "
                f"role=\"img\"><title>{escape(self.title)}</title>")
        body = "\n".join(self.parts)
        xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n" \
            if standalone else ""
        return f"{xml}{head}\n{body}\n</svg>\n"


def nice_ticks(lo: float, hi: float, count: int = 5) -> list[float]:
    """Round tick values (1, 2, 5 x 10^k steps) covering [lo, hi]."""
    if not math.isfinite(lo) or not math.isfinite(hi):
        return [0.0, 1.0]
    if hi <= lo:
        hi = lo + (abs(lo) or 1.0)
    raw = (hi - lo) / max(count, 1)
    mag = 10.0 ** math.floor(math.log10(raw))
    step = next(m * mag for m in (1, 2, 5, 10) if m * mag >= raw)
    start = math.floor(lo / step) * step
    ticks = []
    v = start
    while v < hi + step * 0.5:
        ticks.append(round(v, 12))
        v += step
        if len(ticks) > 50:
            break
    return ticks


def tick_label(value: float, ticks: list[float]) -> str:
    """A tick value with as many decimals as the tick step needs."""
    step = ticks[1] - ticks[0] if len(ticks) > 1 else 1.0
    dec = max(0, -math.floor(math.log10(step))) if step > 0 else 0
    return f"{value:.{dec}f}"


@dataclass(frozen=True)
class Bar:
    """One variant's value with its interval (lo/hi may be None)."""

    label: str
    value: float
    lo: float | None
    hi: float | None
    text: str           # the value as printed (supported digits)
    colour: str


def bar_panel(svg: Svg, top: float, title: str, bars: list[Bar],
              axis_label: str) -> float:
    """Horizontal bars from zero with interval whiskers; returns bottom y."""
    left, right = 110.0, svg.width - 90.0
    svg.text(10, top + 16, title, size=13, font_weight="bold")
    y0 = top + 30
    row = 26.0
    hi_val = max([b.hi or b.value for b in bars] + [0.0])
    ticks = nice_ticks(0.0, hi_val or 1.0)
    vmax = ticks[-1] or 1.0

    def x_of(v: float) -> float:
        return left + (right - left) * v / vmax

    bottom = y0 + row * len(bars)
    for t in ticks:
        svg.line(x_of(t), y0 - 4, x_of(t), bottom, stroke="#ddd")
        svg.text(x_of(t), bottom + 14, tick_label(t, ticks), anchor="middle",
                 size=10)
    for i, b in enumerate(bars):
        y = y0 + i * row
        svg.text(left - 8, y + 16, b.label, anchor="end")
        svg.add("rect", x=left, y=float(y + 5), width=float(max(
            x_of(b.value) - left, 0.5)), height=14.0, fill=b.colour,
            fill_opacity="0.75")
        if b.lo is not None and b.hi is not None:
            ym = y + 12
            svg.line(x_of(b.lo), ym, x_of(b.hi), ym, stroke="#000",
                     width=1.5)
            for xv in (b.lo, b.hi):
                svg.line(x_of(xv), ym - 5, x_of(xv), ym + 5, stroke="#000",
                         width=1.5)
        tx = x_of(b.hi if b.hi is not None else b.value) + 6
        svg.text(tx, y + 16, b.text, size=11)
    svg.line(left, y0 - 4, left, bottom, stroke="#444")
    svg.text((left + right) / 2, bottom + 30, axis_label, anchor="middle",
             size=11)
    return bottom + 40


@dataclass(frozen=True)
class Series:
    """One line of a footprint sweep: (x, y, lo, hi) points."""

    label: str
    points: list[tuple[float, float, float | None, float | None]]
    colour: str


def _size_label(x: float) -> str:
    for unit, div in (("MiB", 1 << 20), ("KiB", 1 << 10)):
        if x >= div:
            v = x / div
            return f"{v:g} {unit}"
    return f"{x:g} B"


def line_chart(title: str, series: list[Series], x_label: str,
               y_label: str, width: int = 640, height: int = 380) -> Svg:
    """Cost per operation against footprint; x on a log2 scale."""
    svg = Svg(width, height, title)
    left, right, top, bottom = 80.0, width - 130.0, 40.0, height - 60.0
    xs = sorted({p[0] for s in series for p in s.points if p[0] > 0})
    ys = [v for s in series for p in s.points for v in (p[1], p[3])
          if v is not None]
    svg.text(10, 20, title, size=13, font_weight="bold")
    if not xs or not ys:
        svg.text(left, top + 20, "no data")
        return svg
    lx0, lx1 = math.log2(xs[0]), math.log2(xs[-1])
    span = (lx1 - lx0) or 1.0
    ticks = nice_ticks(0.0, max(ys))

    def px(x: float) -> float:
        return left + (right - left) * (math.log2(x) - lx0) / span

    def py(y: float) -> float:
        return bottom - (bottom - top) * y / (ticks[-1] or 1.0)

    for t in ticks:
        svg.line(left, py(t), right, py(t), stroke="#ddd")
        svg.text(left - 6, py(t) + 4, tick_label(t, ticks), anchor="end",
                 size=10)
    for x in xs:
        svg.line(px(x), bottom, px(x), bottom + 4)
        svg.text(px(x), bottom + 16, _size_label(x), anchor="middle", size=10)
    svg.line(left, bottom, right, bottom)
    svg.line(left, top, left, bottom)
    for i, s in enumerate(series):
        pts = sorted(p for p in s.points if p[0] > 0)
        svg.add("polyline", points=" ".join(
            f"{_num(px(x))},{_num(py(y))}" for x, y, _, _ in pts),
            fill="none", stroke=s.colour, stroke_width="2")
        for x, y, lo, hi in pts:
            if lo is not None and hi is not None:
                svg.line(px(x), py(lo), px(x), py(hi), stroke=s.colour)
            svg.add("circle", cx=px(x), cy=py(y), r="3.5", fill=s.colour)
        ly = top + 10 + 18 * i
        svg.line(right + 12, ly, right + 32, ly, stroke=s.colour, width=2)
        svg.text(right + 36, ly + 4, s.label, size=11)
    svg.text((left + right) / 2, height - 20, x_label, anchor="middle",
             size=11)
    svg.text(16, (top + bottom) / 2, y_label, anchor="middle", size=11,
             transform=f"rotate(-90 16 {_num((top + bottom) / 2)})")
    return svg
