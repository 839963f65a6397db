"""/v1/analyze: a one-shot audit of uploaded inputs, without a stored server."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request, Response
from starlette.concurrency import run_in_threadpool

from api.audit_flow import audit_location, is_finished, wait_for_audit
from api.deps import CurrentOrg, IdempotencyKey, WaitSeconds
from api.routers.snapshots import SNAPSHOT_REQUEST_BODY
from api.schemas.analyze import AnalyzeCreate, AnalyzeParameters
from api.schemas.audits import AuditWithFiles
from api.schemas.common import AUTHENTICATED, problem_responses
from api.uploads import read_upload, request_hash, upload_slot, validate_fields
from services import audits
from services.jobs import unit_of_work
from services.snapshots import SnapshotUpload

router = APIRouter(prefix="/v1/analyze", tags=["analyze"])

_PARAMETER_FIELDS = frozenset(AnalyzeParameters.model_fields)


def _form_schema() -> dict[str, Any]:
    """The multipart body: the snapshot's files plus the server facts as plain form fields."""
    snapshot_form = SNAPSHOT_REQUEST_BODY["requestBody"]["content"]["multipart/form-data"]["schema"]
    parameters = AnalyzeParameters.model_json_schema()["properties"]
    return {"type": "object", "properties": {**snapshot_form["properties"], **parameters}}


ANALYZE_REQUEST_BODY: dict[str, Any] = {
    "requestBody": {
        "required": True,
        "content": {
            "application/json": {"schema": AnalyzeCreate.model_json_schema(by_alias=True)},
            "multipart/form-data": {"schema": _form_schema()},
        },
    }
}


def _analyze(
    org_id: str,
    upload: SnapshotUpload,
    parameters: AnalyzeParameters,
    idempotency_key: str | None,
) -> str:
    callback_url = str(parameters.callback_url) if parameters.callback_url else None
    service_parameters = parameters.service_parameters()
    with unit_of_work() as session:  # committed and sent before the long-poll starts
        audit, _created = audits.analyze(
            session,
            org_id,
            upload,
            service_parameters,
            callback_url=callback_url,
            idempotency_key=idempotency_key,
            request_hash=request_hash(upload, parameters=service_parameters, callback_url=callback_url),
        )
        return audit.id


@router.post(
    "",
    status_code=202,
    response_description="Accepted, not finished yet: follow `Location` (with ?wait=N to long-poll).",
    summary="Audit uploaded inputs in one call",
    openapi_extra=ANALYZE_REQUEST_BODY,
    responses={
        200: {"description": "Finished within ?wait.", "model": AuditWithFiles},
        **problem_responses(400, 409, 413, 415, 422, *AUTHENTICATED),
    },
)
async def analyze(
    request: Request,
    org: CurrentOrg,
    response: Response,
    idempotency_key: IdempotencyKey = None,
    wait: WaitSeconds = 0,
) -> AuditWithFiles:
    """Take a snapshot's inputs plus the server facts (`server_version`, `role`, `profile`, `memory`,
    `memory_limit`, `cpus`, `storage`) and audit them. With `?wait=N` the answer is the audit itself
    — status, findings, diff and my.cnf — once done (200) or when N runs out (202 + `Location`)."""
    async with upload_slot():  # its texts are dropped before the long-poll
        body = await read_upload(request, AnalyzeCreate, _PARAMETER_FIELDS)
        parameters = validate_fields(AnalyzeParameters, body.fields)
        audit_id = await run_in_threadpool(_analyze, org.id, body.upload, parameters, idempotency_key)
        del body
    view = await wait_for_audit(org.id, audit_id, wait, with_files=True)
    response.headers["Location"] = audit_location(audit_id)
    response.status_code = 200 if is_finished(view) else 202
    return AuditWithFiles.model_validate(view)
