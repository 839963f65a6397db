"""The organisation's servers, one server's audits over time, and what changed between two audits."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query, Request
from fastapi.responses import Response

from api.web.audit_pages import PageNotFound
from api.web.charts import history_chart
from api.web.resultview import diff_view
from api.web.session import WebOrg
from api.web.templating import render
from services.errors import NotFound
from services.history import compare_audits, server_history, servers_overview, severity_counts
from store.db import unit_of_work
from store.models import AuditStatus

router = APIRouter(prefix="/ui/servers", include_in_schema=False)
AuditId = Annotated[str | None, Query(max_length=36)]


@router.get("")
def servers_page(request: Request, org: WebOrg) -> Response:
    """Every server with the worst severity of its latest audit."""
    with unit_of_work() as session:
        overview, truncated = servers_overview(session, org.id)
    return render(request, "servers.html", {"overview": overview, "truncated": truncated})


@router.get("/{server_id}")
def server_page(request: Request, server_id: str, org: WebOrg) -> Response:
    """The server's facts, its audits newest first with a picture of them over time, and a compare form."""
    with unit_of_work() as session:
        try:
            server, audits = server_history(session, org.id, server_id)
        except NotFound:
            raise PageNotFound() from None
        rows = [(audit, severity_counts(audit.findings)) for audit in audits]
    succeeded = [audit for audit, _ in rows if audit.status == AuditStatus.SUCCEEDED]
    context = {
        "server": server,
        "rows": rows,
        "chart": history_chart(
            [
                (audit.created_at, counts)
                for audit, counts in reversed(rows)
                if audit.status == AuditStatus.SUCCEEDED
            ]
        ),
        "default_older": succeeded[1].id if len(succeeded) > 1 else None,
        "default_newer": succeeded[0].id if succeeded else None,
        "succeeded": succeeded,
    }
    return render(request, "server.html", context)


@router.get("/{server_id}/compare")
def compare_page(
    request: Request, server_id: str, org: WebOrg, a: AuditId = None, b: AuditId = None
) -> Response:
    """What changed between two audits of the server: findings, option files and live variables."""
    if not a or not b:
        raise PageNotFound()
    with unit_of_work() as session:
        try:
            comparison = compare_audits(session, org.id, server_id, a, b)
        except NotFound:
            raise PageNotFound() from None
    context = {
        "comparison": comparison,
        "files_diff": diff_view(comparison.option_files_diff, []),
        "older_counts": severity_counts(comparison.older.findings),
        "newer_counts": severity_counts(comparison.newer.findings),
    }
    return render(request, "compare.html", context)
