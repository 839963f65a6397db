"""In headless Chromium: a page on another port of the same host (same-site, another origin) that
auto-submits a form to our audit form creates nothing, while our own form still works."""

from __future__ import annotations

import html
import re
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import TYPE_CHECKING

from tests.corpus import corpus_file
from tests.web.corpus_form import VARIABLES

if TYPE_CHECKING:
    from playwright.sync_api import Page


def _audit_count(database: Path) -> int:
    from sqlalchemy import create_engine, text

    engine = create_engine(f"sqlite:///{database}")
    try:
        with engine.connect() as connection:
            return int(connection.execute(text("SELECT count(*) FROM audits")).scalar_one())
    finally:
        engine.dispose()


@contextmanager
def attacker_site(target: str) -> Iterator[str]:
    """A page on another port of 127.0.0.1 whose form posts itself to `target` on load."""
    variables = html.escape(corpus_file(VARIABLES).read_text())
    page = (
        "<!doctype html><html><body>"
        f'<form id="f" method="post" action="{target}" enctype="multipart/form-data">'
        f'<textarea name="variables_text">{variables}</textarea>'
        '<input name="memory" value="24G"><input name="csrf_token" value="guessed">'
        "</form><script>document.getElementById('f').submit()</script></body></html>"
    ).encode()

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.send_header("Content-Length", str(len(page)))
            self.end_headers()
            self.wfile.write(page)

        def log_message(self, format: str, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/win-a-prize.html"
    finally:
        server.shutdown()
        server.server_close()


def test_an_auto_submitting_form_on_another_port_creates_nothing(
    page: Page, embedded_web: tuple[str, Path]
) -> None:
    """The user has our pages open (cookies set); the other port's page posts to /ui/audits: 403, no
    audit. Then our own form, in the same browser, is accepted."""
    url, database = embedded_web
    page.goto(f"{url}/ui")  # our cookies are in the browser, as for a real user
    before = _audit_count(database)
    with attacker_site(f"{url}/ui/audits") as attack:
        with page.expect_response(f"{url}/ui/audits") as answer:
            page.goto(attack)
        assert answer.value.status == 403
    assert "accepted from this site's own pages only" in page.content()
    assert _audit_count(database) == before

    page.goto(f"{url}/ui")
    page.locator("#variables-text").fill(corpus_file(VARIABLES).read_text())
    page.get_by_label("Memory", exact=True).fill("24G")
    page.get_by_role("button", name="Run the audit").click()
    page.wait_for_url(re.compile(r"/ui/audits/[0-9a-f-]{36}$"))
    assert _audit_count(database) == before + 1
