"""The pages on the embedded default (SQLite, no broker) in headless Chromium: no sign-in, the local
organisation, audits run inside `innotune serve`; and the screenshot script."""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING

from tests.corpus import corpus_file
from tests.web.corpus_form import VARIABLES
from tests.web.screenshots import take_screenshots

if TYPE_CHECKING:
    from playwright.sync_api import Browser, BrowserContext, Page

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def _organizations(database: Path) -> list[tuple[str, str]]:
    from sqlalchemy import create_engine, text

    engine = create_engine(f"sqlite:///{database}")
    try:
        with engine.connect() as connection:
            return [
                (row.id, row.name) for row in connection.execute(text("SELECT id, name FROM organizations"))
            ]
    finally:
        engine.dispose()


def test_no_sign_in_and_one_local_organisation(
    context: BrowserContext, page: Page, embedded_web: tuple[str, Path]
) -> None:
    """The form opens straight away, /ui/login sends back to it, no session cookie is set, and every request
    uses the one organisation named `local`, kept in the database."""
    url, database = embedded_web
    page.goto(f"{url}/ui")
    assert page.get_by_role("heading", name="Audit a server's configuration").is_visible()
    assert page.get_by_role("button", name="Sign out").count() == 0
    page.goto(f"{url}/ui/login")
    assert page.url == f"{url}/ui"
    page.goto(f"{url}/ui/servers")
    assert [cookie["name"] for cookie in context.cookies()] == ["innotune_csrf"]  # forms' token only
    local = [row for row in _organizations(database) if row[1] == "local"]
    assert len(local) == 1


def test_pasted_inputs_audit_in_process(page: Page, embedded_web: tuple[str, Path]) -> None:
    """A pasted my.cnf and variables dump become a finished audit without a worker; the recommended
    file downloads under its path's name with the pasted file's edits."""
    url, _ = embedded_web
    page.goto(f"{url}/ui")
    page.get_by_label("Path of option file 1").fill("/etc/mysql/my.cnf")
    page.get_by_label("Text of option file 1").fill("[mysqld]\ninnodb_buffer_pool_size = 128M\n")
    page.locator("#variables-text").fill(corpus_file(VARIABLES).read_text())
    page.get_by_label("Memory", exact=True).fill("24G")
    page.get_by_role("button", name="Run the audit").click()
    page.wait_for_url(re.compile(r"/ui/audits/[0-9a-f-]{36}$"))
    pool_row = page.locator("table.diff tr.diff-add", has_text="innodb_buffer_pool_size")
    assert pool_row.count() == 1
    assert page.locator("table.diff tr.diff-file").first.inner_text().strip() == "--- a/etc/mysql/my.cnf"
    with page.expect_download() as download:
        page.get_by_role("link", name="Download /etc/mysql/my.cnf").click()
    assert download.value.suggested_filename == "my.cnf"
    recommended = Path(download.value.path()).read_text()
    assert recommended.startswith("[mysqld]\ninnodb_buffer_pool_size = ")
    assert "128M" not in recommended


def test_screenshot_script_writes_the_readme_pictures(
    browser: Browser, embedded_web: tuple[str, Path], tmp_path: Path
) -> None:
    """`python -m tests.web.screenshots` still drives the pages to the form, an error and a result."""
    url, _ = embedded_web
    shots = take_screenshots(browser, url, tmp_path)
    assert [shot.name for shot in shots] == [
        "form.png",
        "form-error.png",
        "result.png",
        "result-390.png",
        "result-diff.png",
    ]
    for shot in shots:
        data = shot.read_bytes()
        assert data.startswith(PNG_SIGNATURE) and len(data) > 20_000, shot.name
