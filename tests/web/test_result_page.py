"""The result page in headless Chromium on the embedded default: the changes table first (with its
severity filter), the drift, the exports, the print layout; readable at 390 px; a visible focus ring;
and the re-audit of our own recommended file on the server's compare page."""

from __future__ import annotations

import csv
import io
import json
import re
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tests.web.corpus_form import fill_from_corpus
from tests.web.flow import submit_and_wait

if TYPE_CHECKING:
    from playwright.sync_api import Page

PHONE = {"width": 390, "height": 844}


def _audit_json(page: Page, base_url: str, audit_id: str) -> dict[str, Any]:
    with page.expect_download() as download:
        page.get_by_role("link", name="JSON", exact=True).click()
    body: dict[str, Any] = json.loads(Path(download.value.path()).read_text())
    assert body["id"] == audit_id
    return body


def _relative_luminance(rgb: tuple[int, int, int]) -> float:
    def channel(value: int) -> float:
        c = value / 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    red, green, blue = (channel(v) for v in rgb)
    return 0.2126 * red + 0.7152 * green + 0.0722 * blue


def contrast(first: str, second: str) -> float:
    """WCAG contrast ratio of two CSS `rgb(r, g, b)` colours."""
    lighter, darker = sorted(
        (_relative_luminance(tuple(int(n) for n in re.findall(r"\d+", c)[:3])) for c in (first, second)),  # type: ignore[arg-type]
        reverse=True,
    )
    return (lighter + 0.05) / (darker + 0.05)


def test_the_changes_table_comes_first_with_a_filter_exports_and_the_drift(
    page: Page, embedded_web: tuple[str, Path]
) -> None:
    """One row per finding above the findings and pictures, plurals right, the filter narrows rows and
    findings; CSV/Markdown/JSON export what the page shows; `log-bin = mysql-bin` stays in the file and
    shows as not yet live (restart)."""
    url, _ = embedded_web
    page.goto(f"{url}/ui")
    fill_from_corpus(page)
    audit_id = submit_and_wait(page)
    audit = _audit_json(page, url, audit_id)
    findings = audit["findings"]

    order = page.locator("main h2").all_inner_texts()
    assert order.index("What to change, and why") < order.index("Findings") < order.index("Pictures")
    rows = page.locator("table.changes-table tbody tr")
    assert rows.count() == len(findings)
    pool = next(i for i, f in enumerate(findings) if f["variable"] == "innodb_buffer_pool_size")
    pool_row = rows.nth(pool)
    assert f"{findings[pool]['current']} → {findings[pool]['recommended']}" in pool_row.inner_text()
    assert pool_row.get_by_role("link").get_attribute("href") == f"#finding-{pool}"
    warnings = sum(1 for f in findings if f["severity"] == "warning")
    assert f"{warnings} warnings" in page.locator("dl.summary").first.inner_text()
    assert not re.search(r"\b[2-9] (warning|notice|critical)\b(?!s)", page.locator("main").inner_text())

    binlog = page.get_by_role("row", name=re.compile("log_bin.*Binary logging is on in the option file"))
    assert "restart" in binlog.inner_text()
    assert "mysql-bin" not in "".join(
        line for line in audit["diff"].splitlines() if line.startswith(("+", "-"))
    ).replace("mysql-bin.", "")
    drift = page.locator("#drift")
    assert drift.get_by_role("row", name=re.compile(r"^log_bin mysql-bin")).count() == 1

    page.locator(".severity-filter").get_by_role("link", name=f"{warnings} warnings").click()
    assert page.locator("table.changes-table tbody tr").count() == warnings
    assert page.locator("section.severity-group").count() == 1
    assert page.locator("article.finding").count() == warnings

    with page.expect_download() as csv_download:
        page.get_by_role("link", name="CSV", exact=True).click()
    table = list(csv.DictReader(io.StringIO(Path(csv_download.value.path()).read_text())))
    assert [row["rule"] for row in table] == [f["rule"] for f in findings]
    assert table[pool]["recommended"] == findings[pool]["recommended"]
    with page.expect_download() as md_download:
        page.get_by_role("link", name="Markdown", exact=True).click()
    markdown = Path(md_download.value.path()).read_text()
    assert "## Changes" in markdown and "## In the file, not yet live" in markdown
    assert all(f["title"].replace("|", "\\|") in markdown for f in findings)

    page.emulate_media(media="print")
    assert not page.locator(".site-header").is_visible()
    assert not page.locator(".downloads").first.is_visible()
    assert page.locator("table.changes-table").is_visible()
    page.emulate_media(media="screen")


