"""The result page's pictures, drawn here as inline SVG (no script, no image files): the buffer pool
against usable memory and the dataset, and the redo written per hour against the redo capacity.

Each chart is a few horizontal bars on one scale, every bar labelled with its value in words too, and
a <title>/<desc> pair so a screen reader gets the same facts.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime

from markupsafe import Markup, escape

from advisor.units import describe_bytes
from api.web.changes import plural

#: drawing units; the page shows a chart at most CHART_MAX_PX wide (ui.css), so 14-unit text stays
#: 11–16 px from a 390 px phone to a desktop: labels sit above their bars, not beside them.
WIDTH = 420
ROW_HEIGHT = 46
BAR_HEIGHT = 18
LABEL_HEIGHT = 18
TOP = 6
RIGHT_MARGIN = 8


@dataclass(frozen=True)
class Bar:
    label: str
    value: int
    kind: str
    note: str = ""

    @property
    def text(self) -> str:
        return describe_bytes(self.value) + (f" {self.note}" if self.note else "")


def _bar_row(index: int, bar: Bar, scale: float) -> str:
    y = TOP + index * ROW_HEIGHT
    length = max(2.0, bar.value * scale)
    return (
        f'<g class="bar bar-{escape(bar.kind)}">'
        f'<text x="0" y="{y + 14}"><tspan class="bar-label">{escape(bar.label)}</tspan>'
        f'<tspan class="bar-value"> {escape(bar.text)}</tspan></text>'
        f'<rect x="0" y="{y + LABEL_HEIGHT + 2}" width="{length:.1f}" height="{BAR_HEIGHT}" rx="3"></rect>'
        "</g>"
    )


def bar_chart(
    chart_id: str, title: str, description: str, bars: list[Bar], limit: Bar | None = None
) -> Markup:
    """Horizontal bars on one linear scale, each under its label and value; `limit` (e.g. usable
    memory) is drawn as a dashed line too."""
    scale = (WIDTH - RIGHT_MARGIN) / max(bar.value for bar in bars)
    height = TOP * 2 + len(bars) * ROW_HEIGHT + (18 if limit is not None else 0)
    parts = [
        f'<svg class="chart" id="{chart_id}" role="img" aria-labelledby="{chart_id}-title {chart_id}-desc" '
        f'viewBox="0 0 {WIDTH} {height}" width="100%" preserveAspectRatio="xMinYMin meet" '
        'xmlns="http://www.w3.org/2000/svg">',
        f'<title id="{chart_id}-title">{escape(title)}</title>',
        f'<desc id="{chart_id}-desc">{escape(description)}</desc>',
    ]
    parts += [_bar_row(index, bar, scale) for index, bar in enumerate(bars)]
    if limit is not None:
        x = limit.value * scale
        bottom = TOP + len(bars) * ROW_HEIGHT
        anchor = "end" if x > WIDTH / 2 else "start"
        parts.append(
            f'<g class="limit"><line x1="{x:.1f}" y1="{TOP}" x2="{x:.1f}" y2="{bottom}"></line>'
            f'<text x="{x:.1f}" y="{bottom + 14}" text-anchor="{anchor}">{escape(limit.label)}</text></g>'
        )
    parts.append("</svg>")
    return Markup("".join(parts))


def _describe(bars: list[Bar]) -> str:
    return "; ".join(f"{bar.label}: {bar.text}" for bar in bars) + "."


def buffer_pool_chart(figures: Mapping[str, int | None]) -> Markup | None:
    """Usable memory, InnoDB data and indexes, the pool now and the pool recommended; None when
    neither memory nor the dataset is known (nothing to hold the pool against)."""
    memory, dataset = figures.get("usable_memory_bytes"), figures.get("dataset_bytes")
    pool, recommended = figures.get("buffer_pool_bytes"), figures.get("recommended_buffer_pool_bytes")
    if not pool or (not memory and dataset is None):
        return None
    bars = []
    if memory:
        bars.append(Bar("Usable memory", memory, "memory"))
    if dataset is not None:
        bars.append(Bar("InnoDB data + indexes", dataset, "data"))
    bars.append(Bar("Buffer pool now", pool, "current"))
    if recommended:
        bars.append(Bar("Buffer pool recommended", recommended, "recommended"))
    if max(bar.value for bar in bars) <= 0:
        return None
    limit = Bar("usable memory", memory, "memory") if memory else None
    title = "The buffer pool against usable memory and the dataset"
    return bar_chart("chart-buffer-pool", title, _describe(bars), bars, limit)


def _lasts(capacity_bytes: int, bytes_per_hour: int) -> str:
    if bytes_per_hour <= 0:
        return ""
    minutes = capacity_bytes / bytes_per_hour * 60
    if minutes < 1:
        return "(< 1 min of writes)"
    if minutes < 90:
        return f"(≈ {minutes:.0f} min of writes)"
    return f"(≈ {minutes / 60:.1f} h of writes)"


def redo_chart(figures: Mapping[str, int | None]) -> Markup | None:
    """Redo written per hour against the capacity now and recommended; None without both the rate
    (two status dumps) and the capacity."""
    per_hour, capacity = figures.get("redo_bytes_per_hour"), figures.get("redo_capacity_bytes")
    recommended = figures.get("recommended_redo_capacity_bytes")
    if per_hour is None or not capacity:
        return None
    bars = [
        Bar("Redo written per hour", per_hour, "rate"),
        Bar("Redo capacity now", capacity, "current", _lasts(capacity, per_hour)),
    ]
    if recommended:
        bars.append(
            Bar("Redo capacity recommended", recommended, "recommended", _lasts(recommended, per_hour))
        )
    if max(bar.value for bar in bars) <= 0:
        return None
    title = "Redo written per hour against the redo log's capacity"
    return bar_chart("chart-redo", title, _describe(bars), bars)


HISTORY_HEIGHT = 150
HISTORY_TOP = 34
HISTORY_LEFT = 34
HISTORY_SEVERITIES = ("critical", "warning", "notice", "info")


def _legend() -> list[str]:
    """Which colour is which severity, in a row above the columns."""
    parts, x = ['<g class="legend">'], float(HISTORY_LEFT)
    for severity in HISTORY_SEVERITIES:
        parts.append(f'<rect class="sev-{severity}" x="{x:.0f}" y="4" width="12" height="12"></rect>')
        parts.append(f'<text x="{x + 16:.0f}" y="15">{severity}</text>')
        x += 16 + 7 * len(severity) + 16
    parts.append("</g>")
    return parts


def _time_labels(points: list[tuple[datetime, Mapping[str, int]]]) -> tuple[str, str]:
    """The first and last audit's times, precise enough to differ (a day, else the minute)."""
    first, last = points[0][0], points[-1][0]
    if first.date() != last.date():
        return f"{first:%Y-%m-%d}", f"{last:%Y-%m-%d}"
    if (first.hour, first.minute) != (last.hour, last.minute):
        return f"{first:%Y-%m-%d %H:%M}", f"{last:%H:%M} UTC"
    return f"{first:%Y-%m-%d %H:%M:%S}", f"{last:%H:%M:%S} UTC"


