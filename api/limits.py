"""Refuse oversized request bodies: from Content-Length before reading, else while streaming."""

from __future__ import annotations

from starlette.exceptions import HTTPException
from starlette.responses import HTMLResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from api.problems import problem_response

MIB = 1024 * 1024


class BodyTooLarge(HTTPException):
    """Raised from `receive` when a body without a (truthful) Content-Length runs over the limit."""

    def __init__(self, max_body_bytes: int) -> None:
        super().__init__(413, f"The request body is larger than {max_body_bytes} bytes.")


class BodySizeLimitMiddleware:
    """Pure ASGI middleware: a 413 problem for any body above `max_body_bytes`."""

    def __init__(self, app: ASGIApp, max_body_bytes: int) -> None:
        self.app = app
        self.max_body_bytes = max_body_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = _content_length(scope)
        if declared is not None and declared > self.max_body_bytes:
            # Answer without reading a byte of the body; the pages get a page, not problem+json.
            if str(scope.get("path", "")).startswith("/ui/"):
                await _form_too_large(declared, self.max_body_bytes)(scope, receive, send)
                return
            response = problem_response(
                413,
                f"The request body ({declared} bytes) is larger than {self.max_body_bytes} bytes.",
                instance=scope.get("path"),
                headers={"Connection": "close"},
            )
            await response(scope, receive, send)
            return
        received_bytes = 0

        async def limited_receive() -> Message:
            nonlocal received_bytes
            message = await receive()
            if message["type"] == "http.request":
                received_bytes += len(message.get("body", b""))
                if received_bytes > self.max_body_bytes:
                    raise BodyTooLarge(self.max_body_bytes)
            return message

        await self.app(scope, limited_receive, send)


def _form_too_large(declared: int, limit: int) -> HTMLResponse:
    """The audit form sent more than the limit: say so in a page that takes the user back to the form
    (the browser's back keeps what was typed; the form states its limits, and its script checks them)."""
    body = (
        '<!doctype html><html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        "<title>Error: the form is too large · InnoTune</title>"
        '<link rel="stylesheet" href="/ui/static/ui.css"></head><body><main id="main">'
        '<div class="error-summary" role="alert"><h1>The form is too large</h1>'
        f"<p>The files sent come to {declared / MIB:.1f} MiB; the form takes at most {limit / MIB:.1f} MiB "
        "(each file at most the size the form states). Nothing was stored.</p>"
        '<p><a href="javascript:history.back()">Go back to the form</a> (what you typed is still there) '
        'and leave out the largest file, or <a href="/ui">start again</a>.</p></div></main></body></html>'
    )
    return HTMLResponse(body, status_code=413, headers={"Connection": "close", "Cache-Control": "no-store"})


def _content_length(scope: Scope) -> int | None:
    for name, value in scope.get("headers", ()):
        if name == b"content-length":
            try:
                return int(value)
            except ValueError:
                return None
    return None
