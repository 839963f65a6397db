"""RFC 9457 problem+json for every error the API returns — never a traceback.

Services raise domain errors (services/errors.py); this module is where they become HTTP statuses.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from http import HTTPStatus
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from sqlalchemy.exc import IntegrityError, InterfaceError, OperationalError
from sqlalchemy.exc import TimeoutError as PoolTimeoutError
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.routing import Match

from advisor.redact_inputs import redact_message
from services.errors import Conflict, InvalidInput, NotFound, ServiceError, TooLarge, Unauthorized

PROBLEM_JSON = "application/problem+json"
HTTP_METHODS = ("DELETE", "GET", "HEAD", "OPTIONS", "PATCH", "POST", "PUT")
BEARER_CHALLENGE = {"WWW-Authenticate": "Bearer"}
#: how long a client should wait before retrying while the database is unreachable.
DATABASE_RETRY_AFTER_SECONDS = 5
logger = logging.getLogger(__name__)

SERVICE_ERROR_STATUS: dict[type[ServiceError], int] = {
    NotFound: 404,
    Conflict: 409,
    TooLarge: 413,
    InvalidInput: 422,
    Unauthorized: 401,
}


class Problem(Exception):
    """Raise to answer with a problem document (extension members as keyword arguments)."""

    def __init__(
        self,
        status: int,
        detail: str,
        *,
        title: str | None = None,
        headers: Mapping[str, str] | None = None,
        **extra: Any,
    ) -> None:
        super().__init__(detail)
        self.status = status
        self.detail = detail
        self.title = title or HTTPStatus(status).phrase
        self.headers = dict(headers or {})
        self.extra = extra


def problem_response(
    status: int,
    detail: str,
    *,
    title: str | None = None,
    instance: str | None = None,
    headers: Mapping[str, str] | None = None,
    **extra: Any,
) -> JSONResponse:
    """Build the response body: type, title, status, detail, instance and any extension members."""
    body: dict[str, Any] = {
        "type": f"https://innotune.dev/problems/{status}",
        "title": title or HTTPStatus(status).phrase,
        "status": status,
        "detail": redact_message(detail),  # a detail may quote a line of an upload
    }
    if instance:
        body["instance"] = instance
    body.update(extra)
    return JSONResponse(
        _printable(body), status_code=status, media_type=PROBLEM_JSON, headers=dict(headers or {})
    )


def _printable(value: Any) -> Any:
    """Echoed input may hold what UTF-8 cannot encode (a lone surrogate) or NUL: replace them, so
    that explaining a bad request never fails in its turn."""
    if isinstance(value, str):
        return value.encode("utf-8", "replace").decode("utf-8").replace("\x00", "\ufffd")
    if isinstance(value, dict):
        return {_printable(key): _printable(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [_printable(item) for item in value]
    return value


def service_error_status(exc: ServiceError) -> int:
    """The HTTP status of a domain error (the most specific class in the table wins)."""
    for cls in type(exc).__mro__:
        if cls in SERVICE_ERROR_STATUS:
            return SERVICE_ERROR_STATUS[cls]
    return 400


def _service_error_response(request: Request, exc: ServiceError) -> JSONResponse:
    status = service_error_status(exc)
    extra: dict[str, Any] = {}
    headers: dict[str, str] = {}
    if isinstance(exc, InvalidInput):
        extra = {"file": exc.file, "line": exc.line}
    if status == 401:
        headers = BEARER_CHALLENGE
    return problem_response(status, exc.detail, instance=request.url.path, headers=headers, **extra)


#: what pydantic puts before a validator's own message.
_FRAMEWORK_PREFIXES = ("Value error, ", "Assertion failed, ")
_LOCATION_KINDS = frozenset({"body", "query", "path", "header", "cookie"})


def validation_message(error: Mapping[str, Any]) -> str:
    """A validation message as our own words: no `Value error, ` prefix."""
    message = str(error.get("msg", ""))
    for prefix in _FRAMEWORK_PREFIXES:
        message = message.removeprefix(prefix)
    return message


def validation_field(error: Mapping[str, Any]) -> str:
    """The field an error is about (`memory`, `hardware.cpus`), without `body`/`query` before it."""
    parts = [str(part) for part in error.get("loc", ())]
    if len(parts) > 1 and parts[0] in _LOCATION_KINDS:
        parts = parts[1:]
    return ".".join(parts) or "request"


def _validation_response(request: Request, exc: RequestValidationError) -> JSONResponse:
    errors = [
        {
            "location": ".".join(str(part) for part in err.get("loc", ())),
            "field": validation_field(err),
            "message": validation_message(err),
        }
        for err in exc.errors()
    ]
    if any(err.get("type") == "json_invalid" for err in exc.errors()):
        # A body that does not parse is a malformed request, not a semantic error.
        return problem_response(400, "The request body is not valid JSON.", instance=request.url.path)
    detail = "; ".join(f"{e['field']}: {e['message']}" for e in errors) or "invalid request"
    return problem_response(422, detail, instance=request.url.path, errors=errors)


def _allowed_methods(request: Request) -> str:
    """Every method some route answers on this path (Starlette's own Allow names one route's only)."""
    allowed = [
        method
        for method in HTTP_METHODS
        if any(
            route.matches({**request.scope, "method": method})[0] is Match.FULL
            for route in request.app.router.routes
        )
    ]
    return ", ".join(allowed)


def install_problem_handlers(app: FastAPI) -> None:
    """Turn every exception the app can meet into problem+json."""

    @app.exception_handler(Problem)
    async def _problem(request: Request, exc: Problem) -> JSONResponse:
        return problem_response(
            exc.status,
            exc.detail,
            title=exc.title,
            instance=request.url.path,
            headers=exc.headers,
            **exc.extra,
        )

    @app.exception_handler(ServiceError)
    async def _service(request: Request, exc: ServiceError) -> JSONResponse:
        return _service_error_response(request, exc)

    @app.exception_handler(StarletteHTTPException)
    async def _http(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        detail = exc.detail if isinstance(exc.detail, str) else HTTPStatus(exc.status_code).phrase
        headers = dict(exc.headers or {})
        if exc.status_code == 405:
            headers["Allow"] = _allowed_methods(request) or headers.get("Allow", "")
        return problem_response(exc.status_code, detail, instance=request.url.path, headers=headers)

    @app.exception_handler(RequestValidationError)
    async def _validation(request: Request, exc: RequestValidationError) -> JSONResponse:
        return _validation_response(request, exc)

    @app.exception_handler(IntegrityError)
    async def _integrity(request: Request, exc: IntegrityError) -> JSONResponse:
        # A concurrent request won the race for a unique value between our check and our commit.
        logger.warning("integrity error", extra={"path": request.url.path, "error": type(exc.orig).__name__})
        return problem_response(
            409, "The request conflicts with the current state of a resource.", instance=request.url.path
        )

    async def _database_down(request: Request, exc: Exception) -> JSONResponse:
        logger.error("database unavailable", extra={"path": request.url.path, "error": type(exc).__name__})
        return problem_response(
            503,
            "The database is unavailable; retry shortly.",
            title="Service Unavailable",
            instance=request.url.path,
            headers={"Retry-After": str(DATABASE_RETRY_AFTER_SECONDS)},
        )

    for database_error in (OperationalError, InterfaceError, PoolTimeoutError):
        app.add_exception_handler(database_error, _database_down)

    @app.exception_handler(Exception)
    async def _unexpected(request: Request, exc: Exception) -> JSONResponse:
        logger.exception("unhandled error", extra={"path": request.url.path})
        return problem_response(
            500, "An internal error occurred; it has been logged.", instance=request.url.path
        )
