"""The audit form, its progress, and the result page (its downloads are in `downloads`)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, RedirectResponse, Response
from starlette.concurrency import run_in_threadpool

from advisor.model import Profile, Role
from advisor.units import describe_bytes
from api.audit_flow import is_finished, load_audit, wait_for_audit
from api.deps import DbSession
from api.uploads import MAX_BODY_BYTES
from api.web.changes import change_rows, drift_rows, severity_counts, severity_filter
from api.web.charts import buffer_pool_chart, redo_chart
from api.web.filesview import dropin_download_name, files_view
from api.web.forms import SINGLE_INPUTS, AuditForm, read_audit_form
from api.web.option_file_rows import MAX_MYCNF_ENTRIES
from api.web.resultview import apply_sql_script, finding_anchor, group_findings
from api.web.session import FormPost, WebOrg
from api.web.submit import submit_audit_form
from api.web.templating import render
from services.errors import NotFound
from services.pagination import MAX_LIMIT
from services.servers import get_server, list_servers
from services.snapshots import LIMITS
from store.db import unit_of_work
from store.models import AuditStatus

router = APIRouter(prefix="/ui", include_in_schema=False)
STORAGE_KINDS = ("hdd", "ssd", "nvme", "network")
#: how long the result page waits for a running audit before showing the progress page instead.
FIRST_WAIT_SECONDS = 2.0
#: the progress page reloads itself this often without JavaScript (the script polls faster).
REFRESH_SECONDS = 2
#: drift rows shown before the rest fold away (a sandbox file beside a real server differs in dozens).
DRIFT_ROWS_SHOWN = 8


FORM_LIMITS = {
    "file": describe_bytes(LIMITS.max_file_bytes),
    "files": LIMITS.max_files,
    "body": describe_bytes(MAX_BODY_BYTES),
    "file_bytes": LIMITS.max_file_bytes,
    "body_bytes": MAX_BODY_BYTES,
}


class PageNotFound(Exception):
    """Answered with the HTML 404 page (another organisation's row is missing too)."""


def _server_choices(org_id: str) -> list[tuple[str, str]]:
    with unit_of_work() as session:
        page = list_servers(session, org_id, fleet=None, cursor=None, limit=MAX_LIMIT)
        return sorted(((server.id, server.name) for server in page.items), key=lambda pair: pair[1].lower())


def _form_page(
    request: Request, form: AuditForm, servers: list[tuple[str, str]], status_code: int = 200
) -> Response:
    context = {
        "form": form,
        "singles": SINGLE_INPUTS,
        "servers": servers,
        "roles": tuple(Role),
        "profiles": tuple(Profile),
        "storage_kinds": STORAGE_KINDS,
        "max_mycnf": MAX_MYCNF_ENTRIES,
        "limits": FORM_LIMITS,
    }
    return render(request, "form.html", context, status_code=status_code)


@router.get("")
def audit_form(request: Request, org: WebOrg) -> Response:
    """The form: option files, status dumps, InnoDB status, hardware and server facts."""
    form = AuditForm.blank()
    server_id = request.query_params.get("server_id", "")
    form.values["server_id"] = server_id if len(server_id) <= 36 else ""
    return _form_page(request, form, _server_choices(org.id))


@router.post("/audits", dependencies=[FormPost])
async def submit_audit(request: Request, org: WebOrg, session: DbSession) -> Response:
    """Start the audit and go to its page (303); the form comes back with its errors otherwise."""
    form = await read_audit_form(request)
    audit_id = None if form.has_errors else await run_in_threadpool(submit_audit_form, session, org.id, form)
    if audit_id is None:
        servers = await run_in_threadpool(_server_choices, org.id)
        return _form_page(request, form, servers, status_code=422)
    return RedirectResponse(f"/ui/audits/{audit_id}", status_code=303)


def _server_name(org_id: str, server_id: str | None) -> str | None:
    if server_id is None:
        return None
    with unit_of_work() as session:
        try:
            return get_server(session, org_id, server_id).name
        except NotFound:
            return None


def _result_context(view: dict[str, Any], severity: str | None) -> dict[str, Any]:
    findings = view.get("findings") or []
    figures = view.get("figures") or {}
    return {
        "severity": severity,
        "severity_counts": severity_counts(findings),
        "change_rows": change_rows(findings, severity, view.get("drift") or []),
        "drift_rows": drift_rows(view.get("drift") or [], findings),
        "drift": view.get("drift") or [],
        "drift_shown": DRIFT_ROWS_SHOWN,
        "groups": group_findings(findings),
        "findings_count": len(findings),
        "anchor": finding_anchor,
        "files": files_view(view, findings),
        "dropin": view.get("dropin"),
        "dropin_name": dropin_download_name(view.get("dropin")),
        "apply_sql": apply_sql_script(findings),
        "restart_needed": any(f.get("restart_required") and f.get("recommended") for f in findings),
        "pool_chart": buffer_pool_chart(figures),
        "redo_chart": redo_chart(figures),
        "figures": figures,
    }


@router.get("/audits/{audit_id}")
async def audit_page(request: Request, audit_id: str, org: WebOrg) -> Response:
    """The result (findings, pictures, diff, downloads) — or, while it runs, a page that refreshes."""
    try:
        view = await wait_for_audit(org.id, audit_id, FIRST_WAIT_SECONDS, with_files=True)
    except NotFound:
        raise PageNotFound() from None
    server_name = await run_in_threadpool(_server_name, org.id, view.get("server_id"))
    context: dict[str, Any] = {"audit": view, "server_name": server_name}
    if not is_finished(view):
        return render(request, "waiting.html", {**context, "refresh_seconds": REFRESH_SECONDS})
    if view["status"] == AuditStatus.SUCCEEDED:
        context.update(_result_context(view, severity_filter(request.query_params.get("severity"))))
    return render(request, "result.html", context)


@router.get("/audits/{audit_id}/status")
def audit_status(audit_id: str, org: WebOrg) -> JSONResponse:
    """The audit's status, for the progress page's script."""
    try:
        view = load_audit(org.id, audit_id)
    except NotFound:
        raise PageNotFound() from None
    return JSONResponse({"status": view["status"]}, headers={"Cache-Control": "no-store"})
