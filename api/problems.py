"""RFC 9457 problem+json for every error the API returns — never a traceback."""

from __future__ import annotations

import logging
from http import HTTPStatus
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

PROBLEM_JSON = "application/problem+json"
logger = logging.getLogger(__name__)


class Problem(Exception):
    """Raise to answer with a problem document."""

    def __init__(self, status: int, detail: str, *, title: str | None = None, **extra: Any) -> None:
        super().__init__(detail)
        self.status = status
        self.detail = detail
        self.title = title or HTTPStatus(status).phrase
        self.extra = extra


def problem_response(
    status: int, detail: str, *, title: str | None = None, instance: str | None = None, **extra: Any
) -> JSONResponse:
    """Build the response body: type, title, status, detail, instance and any extension members."""
    body: dict[str, Any] = {
        "type": f"https://innotune.dev/problems/{status}",
        "title": title or HTTPStatus(status).phrase,
        "status": status,
        "detail": detail,
    }
    if instance:
        body["instance"] = instance
    body.update(extra)
    return JSONResponse(body, status_code=status, media_type=PROBLEM_JSON)


def install_problem_handlers(app: FastAPI) -> None:
    """Turn every exception the app can meet into problem+json."""

    @app.exception_handler(Problem)
    async def _problem(request: Request, exc: Problem) -> JSONResponse:
        return problem_response(
            exc.status, exc.detail, title=exc.title, instance=request.url.path, **exc.extra
        )

    @app.exception_handler(StarletteHTTPException)
    async def _http(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        detail = exc.detail if isinstance(exc.detail, str) else HTTPStatus(exc.status_code).phrase
        response = problem_response(exc.status_code, detail, instance=request.url.path)
        if exc.headers:
            response.headers.update(exc.headers)
        return response

    @app.exception_handler(RequestValidationError)
    async def _validation(request: Request, exc: RequestValidationError) -> JSONResponse:
        errors = [
            {"location": ".".join(str(part) for part in err.get("loc", ())), "message": err.get("msg", "")}
            for err in exc.errors()
        ]
        detail = "; ".join(f"{e['location']}: {e['message']}" for e in errors) or "invalid request"
        return problem_response(422, detail, instance=request.url.path, errors=errors)

    @app.exception_handler(Exception)
    async def _unexpected(request: Request, exc: Exception) -> JSONResponse:
        logger.exception("unhandled error", extra={"path": request.url.path})
        return problem_response(
            500, "An internal error occurred; it has been logged.", instance=request.url.path
        )
