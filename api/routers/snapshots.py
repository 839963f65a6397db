"""/v1/servers/{server_id}/snapshots: what was uploaded about a server, validated and redacted."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request, Response
from sqlalchemy.orm import Session
from starlette.concurrency import run_in_threadpool

from api.deps import CurrentOrg, DbSession, Pagination
from api.problems import Problem
from api.schemas.common import AUTHENTICATED, Page, problem_responses
from api.schemas.snapshots import (
    DetectedRole,
    ServerSnapshotCreate,
    SnapshotCreate,
    SnapshotDetail,
    SnapshotRead,
)
from api.uploads import read_upload, upload_slot, validate_fields
from services import snapshots
from services.snapshots import SnapshotUpload

router = APIRouter(prefix="/v1/servers/{server_id}/snapshots", tags=["snapshots"])


def _binary(description: str) -> dict[str, Any]:
    return {"type": "string", "format": "binary", "description": description}


SNAPSHOT_REQUEST_BODY: dict[str, Any] = {
    "requestBody": {
        "required": True,
        "content": {
            "application/json": {"schema": SnapshotCreate.model_json_schema(by_alias=True)},
            "multipart/form-data": {
                "schema": {
                    "type": "object",
                    "properties": {
                        "mycnf": {
                            "type": "array",
                            "items": _binary("An option file; its filename is its path."),
                        },
                        "variables": _binary("SHOW GLOBAL VARIABLES."),
                        "status": {
                            "type": "array",
                            "maxItems": 2,
                            "items": _binary("SHOW GLOBAL STATUS, oldest first."),
                        },
                        "innodb_status": _binary("SHOW ENGINE INNODB STATUS."),
                        "schema": _binary("Schema facts."),
                        "hardware": _binary("Hardware spec (JSON)."),
                        "persisted": _binary(
                            "MySQL 8.0+: performance_schema.persisted_variables, or mysqld-auto.cnf."
                        ),
                    },
                }
            },
        },
    }
}


def _server_snapshot_body() -> dict[str, Any]:
    """A server's snapshot also takes the role the collector detected (JSON members, form fields)."""
    form = SNAPSHOT_REQUEST_BODY["requestBody"]["content"]["multipart/form-data"]["schema"]
    role_fields = DetectedRole.model_json_schema()["properties"]
    content = {
        "application/json": {"schema": ServerSnapshotCreate.model_json_schema(by_alias=True)},
        "multipart/form-data": {
            "schema": {"type": "object", "properties": {**form["properties"], **role_fields}}
        },
    }
    return {"requestBody": {"required": True, "content": content}}


_ROLE_FIELDS = frozenset(DetectedRole.model_fields)


def _ingest(session: Session, org_id: str, server_id: str, upload: SnapshotUpload) -> SnapshotRead:
    return SnapshotRead.from_snapshot(snapshots.ingest_snapshot(session, org_id, server_id, upload))


@router.post(
    "",
    status_code=201,
    summary="Upload a snapshot",
    openapi_extra=_server_snapshot_body(),
    responses=problem_responses(400, 404, 413, 415, 422, *AUTHENTICATED),
)
async def create_snapshot(
    server_id: str, request: Request, org: CurrentOrg, session: DbSession, response: Response
) -> SnapshotRead:
    """Validate the inputs with the advisor's parsers (422 naming file and line), redact option-file
    secrets, and store them; the server learns its flavor and version when it had none, and the
    detected role (`detected_role`, sent by `innotune collect --upload`) unless its role was given."""
    async with upload_slot():
        body = await read_upload(request, ServerSnapshotCreate, _ROLE_FIELDS)
        role = validate_fields(DetectedRole, body.fields)
        body.upload.detected_role, body.upload.detected_role_how = role.detected_role, role.detected_role_how
        snapshot = await run_in_threadpool(_ingest, session, org.id, server_id, body.upload)
    response.headers["Location"] = f"/v1/servers/{server_id}/snapshots/{snapshot.id}"
    return snapshot


@router.get(
    "", summary="List a server's snapshots", responses=problem_responses(400, 404, 422, *AUTHENTICATED)
)
def list_snapshots(
    server_id: str, org: CurrentOrg, session: DbSession, page: Pagination
) -> Page[SnapshotRead]:
    """The server's snapshots oldest first, without their texts."""
    found = snapshots.list_snapshots(
        session, org.id, server_id, cursor=page.cursor, limit=page.limit, newest=page.newest
    )
    return Page[SnapshotRead](
        items=[SnapshotRead.from_snapshot(snapshot) for snapshot in found.items],
        next_cursor=found.next_cursor,
    )


@router.get("/{snapshot_id}", summary="Get a snapshot", responses=problem_responses(404, *AUTHENTICATED))
def get_snapshot(server_id: str, snapshot_id: str, org: CurrentOrg, session: DbSession) -> SnapshotDetail:
    """One snapshot with its stored (redacted) texts."""
    snapshot = snapshots.get_snapshot(session, org.id, snapshot_id)
    if snapshot.server_id != server_id:
        raise Problem(404, f"Server {server_id} has no snapshot {snapshot_id}.")
    return SnapshotDetail.from_snapshot(snapshot)


#: A snapshot by id alone: where an audit's `links.snapshot` points, and the only way to a one-shot's.
by_id_router = APIRouter(prefix="/v1/snapshots", tags=["snapshots"])


@by_id_router.get(
    "/{snapshot_id}", summary="Get a snapshot by id", responses=problem_responses(404, *AUTHENTICATED)
)
def get_snapshot_by_id(snapshot_id: str, org: CurrentOrg, session: DbSession) -> SnapshotDetail:
    """One snapshot of the organisation (a server's or a one-shot's) with its stored texts."""
    return SnapshotDetail.from_snapshot(snapshots.get_snapshot(session, org.id, snapshot_id))
