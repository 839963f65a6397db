"""Headless Chromium (Debian's package) driven by Playwright, and `innotune serve` processes to point it at.

Shared by the browser tests and `python -m tests.web.screenshots`.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

import httpx

if TYPE_CHECKING:
    from playwright.sync_api import Browser

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"]
ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


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


@contextmanager
def serve(env: dict[str, str], log_path: Path) -> Iterator[str]:
    """`innotune serve` on a free localhost port until the block ends; yields its base URL."""
    port = free_port()
    with log_path.open("ab") as log:
        process = subprocess.Popen(
            [sys.executable, "-m", "cli.main", "serve", "--port", str(port)],
            env=env,
            cwd=ROOT,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                if httpx.get(f"{url}/readyz", timeout=2).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            if process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"innotune serve did not become ready:\n{log_path.read_text()[-3000:]}")
            time.sleep(0.2)
        yield url
    finally:
        process.terminate()
        process.wait(timeout=20)
