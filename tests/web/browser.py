"""Headless Chromium (Debian's package) driven by Playwright, and the embedded environment to serve it.

Shared by the browser tests and `python -m tests.web.screenshots`.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from playwright.sync_api import Browser

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"]
ROOT = Path(__file__).resolve().parents[2]


@contextmanager
def chromium() -> Iterator[Browser]:
    """A headless Chromium for the duration of the block."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_FLAGS)
        try:
            yield browser
        finally:
            browser.close()


def embedded_environment(database_path: Path) -> dict[str, str]:
    """The embedded default: a SQLite file and no broker (audits run inside `innotune serve`)."""
    env = {name: value for name, value in os.environ.items() if name != "CELERY_BROKER_URL"}
    env.update(DATABASE_URL=f"sqlite:///{database_path}", INNOTUNE_LOG_LEVEL="WARNING")
    return env


def migrate(env: dict[str, str]) -> None:
    subprocess.run(
        [sys.executable, "-m", "cli.main", "migrate"], env=env, cwd=ROOT, check=True, capture_output=True
    )
