"""The audit form's persisted-variables field (MySQL 8.0+) in headless Chromium on the embedded default:
pasted beside the option file and variables of a real 8.0.46, it is read as the layer a restart reads over
the file, as the API and the CLI read it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING

from tests.web.flow import submit_and_wait

if TYPE_CHECKING:
    from playwright.sync_api import Page

CAPTURE = Path(__file__).parents[1] / "fixtures" / "persisted_mysql80"


def test_persisted_values_from_the_form_judge_the_drift(page: Page, embedded_web: tuple[str, Path]) -> None:
    """max_connections runs 300, the file says 200, mysqld-auto.cnf 300: with the persisted field filled in,
    no drift for it (the restart brings 300 back) and the file's dead line is named; without the field the
    form had no way to say so and the page offered SET PERSIST max_connections = 200."""
    url, _ = embedded_web
    page.goto(f"{url}/ui")
    page.get_by_label("Path of option file 1").fill("/etc/mysql/my.cnf")
    page.get_by_label("Text of option file 1").fill((CAPTURE / "my.cnf").read_text())
    page.locator("#variables-text").fill((CAPTURE / "variables.tsv").read_text())
    page.locator("#persisted-text").fill((CAPTURE / "persisted.tsv").read_text())
    audit_id = submit_and_wait(page)
    with page.expect_download() as download:
        page.get_by_role("link", name="JSON", exact=True).click()
    audit = json.loads(Path(download.value.path()).read_text())
    assert audit["id"] == audit_id
    drift = {entry["name"]: entry for entry in audit["drift"]}
    assert "max_connections" not in drift
    assert drift["innodb_io_capacity"]["apply_sql"] == "SET PERSIST innodb_io_capacity = 1000;"
    overrides = [f["variable"] for f in audit["findings"] if f["rule"] == "persisted.overrides_file"]
    assert "max_connections" in overrides
