"""Browser fixtures: one headless Chromium per run, a fresh browser context per test, and the app
served as a real process — on the run's PostgreSQL with a real worker, or on the embedded default.

Under CI=true a missing Chromium or Playwright is a failure, never a skip (`make test` installs both).
"""

from __future__ import annotations

import importlib.util
import os
import secrets
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from tests.fixtures.real_services import ServiceUrls, service_environment
from tests.fixtures.real_services import missing as skip_or_fail
from tests.fixtures.server_process import serve
from tests.fixtures.worker_process import WorkerProcess
from tests.web.browser import CHROMIUM, chromium, embedded_environment, migrate

if TYPE_CHECKING:
    from playwright.sync_api import Browser, BrowserContext, Page

#: a fixed secret shared by the test's server process, so a session survives nothing but itself.
SECRET_KEY = secrets.token_hex(32)


def _require_browser() -> None:
    missing = []
    if not os.access(CHROMIUM, os.X_OK):
        missing.append(f"{CHROMIUM} (apt-get install chromium)")
    if importlib.util.find_spec("playwright") is None:
        missing.append("the playwright package (pip install -e '.[dev]')")
    if missing:
        skip_or_fail("browser tests need " + " and ".join(missing))


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    """Debian's Chromium, headless, for one test module.

    Not for the whole run: while Playwright's sync API is open its event loop counts as running in
    this thread, and tests elsewhere that call asyncio.run() would fail.
    """
    _require_browser()
    with chromium() as handle:
        yield handle


@pytest.fixture
def context(browser: Browser) -> Iterator[BrowserContext]:
    """A fresh profile (no cookies) per test; downloads allowed."""
    fresh = browser.new_context(accept_downloads=True)
    fresh.set_default_timeout(30_000)
    try:
        yield fresh
    finally:
        fresh.close()


@pytest.fixture
def page(context: BrowserContext) -> Page:
    return context.new_page()


@pytest.fixture(scope="module")
def service_web(
    service_urls: ServiceUrls, worker_process: WorkerProcess, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[str]:
    """`innotune serve` on the run's PostgreSQL, its audits run by the real worker; the base URL."""
    env = {
        **service_environment(service_urls),
        "INNOTUNE_SECRET_KEY": SECRET_KEY,
        "INNOTUNE_LOG_LEVEL": "WARNING",
    }
    with serve(env, tmp_path_factory.mktemp("serve") / "serve.log") as url:
        yield url


@pytest.fixture(scope="module")
def embedded_web(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    """`innotune serve` on the embedded default (a fresh SQLite file, no broker): URL and database file."""
    directory = tmp_path_factory.mktemp("embedded")
    database = directory / "innotune.db"
    env = embedded_environment(database)
    migrate(env)
    with serve(env, directory / "serve.log") as url:
        yield url, database
