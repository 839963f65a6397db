"""Refuse oversized request bodies: from Content-Length before reading, else while streaming."""

from __future__ import annotations

from starlette.exceptions import HTTPException
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
            # Answer without reading a byte of the body.
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


def _content_length(scope: Scope) -> int | None:
    for name, value in scope.get("headers", ()):
        if name == b"content-length":
            try:
                return int(value)
            except ValueError:
                return None
    return None
