"""/v1/audits: submit an audit, follow it (long-polling with ?wait=N), read its diff and my.cnf."""

from __future__ import annotations

import hashlib
import json
from typing import Annotated, Any

from fastapi import APIRouter, Query, Response
from fastapi.responses import PlainTextResponse
from starlette.concurrency import run_in_threadpool

from api.audit_flow import audit_location, is_finished, wait_for_audit
from api.deps import CurrentOrg, DbSession, IdempotencyKey, JsonBody, Pagination, WaitSeconds
from api.problems import Problem
from api.schemas.audits import AuditCreate, AuditRead, RecommendedFiles
from api.schemas.common import AUTHENTICATED, AuditStatus, Page, Severity, problem_responses
from services import audits
from services.audits.files import files_zip
from services.jobs import unit_of_work
from store.models import AuditStatus as AuditState

router = APIRouter(prefix="/v1/audits", tags=["audits"])


def _submit(org_id: str, body: AuditCreate, idempotency_key: str | None) -> str:
    """Queue the audit in a unit of work of its own: committed and sent before the long-poll starts."""
    canonical = json.dumps(body.model_dump(mode="json"), sort_keys=True, separators=(",", ":"))
    with unit_of_work() as session:
        audit, _created = audits.submit_audit(
            session,
            org_id,
            server_id=body.server_id,
            snapshot_id=body.snapshot_id,
            callback_url=str(body.callback_url) if body.callback_url else None,
            idempotency_key=idempotency_key,
            request_hash=hashlib.sha256(canonical.encode()).hexdigest(),
        )
        return audit.id


@router.post(
    "",
    status_code=202,
    response_description="Accepted, not finished yet: follow `Location` (with ?wait=N to long-poll).",
    summary="Submit an audit",
    dependencies=[JsonBody],
    responses={
        200: {"description": "Finished within ?wait.", "model": AuditRead},
        **problem_responses(400, 404, 409, 413, 415, 422, *AUTHENTICATED),
    },
)
async def create_audit(
    body: AuditCreate,
    org: CurrentOrg,
    response: Response,
    idempotency_key: IdempotencyKey = None,
    wait: WaitSeconds = 0,
) -> AuditRead:
    """Queue an audit of a snapshot (the server's latest by default): 202 with `Location`, or 200
    with the finished audit when it completes within `?wait=N` seconds. A retry with the same
    `Idempotency-Key` returns the same audit; the same key with another body is a 409."""
    audit_id = await run_in_threadpool(_submit, org.id, body, idempotency_key)
    view = await wait_for_audit(org.id, audit_id, wait)
    response.headers["Location"] = audit_location(audit_id)
    response.status_code = 200 if is_finished(view) else 202
    return AuditRead.model_validate(view)


@router.get("", summary="List audits", responses=problem_responses(400, 422, *AUTHENTICATED))
def list_audits(
    org: CurrentOrg,
    session: DbSession,
    page: Pagination,
    server_id: Annotated[str | None, Query(description="Only this server's audits.")] = None,
    status: Annotated[AuditStatus | None, Query(description="Only audits in this state.")] = None,
    severity: Annotated[
        Severity | None, Query(description="Only audits whose worst finding is this.")
    ] = None,
) -> Page[AuditRead]:
    """Audits oldest first (`order=newest`: newest first), a page at a time."""
    found = audits.list_audits(
        session,
        org.id,
        server_id=server_id,
        status=status,
        severity=severity,
        cursor=page.cursor,
        limit=page.limit,
        newest=page.newest,
    )
    return Page[AuditRead](
        items=[AuditRead.model_validate(audits.audit_as_dict(audit)) for audit in found.items],
        next_cursor=found.next_cursor,
    )


@router.get("/{audit_id}", summary="Get an audit", responses=problem_responses(404, 422, *AUTHENTICATED))
async def get_audit(audit_id: str, org: CurrentOrg, wait: WaitSeconds = 0) -> AuditRead:
    """Status, timings and findings; `?wait=N` answers as soon as it finishes, or after N seconds."""
    return AuditRead.model_validate(await wait_for_audit(org.id, audit_id, wait))


async def _finished(org_id: str, audit_id: str, wait: float, member: str) -> dict[str, Any]:
    view: dict[str, Any] = await wait_for_audit(org_id, audit_id, wait, with_files=True)
    if view["status"] != AuditState.SUCCEEDED:
        raise Problem(
            409, f"Audit {audit_id} is {view['status']}; its {member} exists once it has succeeded."
        )
    return view


async def _finished_file(org_id: str, audit_id: str, wait: float, member: str) -> str:
    return str((await _finished(org_id, audit_id, wait, member))[member] or "")


FILE_RESPONSES = problem_responses(404, 409, 422, *AUTHENTICATED)


@router.get(
    "/{audit_id}/diff",
    summary="The unified diff of the my.cnf",
    response_class=PlainTextResponse,
    responses={200: {"content": {"text/x-diff": {}}}, **FILE_RESPONSES},
)
async def get_audit_diff(audit_id: str, org: CurrentOrg, wait: WaitSeconds = 0) -> Response:
    """`patch(1)` applies it to the uploaded my.cnf; a 409 problem until the audit has succeeded."""
    return Response(await _finished_file(org.id, audit_id, wait, "diff"), media_type="text/x-diff")


@router.get(
    "/{audit_id}/mycnf",
    summary="The recommended my.cnf",
    response_class=PlainTextResponse,
    responses={200: {"content": {"text/plain": {}}}, **FILE_RESPONSES},
)
async def get_audit_mycnf(audit_id: str, org: CurrentOrg, wait: WaitSeconds = 0) -> Response:
    """The uploaded my.cnf with every recommendation applied; a 409 problem until the audit has succeeded."""
    return PlainTextResponse(await _finished_file(org.id, audit_id, wait, "mycnf"))


@router.get(
    "/{audit_id}/files",
    summary="Every recommended option file, and the drop-in alternative",
    responses=FILE_RESPONSES,
)
async def get_audit_files(audit_id: str, org: CurrentOrg, wait: WaitSeconds = 0) -> RecommendedFiles:
    """Each uploaded option file with its path, recommended text and diff; a 409 until it has succeeded."""
    view = await _finished(org.id, audit_id, wait, "files")
    return RecommendedFiles.model_validate({"files": view["files"] or [], "dropin": view["dropin"]})


@router.get(
    "/{audit_id}/files.zip",
    summary="Every recommended option file as a zip",
    response_class=Response,
    responses={200: {"content": {"application/zip": {}}}, **FILE_RESPONSES},
)
async def get_audit_files_zip(audit_id: str, org: CurrentOrg, wait: WaitSeconds = 0) -> Response:
    """The files under their paths, the combined diff and the drop-in file under `dropin/`."""
    view = await _finished(org.id, audit_id, wait, "files")
    body = files_zip(view["files"] or [], view["dropin"])
    disposition = f'attachment; filename="innotune-{audit_id}.zip"'
    return Response(body, media_type="application/zip", headers={"Content-Disposition": disposition})