def history_chart(points: list[tuple[datetime, Mapping[str, int]]]) -> Markup | None:
    """Findings per audit over time, oldest on the left, each column stacked by severity, with a
    legend, a findings axis and the first and last audit's time; None without a succeeded audit."""
    if not points:
        return None
    tallest = max(max(sum(counts.values()) for _, counts in points), 1)
    column = min(40.0, (WIDTH - HISTORY_LEFT - 8) / len(points))
    base = HISTORY_TOP + HISTORY_HEIGHT
    scale = (HISTORY_HEIGHT - 16) / tallest
    parts = [
        '<svg class="chart history" id="chart-history" role="img" '
        'aria-labelledby="chart-history-title chart-history-desc" '
        f'viewBox="0 0 {WIDTH} {base + 40}" width="100%" preserveAspectRatio="xMinYMin meet" '
        'xmlns="http://www.w3.org/2000/svg">',
        '<title id="chart-history-title">Findings per audit, oldest first</title>',
        '<desc id="chart-history-desc">'
        + escape(
            "; ".join(
                f"{when:%Y-%m-%d %H:%M}: "
                + ", ".join(plural(counts.get(name, 0), name) for name in HISTORY_SEVERITIES)
                for when, counts in points
            )
        )
        + "</desc>",
        *_legend(),
    ]
    for index, (when, counts) in enumerate(points):
        x = HISTORY_LEFT + index * column
        y = float(base)
        label = ", ".join(plural(counts.get(name, 0), name) for name in HISTORY_SEVERITIES)
        parts.append(f"<g><title>{escape(f'{when:%Y-%m-%d %H:%M} UTC: {label}')}</title>")
        for severity in reversed(HISTORY_SEVERITIES):  # info at the bottom, critical on top
            height = counts.get(severity, 0) * scale
            if height:
                y -= height
                parts.append(
                    f'<rect class="sev-{severity}" x="{x + 3:.1f}" y="{y:.1f}" '
                    f'width="{column - 6:.1f}" height="{height:.1f}"></rect>'
                )
        total = sum(counts.values())
        parts.append(
            f'<text x="{x + column / 2:.1f}" y="{y - 4:.1f}" text-anchor="middle">{total}</text></g>'
        )
    top_tick = base - tallest * scale
    parts += [
        f'<line class="axis" x1="{HISTORY_LEFT - 4}" y1="{base}" x2="{WIDTH - 4}" y2="{base}"></line>',
        f'<line class="axis" x1="{HISTORY_LEFT - 4}" y1="{top_tick:.1f}" x2="{HISTORY_LEFT - 4}" y2="{base}"></line>',
        f'<text class="tick" x="{HISTORY_LEFT - 8}" y="{base}" text-anchor="end">0</text>',
        f'<text class="tick" x="{HISTORY_LEFT - 8}" y="{top_tick + 10:.1f}" text-anchor="end">{tallest}</text>',
        f'<text class="axis-label" transform="translate(10 {base - HISTORY_HEIGHT / 2:.0f}) rotate(-90)" '
        'text-anchor="middle">findings</text>',
    ]
    first, last = _time_labels(points)
    parts.append(f'<text x="{HISTORY_LEFT}" y="{base + 16}">{escape(first)}</text>')
    if len(points) > 1:
        parts.append(f'<text x="{WIDTH - 4}" y="{base + 16}" text-anchor="end">{escape(last)}</text>')
    parts.append(
        f'<text class="axis-label" x="{WIDTH / 2:.0f}" y="{base + 34}" text-anchor="middle">'
        "audits, oldest on the left</text>"
    )
    parts.append("</svg>")
    return Markup("".join(parts))
