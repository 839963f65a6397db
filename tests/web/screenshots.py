"""Take the README's screenshots of the pages: `python -m tests.web.screenshots` (or `make screenshots`).

Serves the embedded default on a scratch SQLite file, fills the form from the corpus in headless
Chromium and writes docs/screenshots/{form,form-error,result,result-390,result-diff}.png: the result page at
1280 px (its top: the changes table, the drift, the first findings) and on a 390 px phone. A browser test runs the same
function into a temporary folder, so this script cannot rot unnoticed.
"""

from __future__ import annotations

import re
import sys
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING

from tests.fixtures.server_process import serve
from tests.web.browser import ROOT, chromium, embedded_environment, migrate
from tests.web.corpus_form import fill_from_corpus

if TYPE_CHECKING:
    from playwright.sync_api import Browser

OUTPUT = ROOT / "docs" / "screenshots"
VIEWPORT = {"width": 1280, "height": 900}
#: the result page is long: the screenshot shows its top (summary, changes table, drift, first findings).
RESULT_HEIGHT = 1800
PHONE = {"width": 390, "height": 844}
PHONE_HEIGHT = 2400


def take_screenshots(browser: Browser, base_url: str, output: Path) -> list[Path]:
    """Screenshot the filled-in form, the form with a parser error, and a result page."""
    output.mkdir(parents=True, exist_ok=True)
    page = browser.new_page(viewport=VIEWPORT)  # type: ignore[arg-type]
    try:
        page.goto(f"{base_url}/ui")
        page.get_by_label("Path of option file 1").fill("/etc/mysql/conf.d/tuning.cnf")
        page.get_by_label("Text of option file 1").fill(
            "[mysqld]\ninnodb_flush_log_at_trx_commit = 2\n[mysqld\n"
        )
        page.get_by_label("Memory", exact=True).fill("24G")
        page.get_by_label("Version").fill("10.11.6-MariaDB")
        page.get_by_role("button", name="Run the audit").click()
        page.locator(".error-summary").wait_for()
        error_shot = output / "form-error.png"
        page.screenshot(
            path=str(error_shot),
            full_page=True,
            clip={"x": 0, "y": 0, "width": VIEWPORT["width"], "height": 1300},
        )

        page.goto(f"{base_url}/ui")
        fill_from_corpus(page, server_name="db-orders-1")
        form_shot = output / "form.png"
        page.screenshot(path=str(form_shot), full_page=True)
        page.get_by_role("button", name="Run the audit").click()
        page.wait_for_url(re.compile(r"/ui/audits/[0-9a-f-]{36}$"))
        page.get_by_role("heading", name="Findings", exact=True).wait_for()
        result_shot = output / "result.png"
        page.set_viewport_size({"width": VIEWPORT["width"], "height": RESULT_HEIGHT})
        page.screenshot(path=str(result_shot))
        diff_shot = output / "result-diff.png"
        page.locator("#changes").screenshot(path=str(diff_shot))
        phone_shot = output / "result-390.png"
        page.set_viewport_size(PHONE)
        page.screenshot(
            path=str(phone_shot), full_page=True, clip={"x": 0, "y": 0, **PHONE, "height": PHONE_HEIGHT}
        )
        return [form_shot, error_shot, result_shot, phone_shot, diff_shot]
    finally:
        page.close()


def main() -> int:
    with tempfile.TemporaryDirectory() as scratch:
        env = embedded_environment(Path(scratch) / "innotune.db")
        migrate(env)
        with serve(env, Path(scratch) / "serve.log") as url, chromium() as browser:
            for path in take_screenshots(browser, url, OUTPUT):
                print(path.relative_to(ROOT))
    return 0


if __name__ == "__main__":
    sys.exit(main())
