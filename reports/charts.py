"""Inline SVG charts: coverage by document and section, verdicts across runs, and kill rates (strength).

Plain SVG strings, drawn here rather than by a script library, so the page needs
no network and shows its charts even with scripts off.  Each bar segment carries
a <title> (its count and share), which browsers show on hover.
"""

from __future__ import annotations

from html import escape

VERDICTS = ("passed", "failed", "not run", "waived", "untestable")
COLORS = {"passed": "#2e7d32", "failed": "#c62828", "not run": "#9e9e9e", "waived": "#f9a825",
          "untestable": "#90a4ae"}
KEYS = {"passed": "passed", "failed": "failed", "not run": "not_run", "waived": "waived", "untestable": "untestable"}
# the outcomes of a strength run's variants (strength.py): the same bars, other series
STRENGTH = ("killed", "survived", "error")
STRENGTH_COLORS = {"killed": "#2e7d32", "survived": "#c62828", "error": "#9e9e9e"}
STRENGTH_KEYS = {"killed": "killed", "survived": "survived", "error": "errors"}


def legend(series: tuple[str, ...] = VERDICTS, colors: dict = COLORS) -> str:
    items = "".join(f'<span class="key"><svg width="10" height="10" aria-hidden="true"><rect width="10" height="10" '
                    f'fill="{colors[v]}"/></svg> {v}</span>' for v in series)
    return f'<div class="legend">{items}</div>'


def horizontal_bars(rows: list[tuple[str, str, dict]], *, label_width: int = 230, width: int = 760,
                    bar: int = 13, series: tuple[str, ...] = VERDICTS, colors: dict = COLORS, keys: dict = KEYS,
                    counted: tuple[str, ...] = ("passed", "failed")) -> str:
    """rows: (label, tooltip, {series column: count}); one stacked bar per row, scaled to the largest total.

    `series` (with their `colors` and column `keys`) default to the verdicts; the figure after a bar is the sum of
    the `counted` columns over the total (clauses exercised, or variants killed)."""
    if not rows:
        return ""
    top = max(sum(counts.get(keys[v], 0) for v in series) for _, _, counts in rows) or 1
    span = width - label_width - 60
    height = len(rows) * (bar + 3) + 4
    parts = [f'<svg class="chart" role="img" width="{width}" height="{height}" viewBox="0 0 {width} {height}" '
             'xmlns="http://www.w3.org/2000/svg">']
    for index, (label, tooltip, counts) in enumerate(rows):
        y = 2 + index * (bar + 3)
        total = sum(counts.get(keys[v], 0) for v in series)
        parts.append(f'<text x="{label_width - 6}" y="{y + bar - 3}" text-anchor="end">{escape(label[:38])}'
                     f'<title>{escape(tooltip)}</title></text>')
        x = float(label_width)
        for verdict in series:
            n = counts.get(keys[verdict], 0)
            if not n:
                continue
            w = span * n / top
            parts.append(f'<rect x="{x:.1f}" y="{y}" width="{max(w, 0.8):.1f}" height="{bar}" '
                         f'fill="{colors[verdict]}"><title>{escape(label)}: {n} {verdict} of {total} '
                         f'({100 * n / total:.0f}%)</title></rect>')
            x += w
        exercised = sum(counts.get(key, 0) for key in counted)
        parts.append(f'<text x="{x + 4:.1f}" y="{y + bar - 3}">{exercised}/{total}</text>')
    parts.append("</svg>")
    return "".join(parts)


def history_bars(rows: list[dict], *, width: int = 760, height: int = 180) -> str:
    """rows: one per run, oldest first, with a count per verdict; stacked columns scaled to the largest run."""
    if not rows:
        return ""
    top = max(sum(row.get(KEYS[v], 0) for v in VERDICTS) for row in rows) or 1
    left, bottom = 36, 22
    step = (width - left - 8) / len(rows)
    column = max(min(step * 0.8, 28), 1.0)
    plot = height - bottom - 6
    parts = [f'<svg class="chart" role="img" width="{width}" height="{height}" viewBox="0 0 {width} {height}" '
             'xmlns="http://www.w3.org/2000/svg">',
             f'<line x1="{left}" y1="{height - bottom}" x2="{width - 4}" y2="{height - bottom}" stroke="#888"/>',
             f'<text x="{left - 4}" y="12" text-anchor="end">{top}</text>',
             f'<text x="{left - 4}" y="{height - bottom}" text-anchor="end">0</text>']
    every = max(1, len(rows) // 8)
    for index, row in enumerate(rows):
        x = left + index * step + (step - column) / 2
        y = float(height - bottom)
        for verdict in VERDICTS:
            n = row.get(KEYS[verdict], 0)
            if not n:
                continue
            h = plot * n / top
            y -= h
            parts.append(f'<rect x="{x:.1f}" y="{y:.1f}" width="{column:.1f}" height="{h:.1f}" '
                         f'fill="{COLORS[verdict]}"><title>run {escape(row["run_id"])} ({escape(row["started"])}): '
                         f'{n} {verdict}</title></rect>')
        if index % every == 0:
            parts.append(f'<text x="{x + column / 2:.1f}" y="{height - 6}" text-anchor="middle">'
                         f'{escape(row["started"][5:16].replace("T", " "))}</text>')
    parts.append("</svg>")
    return "".join(parts)
