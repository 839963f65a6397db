"""The API's documentation pages, /docs (Swagger UI) and /redoc (ReDoc), with their scripts and
styles served from an installed package (fastapi-offline ships both bundles) instead of a CDN: the
pages work on a host without internet access, and their Content-Security-Policy can say `'self'`.

The one inline script of each page (FastAPI's start-up call) is allowed by its SHA-256 hash.
"""

from __future__ import annotations

import base64
import hashlib
import re
from importlib.resources import files
from pathlib import Path

from fastapi import FastAPI
from fastapi.openapi.docs import get_redoc_html, get_swagger_ui_html, get_swagger_ui_oauth2_redirect_html
from fastapi.responses import HTMLResponse
from fastapi.staticfiles import StaticFiles

ASSETS_PATH = "/docs/assets"
_INLINE_SCRIPT = re.compile(r"<script>(.*?)</script>", re.DOTALL)


def assets_directory() -> Path:
    """Where the installed fastapi-offline package keeps swagger-ui-bundle.js, redoc.standalone.js…"""
    return Path(str(files("fastapi_offline") / "static"))


def content_security_policy(html: str) -> str:
    """Our own scripts, plus the page's inline ones by hash; styles inline too (both UIs set them);
    ReDoc runs a web worker from a blob."""
    sources = ["'self'"] + [
        f"'sha256-{base64.b64encode(hashlib.sha256(body.encode()).digest()).decode()}'"
        for body in _INLINE_SCRIPT.findall(html)
    ]
    return (
        f"default-src 'none'; script-src {' '.join(sources)}; style-src 'self' 'unsafe-inline'; "
        "img-src 'self' data:; font-src 'self'; connect-src 'self'; worker-src 'self' blob:; "
        "frame-ancestors 'none'; base-uri 'none'; form-action 'none'"
    )


def _page(html: str) -> HTMLResponse:
    return HTMLResponse(html, headers={"Content-Security-Policy": content_security_policy(html)})


def install_docs(app: FastAPI) -> None:
    """Add /docs, its OAuth2 redirect page, /redoc and the assets (create the app with docs_url=None,
    redoc_url=None)."""
    openapi_url = app.openapi_url or "/openapi.json"
    title = app.title
    oauth2_redirect_url = "/docs/oauth2-redirect"
    swagger_html = bytes(
        get_swagger_ui_html(
            openapi_url=openapi_url,
            title=f"{title} — API",
            swagger_js_url=f"{ASSETS_PATH}/swagger-ui-bundle.js",
            swagger_css_url=f"{ASSETS_PATH}/swagger-ui.css",
            swagger_favicon_url=f"{ASSETS_PATH}/favicon.png",
            oauth2_redirect_url=oauth2_redirect_url,
        ).body
    ).decode()
    redoc_html = bytes(
        get_redoc_html(
            openapi_url=openapi_url,
            title=f"{title} — API",
            redoc_js_url=f"{ASSETS_PATH}/redoc.standalone.js",
            redoc_favicon_url=f"{ASSETS_PATH}/favicon.png",
            with_google_fonts=False,
        ).body
    ).decode()
    redirect_html = bytes(get_swagger_ui_oauth2_redirect_html().body).decode()

    app.mount(ASSETS_PATH, StaticFiles(directory=assets_directory()), name="docs-assets")

    @app.get("/docs", include_in_schema=False)
    def swagger_ui() -> HTMLResponse:
        return _page(swagger_html)

    @app.get(oauth2_redirect_url, include_in_schema=False)
    def swagger_ui_redirect() -> HTMLResponse:
        return _page(redirect_html)

    @app.get("/redoc", include_in_schema=False)
    def redoc() -> HTMLResponse:
        return _page(redoc_html)
