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
    ticks = [round(start, 12)]
    # up to the first tick at or above hi: the axis covers every value
    while ticks[-1] < hi and len(ticks) <= 50:
        ticks.append(round(start + step * len(ticks), 12))
    return ticks


def tick_label(value: float, ticks: list[float]) -> str:
    """A tick value with as many decimals as the tick step needs."""
    step = ticks[1] - ticks[0] if len(ticks) > 1 else 1.0
    dec = max(0, -math.floor(math.log10(step))) if step > 0 else 0
    return f"{value:.{dec}f}"


# Average advance of a sans-serif glyph, as a fraction of the font size.
# Generous (digits are ~0.55, capitals ~0.65) so that a label estimated to
# fit does fit in the browsers' usual fonts.
GLYPH_EM = 0.62


def text_width(text: str, size: float) -> float:
    """An upper estimate of a text's rendered width in user units."""
    return len(text) * size * GLYPH_EM


@dataclass(frozen=True)
class Bar:
    """One variant's value with its interval (lo/hi may be None)."""

    label: str
    value: float
    lo: float | None
    hi: float | None
    text: str           # the value as printed (supported digits)
    colour: str


@dataclass(frozen=True)
class Panel:
    """One counter's bars in a bar chart."""

    title: str
    bars: list[Bar]
    axis_label: str


# Bar chart geometry: row pitch, bar height, space above and below the rows.
ROW = 26.0
PANEL_HEAD = 30.0
PANEL_FOOT = 56.0
MIN_PLOT = 260.0
BAR_NOTE = "bar: median, whisker: 95% interval"


def _bar_extent(bars: list[Bar]) -> tuple[float, float]:
    """The axis range: zero and every value and interval end, so no bar or
    whisker runs past the plot."""
    vals = [0.0] + [v for b in bars for v in (b.value, b.lo, b.hi)
                    if v is not None and math.isfinite(v)]
    return min(vals), max(vals)


def _bar_margins(bars: list[Bar]) -> tuple[float, float]:
    """Left margin (the labels) and right margin (the printed values)."""
    left = 18 + max([text_width(b.label, 12) for b in bars] + [30.0])
    right = 16 + max([text_width(b.text, 11) for b in bars] + [20.0])
    return left, right


def panel_width(panel: Panel) -> float:
    """The narrowest drawing that shows the panel without clipping."""
    left, right = _bar_margins(panel.bars)
    return max(left + MIN_PLOT + right, 20 + text_width(panel.title, 13),
               20 + text_width(panel.axis_label, 11),
               20 + text_width(BAR_NOTE, 11))


def bar_panel(svg: Svg, top: float, panel: Panel) -> float:
    """Horizontal bars from zero with interval whiskers; returns bottom y.
    The axis covers every interval; values print right of the whisker."""
    bars = panel.bars
    left, rmargin = _bar_margins(bars)
    right = svg.width - rmargin
    svg.text(10, top + 16, panel.title, size=13, font_weight="bold")
    y0 = top + PANEL_HEAD
    lo_val, hi_val = _bar_extent(bars)
    ticks = nice_ticks(lo_val, hi_val if hi_val > lo_val else lo_val + 1.0)
    vmin, vmax = ticks[0], ticks[-1]
    span = (vmax - vmin) or 1.0

    def x_of(v: float) -> float:
        return left + (right - left) * (v - vmin) / span

    bottom = y0 + ROW * len(bars)
    for t in ticks:
        svg.line(x_of(t), y0 - 4, x_of(t), bottom, stroke="#ddd")
        svg.text(x_of(t), bottom + 14, tick_label(t, ticks), anchor="middle",
                 size=10)
    zero = x_of(0.0)
    for i, b in enumerate(bars):
        y = y0 + i * ROW
        svg.text(left - 8, y + 16, b.label, anchor="end")
        x_end = x_of(b.value)
        svg.add("rect", x=float(min(zero, x_end)), y=float(y + 5),
                width=float(max(abs(x_end - zero), 0.5)), height=14.0,
                fill=b.colour, fill_opacity="0.75")
        if b.lo is not None and b.hi is not None:
            ym = y + 12
            svg.line(x_of(b.lo), ym, x_of(b.hi), ym, stroke="#000",
                     width=1.5)
            for xv in (b.lo, b.hi):
                svg.line(x_of(xv), ym - 5, x_of(xv), ym + 5, stroke="#000",
                         width=1.5)
        ends = [b.value] + [v for v in (b.lo, b.hi) if v is not None]
        svg.text(x_of(max(ends)) + 6, y + 16, b.text, size=11)
    svg.line(zero, y0 - 4, zero, bottom, stroke="#444")
    mid = svg.width / 2
    svg.text(mid, bottom + 30, panel.axis_label, anchor="middle", size=11)
    svg.text(mid, bottom + 44, BAR_NOTE, anchor="middle", size=11,
             fill="#555")
    return bottom + PANEL_FOOT


