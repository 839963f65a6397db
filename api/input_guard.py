"""Checks every request passes before a route sees it, cheapest first:

1. the URL: a NUL byte or bytes that are not UTF-8 in the path or the query string are a 400;
2. a `/v1` request with a body must carry a valid API key *before* a byte of the body is read
   (401 with `Connection: close`), so an anonymous caller cannot make the API buffer or parse
   megabytes;
3. a JSON body is capped per route (`json_limit`: the uploads take files, everything else is small)
   — by its Content-Length before reading, else while reading — and, for the small bodies, parsed
   once here to refuse nesting deeper than `MAX_JSON_DEPTH`, strings with NUL or lone surrogates
   (PostgreSQL stores neither), and numbers no 64-bit field holds: 422 naming where in the body.

The upload routes' JSON is validated by pydantic's own parser, which refuses lone surrogates and
deep nesting itself; their file texts are checked by services.snapshots.check_limits.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterator
from typing import Any
from urllib.parse import unquote_to_bytes

from sqlalchemy.exc import InterfaceError, OperationalError
from sqlalchemy.exc import TimeoutError as PoolTimeoutError
from starlette.concurrency import run_in_threadpool
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from api.problems import BEARER_CHALLENGE, DATABASE_RETRY_AFTER_SECONDS, problem_response
from api.uploads import MAX_BODY_BYTES
from services.orgs import organization_for_key
from store.db import unit_of_work

KIB = 1024
#: JSON bodies of everything but uploads: a server, a fleet, an audit request — a few KiB at most.
SMALL_JSON_BYTES = 256 * KIB
MAX_JSON_DEPTH = 32
#: the largest integer any field means (64-bit signed): beyond it is a typo or an attack.
MAX_JSON_INTEGER = 2**63 - 1
_UPLOAD_ROUTES = re.compile(r"^/v1/(analyze|servers/[^/]+/snapshots)/?$")
_BODY_METHODS = frozenset({"POST", "PUT", "PATCH"})


class BadJson(ValueError):
    """Why a JSON body is refused, and where (`body.labels.env`)."""

    def __init__(self, status: int, detail: str, location: str = "body") -> None:
        super().__init__(detail)
        self.status, self.detail, self.location = status, detail, location


#: uploads as JSON: a DBA's files fit many times over; the full 16 files at their limit go multipart
#: (streamed part by part, never one 33 MB document to parse).
UPLOAD_JSON_BYTES = 8 * 1024 * KIB


def json_limit(path: str) -> int:
    """The largest JSON body this route takes."""
    return UPLOAD_JSON_BYTES if _UPLOAD_ROUTES.match(path) else SMALL_JSON_BYTES


def url_problem(scope: Scope) -> str | None:
    """Why the URL is refused: NUL bytes or non-UTF-8 bytes, in the path or the query."""
    raw_path = scope.get("raw_path") or scope.get("path", "").encode("utf-8", "surrogateescape")
    for part, raw in (("path", raw_path), ("query string", scope.get("query_string", b""))):
        decoded = unquote_to_bytes(raw.replace(b"+", b" ") if part == "query string" else raw)
        if b"\x00" in decoded:
            return f"The {part} holds a NUL byte."
        try:
            decoded.decode("utf-8")
        except UnicodeDecodeError:
            return f"The {part} holds bytes that are not UTF-8."
    return None


def _header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope.get("headers", ()):
        if key == name:
            return str(value.decode("latin-1"))
    return None


def _is_json(scope: Scope) -> bool:
    kind = (_header(scope, b"content-type") or "").split(";", 1)[0].strip().lower()
    return kind == "application/json" or (kind.startswith("application/") and kind.endswith("+json"))


def _bearer_key(scope: Scope) -> str | None:
    scheme, _, key = (_header(scope, b"authorization") or "").partition(" ")
    return key.strip() or None if scheme.lower() == "bearer" else None


def _key_is_valid(key: str) -> bool:
    with unit_of_work() as session:
        return organization_for_key(session, key) is not None


def _walk(value: Any, location: str, depth: int) -> Iterator[tuple[Any, str, int]]:
    """Every value of the document with its location and depth (iteratively deep enough)."""
    stack = [(value, location, depth)]
    while stack:
        item, where, level = stack.pop()
        yield item, where, level
        if isinstance(item, dict):
            stack.extend((child, f"{where}.{key}", level + 1) for key, child in item.items())
            stack.extend((key, f"{where} (a key)", level + 1) for key in item)
        elif isinstance(item, list):
            stack.extend((child, f"{where}[{index}]", level + 1) for index, child in enumerate(item))


def _string_problem(text: str) -> str | None:
    if "\x00" in text:
        return "holds a NUL character"
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return "holds a lone surrogate (not a Unicode character)"
    return None


def check_json_document(body: bytes) -> None:
    """Raise BadJson for a document we refuse; a body that is not JSON at all is left to the route
    (which answers 400 as it always has)."""
    try:
        document = json.loads(body)
    except RecursionError:
        raise BadJson(400, f"The JSON body is nested deeper than {MAX_JSON_DEPTH} levels.") from None
    except ValueError as exc:
        if "Exceeds the limit" in str(exc):  # int() digit limit: a number thousands of digits long
            raise BadJson(422, "The JSON body holds a number far beyond any field's range.") from None
        return
    for item, where, depth in _walk(document, "body", 0):
        if depth > MAX_JSON_DEPTH:
            raise BadJson(400, f"The JSON body is nested deeper than {MAX_JSON_DEPTH} levels.")
        if isinstance(item, str):
            problem = _string_problem(item)
            if problem is not None:
                raise BadJson(422, f"{where}: the text {problem}.", where)
        elif isinstance(item, bool):
            continue
        elif isinstance(item, int) and abs(item) > MAX_JSON_INTEGER:
            raise BadJson(422, f"{where}: {str(item)[:24]}… is beyond any field's range (64 bits).", where)
        elif isinstance(item, float) and not math.isfinite(item):
            raise BadJson(422, f"{where}: the number is beyond any field's range.", where)


class InputGuardMiddleware:
    """Pure ASGI: refuses before routing, reads a JSON body at most once and replays it."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        path = str(scope.get("path", ""))
        problem = url_problem(scope)
        if problem is not None:
            await problem_response(400, problem, instance=None)(scope, receive, send)
            return
        has_body = scope.get("method") in _BODY_METHODS
        if has_body:  # a declared size over the cap: no need to ask who sends it
            cap = json_limit(path) if _is_json(scope) else MAX_BODY_BYTES
            declared = _header(scope, b"content-length")
            if declared is not None and declared.isdigit() and int(declared) > cap:
                await self._too_large(scope, receive, send, f"{declared} bytes")
                return
        try:
            authenticated = await self._authenticated(scope) if has_body and path.startswith("/v1/") else True
        except (OperationalError, InterfaceError, PoolTimeoutError):
            await problem_response(
                503,
                "The database is unavailable; retry shortly.",
                instance=path,
                headers={"Retry-After": str(DATABASE_RETRY_AFTER_SECONDS)},
            )(scope, receive, send)
            return
        if not authenticated:
            key = _bearer_key(scope)
            detail = (
                "The API key is unknown or revoked."
                if key
                else "Send an API key as `Authorization: Bearer <key>`."
            )
            response = problem_response(
                401, detail, instance=path, headers={**BEARER_CHALLENGE, "Connection": "close"}
            )
            await response(scope, receive, send)
            return
        if not (has_body and _is_json(scope)):
            await self.app(scope, receive, send)
            return
        limit = json_limit(path)
        body = bytearray()
        while True:
            message = await receive()
            if message["type"] != "http.request":  # the client left before sending it all
                return
            body += message.get("body", b"")
            if len(body) > limit:
                await self._too_large(scope, receive, send, f"more than {limit} bytes")
                return
            if not message.get("more_body", False):
                break
        if limit == SMALL_JSON_BYTES:
            try:
                check_json_document(bytes(body))
            except BadJson as exc:
                extra: dict[str, Any] = {"errors": [{"location": exc.location, "message": exc.detail}]}
                await problem_response(exc.status, exc.detail, instance=path, **extra)(scope, receive, send)
                return
        await self.app(scope, _replay(bytes(body), receive), send)

    @staticmethod
    async def _authenticated(scope: Scope) -> bool:
        key = _bearer_key(scope)
        return key is not None and await run_in_threadpool(_key_is_valid, key)

    @staticmethod
    async def _too_large(scope: Scope, receive: Receive, send: Send, size: str) -> None:
        json_body = _is_json(scope)
        limit = json_limit(str(scope.get("path", ""))) if json_body else MAX_BODY_BYTES
        kind = "JSON body" if json_body else "request body"
        detail = f"The {kind} ({size}) is larger than this route takes ({limit} bytes)."
        response = problem_response(413, detail, instance=scope.get("path"), headers={"Connection": "close"})
        await response(scope, receive, send)


def _replay(body: bytes, receive: Receive) -> Receive:
    """A `receive` that hands the app the body already read, then listens to the client again (a
    long-poll learns of a disconnect as before)."""
    sent = False

    async def replay() -> Message:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return replay
