"""The fleets list (schedule, last run and its progress) and the fleet page: a fleet's latest re-audit
in progress (N of M done, failures) and its summary.

While a run is unfinished the page refreshes itself every few seconds (a meta refresh: no script
needed); the JSON API serves the same figures at /v1/fleets/{id}/summary.
"""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import Response

from api.web.audit_pages import PageNotFound
from api.web.session import WebOrg
from api.web.templating import render
from services.errors import NotFound
from services.fleets import fleet_summary, get_fleet, latest_run_progress, list_fleets
from services.pagination import MAX_LIMIT
from store.db import unit_of_work

router = APIRouter(prefix="/ui/fleets", include_in_schema=False)
REFRESH_SECONDS = 3


@router.get("")
def fleets_page(request: Request, org: WebOrg) -> Response:
    """Every fleet with its schedule, its next re-audit and its latest run's progress."""
    with unit_of_work() as session:
        page = list_fleets(session, org.id, cursor=None, limit=MAX_LIMIT)
        rows = [(fleet, latest_run_progress(session, fleet.id)) for fleet in page.items]
    context = {"rows": rows, "truncated": page.next_cursor is not None, "nav": "fleets"}
    return render(request, "fleets.html", context)


@router.get("/{fleet_id}")
def fleet_page(request: Request, fleet_id: str, org: WebOrg) -> Response:
    """The fleet's schedule, its latest run's progress and its summary."""
    with unit_of_work() as session:
        try:
            fleet = get_fleet(session, org.id, fleet_id)
            summary = fleet_summary(session, org.id, fleet_id)
        except NotFound:
            raise PageNotFound() from None
    run = summary["latest_run"]
    context = {
        "fleet": fleet,
        "summary": summary,
        "run": run,
        "refresh_seconds": REFRESH_SECONDS if run is not None and not run["finished"] else None,
        "states": ("critical", "warning", "notice", "info", "clean", "failed", "unaudited"),
        "nav": "fleets",
    }
    return render(request, "fleet.html", context)
