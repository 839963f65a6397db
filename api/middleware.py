"""The outermost layer of every request: its id, the headers every response carries, the access log
and the HTTP metrics.

A pure ASGI middleware (no BaseHTTPMiddleware): it sees the response's status and headers as they
are sent and never buffers a body, so streaming and long-polls are unaffected.
"""

from __future__ import annotations

import logging
import re
import time
import uuid

from starlette.datastructures import MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from api import metrics
from api.problems import problem_response
from conf.logging import request_id_var

REQUEST_ID_HEADER = "X-Request-ID"
#: a caller's own request id is kept when it is this plain; anything else gets one of ours.
_CALLER_REQUEST_ID = re.compile(r"[A-Za-z0-9._:-]{1,64}")
#: for responses that set no policy of their own (JSON, problem documents, downloads): load nothing,
#: run nothing, be framed by nobody. The pages and the API docs set their own, narrower ones.
DEFAULT_CSP = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'"
access_logger = logging.getLogger("innotune.access")


def route_template(scope: Scope) -> str:
    """The matched route's path template (`/v1/audits/{audit_id}`), never the raw path, so that logs
    and metric labels have a bounded set of values; `unmatched` when no route took the request."""
    route = scope.get("route")
    path = getattr(route, "path", None)
    if isinstance(path, str):
        return path or "/"
    root_path = str(scope.get("root_path", ""))
    mount_path = root_path[len(str(scope.get("app_root_path", ""))) :]
    if mount_path:  # a mounted app (static files): its prefix, never the file asked for
        return f"{mount_path}/{{path}}"
    return "unmatched"


def _request_id(scope: Scope) -> str:
    for name, value in scope.get("headers", ()):
        if name == b"x-request-id":
            text = value.decode("latin-1")
            if _CALLER_REQUEST_ID.fullmatch(text):
                return str(text)
            break
    return uuid.uuid4().hex


class RequestContextMiddleware:
    """Request id (X-Request-ID, echoed), nosniff and a default CSP on every response, one JSON access
    log line per request (method, route, status, duration, request id, organisation), HTTP metrics."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        request_id = _request_id(scope)
        token = request_id_var.set(request_id)
        started = time.perf_counter()
        status = 500
        status_sent = False

        async def send_with_headers(message: Message) -> None:
            nonlocal status, status_sent
            if message["type"] == "http.response.start":
                status, status_sent = int(message["status"]), True
                headers = MutableHeaders(scope=message)
                headers[REQUEST_ID_HEADER] = request_id
                headers["X-Content-Type-Options"] = "nosniff"
                if "content-security-policy" not in headers:
                    headers["Content-Security-Policy"] = DEFAULT_CSP
            await send(message)

        try:
            await self.app(scope, receive, send_with_headers)
        except Exception:
            if status_sent:
                raise
            # Answer here rather than in Starlette's outer error middleware, so that this 500 too
            # carries the request id and the headers.
            access_logger.getChild("error").exception("unhandled error", extra={"path": scope.get("path")})
            await problem_response(
                500, "An internal error occurred; it has been logged.", instance=scope.get("path")
            )(scope, receive, send_with_headers)
        finally:
            duration = time.perf_counter() - started
            route = route_template(scope)
            method = str(scope.get("method", ""))
            metrics.observe_request(method, route, status, duration)
            state = scope.get("state") or {}
            access_logger.info(
                "%s %s %d",
                method,
                route,
                status,
                extra={
                    "method": method,
                    "route": route,
                    "status": status,
                    "duration_ms": round(duration * 1000, 3),
                    "organization_id": state.get("organization_id"),
                },
            )
            request_id_var.reset(token)