def test_the_page_reads_at_390_px_and_the_focus_ring_shows(
    page: Page, embedded_web: tuple[str, Path]
) -> None:
    """On a 390 px phone nothing scrolls sideways and chart text is at least 10 px; the focus ring
    has at least 3:1 contrast on the white page and on the dark header; the diff's finding column
    stays on screen however long a line is."""
    url, _ = embedded_web
    page.goto(f"{url}/ui")
    fill_from_corpus(page)
    page.get_by_label("Path of option file 1").fill("/etc/mysql/my.cnf")
    long_line = "init_connect = 'SET NAMES utf8mb4 COLLATE utf8mb4_unicode_ci" + " " * 120 + "'\n"
    page.get_by_label("Text of option file 1").fill(
        "[mysqld]\n" + long_line + "innodb_buffer_pool_size = 16M\n"
    )
    page.locator("#mycnf-0-file").set_input_files([])
    submit_and_wait(page)

    for_cell = page.locator("table.diff tr.diff-add td.for").first
    box = for_cell.bounding_box()
    assert box is not None and box["x"] + box["width"] <= page.viewport_size["width"]  # type: ignore[index]

    link = page.locator("table.changes-table a").first
    link.focus()
    outline = link.evaluate("el => getComputedStyle(el).outlineColor")
    assert contrast(outline, "rgb(255, 255, 255)") >= 3
    header_link = page.locator(".site-header a").first
    header_link.focus()
    ring = header_link.evaluate("el => getComputedStyle(el).outlineColor")
    header = page.locator(".site-header").evaluate("el => getComputedStyle(el).backgroundColor")
    assert contrast(ring, header) >= 3

    page.set_viewport_size(PHONE)
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    for chart in ("#chart-buffer-pool", "#chart-redo"):
        scale = page.locator(chart).evaluate(
            "svg => svg.getBoundingClientRect().width / svg.viewBox.baseVal.width"
        )
        font = page.locator(f"{chart} text").first.evaluate("t => parseFloat(getComputedStyle(t).fontSize)")
        assert font * scale >= 10, (chart, font, scale)


def test_reaudit_of_the_recommended_file_is_not_called_resolved(
    page: Page, embedded_web: tuple[str, Path]
) -> None:
    """A server audited, then re-audited with our recommended file and the same live dumps: the pool
    finding is not resolved (the server still runs 128 MiB); the result and compare pages show the file's
    values as not yet live; the re-audit's diff holds no no-op lines."""
    url, _ = embedded_web
    page.goto(f"{url}/ui")
    fill_from_corpus(page, server_name="db-reaudit-1")
    first_id = submit_and_wait(page)
    first = _audit_json(page, url, first_id)
    pool_before = next(f for f in first["findings"] if f["variable"] == "innodb_buffer_pool_size")

    page.get_by_role("link", name="Start another audit").click()
    with page.expect_download() as download:
        page.goto(f"{url}/ui/audits/{first_id}")
        page.get_by_role("link", name="Download my.sandbox.cnf").click()
    recommended = Path(download.value.path()).read_text()
    page.goto(f"{url}/ui?server_id={first['server_id']}")
    page.get_by_label("Path of option file 1").fill("my.sandbox.cnf")
    page.get_by_label("Text of option file 1").fill(recommended)
    fill_from_corpus(page, mycnf=None)
    second_id = submit_and_wait(page)
    second = _audit_json(page, url, second_id)

    pool_after = next(f for f in second["findings"] if f["variable"] == "innodb_buffer_pool_size")
    assert pool_after["current"] == pool_before["current"] == "128M"
    changed = [
        line
        for line in (second["diff"] or "").splitlines()
        if line[:1] in "+-" and line[:3] not in ("+++", "---")
    ]
    removed = {line[1:] for line in changed if line.startswith("-")}
    assert not [line for line in changed if line.startswith("+") and line[1:] in removed]
    drift_row = page.locator("#drift").get_by_role("row", name=re.compile(r"^innodb_buffer_pool_size"))
    assert pool_before["recommended"] in drift_row.inner_text()

    page.goto(f"{url}/ui/servers/{first['server_id']}/compare?a={first_id}&b={second_id}")
    resolved = page.locator("ul.changes.resolved")
    assert resolved.count() == 0 or "innodb_buffer_pool_size" not in resolved.inner_text()
    drift = page.get_by_role("table", name=re.compile("Set in the newer audit's option files"))
    assert drift.get_by_role("row", name=re.compile(r"^innodb_buffer_pool_size")).count() == 1
