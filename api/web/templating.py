"""The Jinja2 environment of the pages: templates beside this module, filters for sizes and times."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from fastapi import Request
from starlette.responses import HTMLResponse
from starlette.templating import Jinja2Templates

from advisor.units import describe_bytes
from api.web.changes import now_text, plural
from api.web.csrf import CSRF_FIELD, csrf_token, set_csrf_cookie
from conf.settings import get_settings

TEMPLATES_DIR = Path(__file__).parent / "templates"
STATIC_DIR = Path(__file__).parent / "static"
SEVERITIES = ("critical", "warning", "notice", "info")
CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "form-action 'self'; frame-ancestors 'none'; base-uri 'none'"
)


def bytes_text(value: int | None) -> str:
    """`16 GiB` for a byte count; an en dash when unknown."""
    return "–" if value is None else describe_bytes(value)


_SIZE_WORDS = ("size", "capacity", "buffer", "_ram", "_memory", "cache")
MIB = 1024 * 1024


def setting_text(value: str | None, variable: str | None) -> str:
    """A variable's value as the server printed it, with a byte count of a size also in words:
    `134217728 (128 MiB)`."""
    if value is None:
        return "not set"
    if value.isdigit() and int(value) >= MIB and any(word in (variable or "") for word in _SIZE_WORDS):
        return f"{value} ({describe_bytes(int(value))})"
    return value


def moment_text(value: datetime | str | None) -> str:
    """`2026-11-23 19:30:05 UTC` (stored times are UTC; SQLite hands them back without a zone)."""
    if value is None:
        return "–"
    if isinstance(value, str):
        value = datetime.fromisoformat(value)
    aware = value if value.tzinfo is not None else value.replace(tzinfo=UTC)
    return aware.astimezone(UTC).strftime("%Y-%m-%d %H:%M:%S UTC")


templates = Jinja2Templates(directory=TEMPLATES_DIR)
templates.env.filters["bytes"] = bytes_text
templates.env.filters["moment"] = moment_text
templates.env.filters["setting"] = setting_text
templates.env.globals["SEVERITIES"] = SEVERITIES
templates.env.globals["now_text"] = now_text
templates.env.globals["plural"] = plural
templates.env.globals["pairs"] = lambda values: [(value, value) for value in values]


def render(request: Request, name: str, context: dict[str, Any], status_code: int = 200) -> HTMLResponse:
    """Render a page; every page knows whether sign-in applies (not in the embedded default)."""
    page_context = {
        "embedded": get_settings().embedded,
        "csrf_field": CSRF_FIELD,
        "csrf_token": csrf_token(request),
        **context,
    }
    response = templates.TemplateResponse(request, name, page_context, status_code=status_code)
    set_csrf_cookie(request, response)
    # The pages show an organisation's data: never cache them, never frame them; only our own
    # script and style run (the pictures are inline SVG styled by the stylesheet).
    response.headers["Cache-Control"] = "no-store"
    response.headers["Content-Security-Policy"] = CONTENT_SECURITY_POLICY
    response.headers["X-Frame-Options"] = "DENY"
    response.headers["Referrer-Policy"] = "same-origin"
    return response
