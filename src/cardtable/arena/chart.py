"""A picture of the arena ladder as a self-contained SVG document, drawn by hand (no plotting
library): one row per bot, best first, its rating as a dot and its 95% interval as a bar.

>>> from cardtable.arena.report import Rung
>>> svg = ladder_svg([Rung("normal", 420.0, 380.0, 460.0, 100), Rung("random", 0, 0, 0, 100)],
...                  title="demo")
>>> svg.startswith("<svg") and "normal" in svg and svg.rstrip().endswith("</svg>")
True
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from html import escape

from cardtable.arena.report import Rung

_WIDTH = 720
_ROW = 44
_LEFT = 130
_RIGHT = 60
_TOP = 64
_BOTTOM = 56


def _nice_step(span: float) -> float:
    raw = span / 6.0
    magnitude = 10 ** math.floor(math.log10(raw)) if raw > 0 else 1.0
    for factor in (1.0, 2.0, 2.5, 5.0, 10.0):
        if raw <= factor * magnitude:
            return factor * magnitude
    return 10.0 * magnitude


def ladder_svg(ladder: Sequence[Rung], *, title: str) -> str:
    """The ladder as an SVG string (ratings on the x axis, bots down the y axis)."""
    rows = list(ladder)
    finite = [v for rung in rows for v in (rung.rating, rung.low, rung.high) if math.isfinite(v)]
    low = min(finite, default=0.0)
    high = max(finite, default=1.0)
    if high - low < 1.0:
        low, high = low - 50.0, high + 50.0
    step = _nice_step(high - low)
    low = math.floor(low / step) * step
    high = math.ceil(high / step) * step
    plot_width = _WIDTH - _LEFT - _RIGHT
    height = _TOP + _ROW * max(1, len(rows)) + _BOTTOM

    def x_of(value: float) -> float:
        return _LEFT + (value - low) / (high - low) * plot_width

    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{_WIDTH}" height="{height}" '
        f'viewBox="0 0 {_WIDTH} {height}" font-family="sans-serif" font-size="14">',
        f"<title>{escape(title)}</title>",
        f'<rect width="{_WIDTH}" height="{height}" fill="white"/>',
        f'<text x="{_WIDTH / 2}" y="28" text-anchor="middle" font-size="17" '
        f'font-weight="bold">{escape(title)}</text>',
    ]
    axis_y = _TOP + _ROW * max(1, len(rows))
    tick = low
    while tick <= high + step / 2:
        x = x_of(tick)
        parts.append(
            f'<line x1="{x:.1f}" y1="{_TOP - 10}" x2="{x:.1f}" y2="{axis_y}" '
            'stroke="#e3e3e3" stroke-width="1"/>'
        )
        parts.append(
            f'<text x="{x:.1f}" y="{axis_y + 20}" text-anchor="middle" fill="#555">'
            f"{tick:.0f}</text>"
        )
        tick += step
    parts.append(
        f'<text x="{_LEFT + plot_width / 2}" y="{axis_y + 44}" text-anchor="middle" '
        'fill="#333">rating (Elo scale; bars: 95% interval)</text>'
    )
    for row, rung in enumerate(rows):
        y = _TOP + _ROW * row + _ROW / 2
        parts.append(
            f'<text x="{_LEFT - 14}" y="{y + 5:.1f}" text-anchor="end" '
            f'font-weight="bold">{escape(rung.bot)}</text>'
        )
        if math.isfinite(rung.low) and math.isfinite(rung.high):
            parts.append(
                f'<line x1="{x_of(rung.low):.1f}" y1="{y:.1f}" x2="{x_of(rung.high):.1f}" '
                f'y2="{y:.1f}" stroke="#3a6ea5" stroke-width="6" stroke-linecap="round" '
                'opacity="0.45"/>'
            )
        parts.append(f'<circle cx="{x_of(rung.rating):.1f}" cy="{y:.1f}" r="7" fill="#1f4e79"/>')
        parts.append(
            f'<text x="{x_of(rung.rating):.1f}" y="{y - 12:.1f}" text-anchor="middle" '
            f'font-size="12" fill="#1f4e79">{rung.rating:.0f}</text>'
        )
    parts.append("</svg>")
    return "\n".join(parts) + "\n"
