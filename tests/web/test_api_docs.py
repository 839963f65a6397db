"""/docs and /redoc work offline: headless Chromium with every request off this host refused renders
both, with no request blocked by the Content-Security-Policy."""

from __future__ import annotations

from pathlib import Path
from urllib.parse import urlsplit

from playwright.sync_api import Page, Route


def _offline(page: Page, base_url: str) -> tuple[list[str], list[str]]:
    """Refuse every request to another host; collect those attempts and the console's errors."""
    own_host = urlsplit(base_url).netloc
    elsewhere: list[str] = []
    errors: list[str] = []

    def only_here(route: Route) -> None:
        if urlsplit(route.request.url).netloc in (own_host, ""):
            route.continue_()
        else:
            elsewhere.append(route.request.url)
            route.abort()

    page.route("**/*", only_here)
    page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    return elsewhere, errors


def test_swagger_ui_renders_the_operations_without_the_internet(
    page: Page, embedded_web: tuple[str, Path]
) -> None:
    base_url, _ = embedded_web
    elsewhere, errors = _offline(page, base_url)
    page.goto(f"{base_url}/docs")
    page.wait_for_selector('.opblock-summary-path[data-path="/v1/analyze"]')
    assert page.locator(".opblock").count() >= 10
    assert elsewhere == [] and errors == [], (elsewhere, errors)


def test_redoc_renders_the_reference_without_the_internet(page: Page, embedded_web: tuple[str, Path]) -> None:
    base_url, _ = embedded_web
    elsewhere, errors = _offline(page, base_url)
    page.goto(f"{base_url}/redoc")
    page.wait_for_selector("h1 >> text=InnoTune")
    page.get_by_text("/v1/analyze").first.wait_for(state="attached")
    # ReDoc's bundle links its maker's logo (footer) from their CDN: the policy keeps the browser
    # from fetching it, which is the point; nothing else may be blocked or fail.
    others = [error for error in errors if "cdn.redoc.ly/redoc/logo-mini.svg" not in error]
    assert elsewhere == [] and others == [], (elsewhere, errors)