def bar_chart(title: str, panels: list[Panel], width: int = 640) -> Svg | None:
    """Stacked bar panels, wide enough for every label; None without bars
    (an empty chart is never drawn)."""
    panels = [p for p in panels if p.bars]
    if not panels:
        return None
    need = max(panel_width(p) for p in panels)
    height = 10 + sum(PANEL_HEAD + ROW * len(p.bars) + PANEL_FOOT
                      for p in panels)
    svg = Svg(max(width, math.ceil(need)), math.ceil(height), title)
    y = 10.0
    for p in panels:
        y = bar_panel(svg, y, p)
    return svg


@dataclass(frozen=True)
class Series:
    """One line of a footprint sweep: (x, y, lo, hi) points."""

    label: str
    points: list[tuple[float, float, float | None, float | None]]
    colour: str


def point_label(x: float) -> str:
    return f"{x:g}"


SWEEP_X_NOTE = "points evenly spaced, not to scale"


def line_chart(title: str, series: list[Series], x_label: str,
               y_label: str, width: int = 640, height: int = 380) -> Svg | None:
    """Cost per operation against footprint; None without points.

    The sweep points (0, 16 KiB, 64 KiB, ...) sit evenly spaced in their
    order: footprint 0 (no extra code) has no place on a log axis and a
    linear one crowds the small sizes, and the chart says so under the axis.
    """
    xs = sorted({p[0] for s in series for p in s.points})
    ys = [v for s in series for p in s.points for v in p[1:]
          if v is not None and math.isfinite(v)]
    if not xs or not ys:
        return None
    ticks = nice_ticks(min(ys + [0.0]), max(ys) if max(ys) > min(ys + [0.0])
                       else min(ys + [0.0]) + 1.0)
    legend_w = 44 + max(text_width(s.label, 11) for s in series)
    left = 34 + max(text_width(tick_label(t, ticks), 10) for t in ticks)
    need = left + 240 + legend_w
    width = max(width, math.ceil(need), math.ceil(20 + text_width(title, 13)),
                math.ceil(20 + text_width(x_label, 11)),
                math.ceil(20 + text_width(SWEEP_X_NOTE, 11)))
    # the rotated y label runs along the plot's height
    height = max(height, math.ceil(40 + 74 + 10 + text_width(y_label, 11)))
    svg = Svg(width, height, title)
    right, top, bottom = width - legend_w, 40.0, height - 74.0
    svg.text(10, 20, title, size=13, font_weight="bold")
    pitch = (right - left - 20) / max(len(xs) - 1, 1)

    def px(x: float) -> float:
        return left + 10 + pitch * xs.index(x) if len(xs) > 1 \
            else (left + right) / 2

    def py(y: float) -> float:
        return bottom - (bottom - top) * (y - ticks[0]) / \
            ((ticks[-1] - ticks[0]) or 1.0)

    for t in ticks:
        svg.line(left, py(t), right, py(t), stroke="#ddd")
        svg.text(left - 6, py(t) + 4, tick_label(t, ticks), anchor="end",
                 size=10)
    for x in xs:
        svg.line(px(x), bottom, px(x), bottom + 4)
        svg.text(px(x), bottom + 16, point_label(x), anchor="middle", size=10)
    svg.line(left, bottom, right, bottom)
    svg.line(left, top, left, bottom)
    for i, s in enumerate(series):
        pts = sorted(s.points)
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
    mid = width / 2
    svg.text(mid, height - 40, x_label, anchor="middle", size=11)
    svg.text(mid, height - 24, SWEEP_X_NOTE, anchor="middle", size=11,
             fill="#555")
    ymid = _num((top + bottom) / 2)
    svg.text(16, (top + bottom) / 2, y_label, anchor="middle", size=11,
             transform=f"rotate(-90 16 {ymid})")
    return svg
