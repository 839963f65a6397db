"""The inline SVG pictures: bars on one scale, every value also in words, nothing drawn from unknowns."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ElementTree
from datetime import UTC, datetime

import pytest

from api.web.charts import RIGHT_MARGIN, WIDTH, buffer_pool_chart, history_chart, redo_chart

BAR_AREA = WIDTH - RIGHT_MARGIN

GIB = 1024**3
MIB = 1024**2
SVG = "{http://www.w3.org/2000/svg}"


def _bars(markup: str) -> dict[str, float]:
    """Bar label → drawn width, parsed from the SVG."""
    root = ElementTree.fromstring(markup)
    widths = {}
    for group in root.iter(f"{SVG}g"):
        label, rect = group.find(f"{SVG}text/{SVG}tspan"), group.find(f"{SVG}rect")
        if label is not None and rect is not None and "bar" in (group.get("class") or ""):
            widths[label.text or ""] = float(rect.get("width") or 0)
    return widths


def test_buffer_pool_bars_share_one_scale_and_say_their_values() -> None:
    """Memory is the longest bar; the others are drawn in proportion and described in words."""
    figures = {
        "usable_memory_bytes": 24 * GIB,
        "dataset_bytes": 6 * GIB,
        "buffer_pool_bytes": 128 * MIB,
        "recommended_buffer_pool_bytes": 16 * GIB,
    }
    chart = buffer_pool_chart(figures)
    assert chart is not None
    widths = _bars(str(chart))
    assert widths["Usable memory"] == BAR_AREA
    assert widths["InnoDB data + indexes"] == pytest.approx(BAR_AREA / 4, abs=0.1)
    assert widths["Buffer pool recommended"] == pytest.approx(BAR_AREA * 16 / 24, abs=0.1)
    assert "Buffer pool now: 128 MiB" in str(chart) and "Usable memory: 24 GiB" in str(chart)
    assert 'role="img"' in str(chart)


def test_buffer_pool_chart_needs_the_pool_and_memory_or_data() -> None:
    """No chart from a pool alone, or without the pool; data alone is enough to hold it against."""
    assert buffer_pool_chart({"buffer_pool_bytes": GIB}) is None
    assert buffer_pool_chart({"usable_memory_bytes": GIB}) is None
    chart = buffer_pool_chart({"buffer_pool_bytes": GIB, "dataset_bytes": 2 * GIB})
    assert chart is not None and set(_bars(str(chart))) == {"InnoDB data + indexes", "Buffer pool now"}


def test_redo_chart_says_how_long_each_capacity_lasts() -> None:
    """96 MiB at 11.2 GiB an hour lasts under a minute; the recommended size about an hour."""
    figures = {
        "redo_bytes_per_hour": 12_056_979_600,
        "redo_capacity_bytes": 96 * MIB,
        "recommended_redo_capacity_bytes": 11520 * MIB,
    }
    chart = str(redo_chart(figures))
    assert "96 MiB (&lt; 1 min of writes)" in chart
    assert re.search(r"11.2 GiB \(≈ 60 min of writes\)", chart)
    assert redo_chart({"redo_capacity_bytes": GIB}) is None
    assert redo_chart({"redo_bytes_per_hour": GIB}) is None


def test_history_columns_stack_findings_by_severity() -> None:
    """One column per audit, its height the number of findings; the description lists every count."""
    when = datetime(2026, 11, 23, 10, 0, tzinfo=UTC)
    chart = history_chart(
        [
            (when, {"critical": 1, "warning": 3, "notice": 0, "info": 0}),
            (when, {"critical": 0, "warning": 1, "notice": 1, "info": 0}),
        ]
    )
    assert chart is not None
    root = ElementTree.fromstring(str(chart))
    columns = [
        rect
        for group in root.findall(f"{SVG}g")
        if group.find(f"{SVG}title") is not None
        for rect in group.iter(f"{SVG}rect")
    ]
    heights = [float(rect.get("height") or 0) for rect in columns]
    # Drawn bottom up (warning, then critical on top): the warning block is three times the critical one.
    assert len(heights) == 4 and heights[0] == 3 * heights[1] == 3 * heights[2]

    assert "1 critical, 3 warnings, 0 notices, 0 infos" in str(chart)
    assert history_chart([]) is None


def test_history_chart_has_a_legend_axes_and_times_that_differ() -> None:
    """A legend names each severity's colour, the vertical axis says "findings" with its top count, and
    two audits on one day are labelled by their times, not twice by the same date."""
    first, last = datetime(2026, 11, 23, 10, 0, tzinfo=UTC), datetime(2026, 11, 23, 14, 30, tzinfo=UTC)
    chart = str(history_chart([(first, {"warning": 2}), (last, {"warning": 5, "notice": 1})]))
    root = ElementTree.fromstring(chart)
    legend = root.find(f"{SVG}g[@class='legend']")
    assert legend is not None
    assert [text.text for text in legend.iter(f"{SVG}text")] == ["critical", "warning", "notice", "info"]
    labels = [text.text for text in root.iter(f"{SVG}text")]
    assert "findings" in labels and "6" in labels
    assert "2026-11-23 10:00" in labels and "14:30 UTC" in labels
