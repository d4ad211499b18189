# SPDX-License-Identifier: GPL-2.0-or-later
"""The report's document model (report_doc.py) rendered: Markdown, one
self-contained HTML page (inline SVG charts, tables sortable by a click),
and tables for a terminal."""

from __future__ import annotations

import html

from .report_doc import Alert, Cell, Chart, Section, Table

RED = "\x1b[31;1m"
RESET = "\x1b[0m"


def _md_cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def render_markdown(sections: list[Section]) -> str:
    out: list[str] = []
    for i, sec in enumerate(sections):
        out.append(("# " if i == 0 else "## ") + sec.title)
        out.append("")
        for block in sec.blocks:
            if isinstance(block, Alert):
                out += [f"> **Warning: {block.text}**", ""]
            elif isinstance(block, Table):
                out.append("| " + " | ".join(block.headers) + " |")
                out.append("|" + "|".join("---" for _ in block.headers) + "|")
                for row in block.rows:
                    cells = [f"**{c.text}**" if c.cls == "bad" else c.text
                             for c in row]
                    out.append("| " + " | ".join(map(_md_cell, cells)) + " |")
                out += ([""] + [block.caption] if block.caption else []) + [""]
            elif isinstance(block, Chart):
                out += [f"![{block.title}](charts/{block.name}.svg)", ""]
            else:
                out += [block, ""]
    return "\n".join(out).rstrip() + "\n"


CSS = """
body{font-family:sans-serif;max-width:72em;margin:1em auto;padding:0 1em;
color:#222;overflow-wrap:anywhere}
.scroll{overflow-x:auto;max-width:100%}
table{border-collapse:collapse;margin:.5em 0}
th,td{border:1px solid #ccc;padding:.2em .5em;text-align:left;
overflow-wrap:normal}
th.sortable{cursor:pointer}
th[aria-sort=ascending]::after{content:" \\25B2"}
th[aria-sort=descending]::after{content:" \\25BC"}
td.num{text-align:right;font-variant-numeric:tabular-nums}
td.nw,th{white-space:nowrap}
td.bad{color:#c00;font-weight:bold}
td.sig{font-weight:bold}
.alert{border:2px solid #c00;color:#c00;background:#fff3f3;padding:.5em;
margin:.5em 0;font-weight:bold}
figure{margin:1em 0}
figure svg{max-width:100%;height:auto}
p.caption{margin-top:0;font-size:90%;color:#555}
"""

# Click a column heading to sort the table by it (again: reversed). Numbers
# sort as numbers (the leading number of "1.02 [0.98, 1.05]"), the rest as
# text; rows without a number keep their order at the end. A few lines, so
# the report stays one file that works offline.
SORT_SCRIPT = """
document.querySelectorAll("table.sortable").forEach(function (t) {
  var ths = t.querySelectorAll("th");
  ths.forEach(function (th, col) {
    th.classList.add("sortable");
    th.addEventListener("click", function () {
      var dir = th.getAttribute("aria-sort") === "ascending" ? -1 : 1;
      ths.forEach(function (h) { h.removeAttribute("aria-sort"); });
      th.setAttribute("aria-sort", dir > 0 ? "ascending" : "descending");
      var body = t.tBodies[0], rows = Array.from(body.rows);
      function key(r) {
        var s = r.cells[col] ? r.cells[col].textContent.trim() : "";
        var m = s.replace(/,/g, "").match(/^[-+]?[0-9.]+(e[-+]?[0-9]+)?/i);
        return m ? parseFloat(m[0]) : s;
      }
      rows.sort(function (a, b) {
        var x = key(a), y = key(b);
        if (typeof x !== typeof y) return typeof x === "number" ? -1 : 1;
        return (x < y ? -1 : x > y ? 1 : 0) * dir;
      });
      rows.forEach(function (r) { body.appendChild(r); });
    });
  });
});
"""


def render_html(sections: list[Section], title: str) -> str:
    out = ["<!DOCTYPE html>", "<html lang=\"en\"><head><meta charset="
           "\"utf-8\">",
           "<meta name=\"viewport\" content=\"width=device-width, "
           "initial-scale=1\">",
           f"<title>{html.escape(title)}</title>",
           f"<style>{CSS}</style></head><body>"]
    for i, sec in enumerate(sections):
        tag = "h1" if i == 0 else "h2"
        out.append(f"<{tag}>{html.escape(sec.title)}</{tag}>")
        for block in sec.blocks:
            if isinstance(block, Alert):
                out.append(f"<div class=\"alert\">{html.escape(block.text)}"
                           "</div>")
            elif isinstance(block, Table):
                out.append(_html_table(block))
            elif isinstance(block, Chart):
                out.append(f"<figure>{block.drawing.render(False)}"
                           f"<figcaption>{html.escape(block.title)}"
                           "</figcaption></figure>")
            else:
                out.append(f"<p>{html.escape(block)}</p>")
    out.append(f"<script>{SORT_SCRIPT}</script>")
    out.append("</body></html>")
    return "\n".join(out) + "\n"


def _html_table(t: Table) -> str:
    """A sortable table in a box that scrolls sideways on a narrow screen
    (the page itself never gets wider than the screen)."""
    rows = ["<div class=\"scroll\"><table class=\"sortable\">"]
    rows.append("<thead><tr>" + "".join(f"<th>{html.escape(h)}</th>"
                                        for h in t.headers) + "</tr></thead><tbody>")
    for row in t.rows:
        rows.append("<tr>" + "".join(_html_cell(c) for c in row) + "</tr>")
    rows.append("</tbody></table></div>")
    if t.caption:
        # below the scrolling box, so it wraps to the page, not the table
        rows.append(f"<p class=\"caption\">{html.escape(t.caption)}</p>")
    return "\n".join(rows)


# A cell this short never wraps ("[39.9, 40.8]" stays on one line, the table
# scrolls instead); longer ones (compiler flags) wrap.
NOWRAP_CHARS = 24


def _html_cell(c: Cell) -> str:
    cls = " ".join(x for x in (c.cls, "nw" if len(c.text) <= NOWRAP_CHARS else "") if x)
    return (f"<td class=\"{cls}\">" if cls else "<td>") + html.escape(c.text) + "</td>"



def text_table(headers: list[str], rows: list[list[Cell]], color: bool
            ) -> list[str]:
    widths = [max([len(h)] + [len(r[i].text) for r in rows])
              for i, h in enumerate(headers)]
    lines = ["  ".join(h.ljust(w) for h, w in zip(headers, widths)).rstrip()]
    lines.append("  ".join("-" * w for w in widths))
    for row in rows:
        cells = []
        for c, w in zip(row, widths):
            text = c.text.rjust(w) if c.cls == "num" else c.text.ljust(w)
            if color and c.cls == "bad":
                text = f"{RED}{text}{RESET}"
            cells.append(text)
        lines.append("  ".join(cells).rstrip())
    return lines
