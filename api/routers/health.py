"""Liveness and readiness probes."""

from __future__ import annotations

from fastapi import APIRouter

from api.problems import Problem
from services.readiness import check_readiness

router = APIRouter(tags=["health"])


@router.get("/healthz", summary="The process is up")
def healthz() -> dict[str, str]:
    """Answer 200 whenever the process can serve a request."""
    return {"status": "ok"}


@router.get(
    "/readyz",
    summary="The database and the broker are reachable",
    responses={503: {"description": "A dependency is unreachable (problem+json)"}},
)
def readyz() -> dict[str, object]:
    """Answer 200 when the database and the broker answer, else 503 naming the one that did not."""
    report = check_readiness()
    if not report.ready:
        raise Problem(503, report.describe(), title="Not ready", checks=report.checks)
    return {"status": "ready", "checks": report.checks}
