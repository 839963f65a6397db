"""Submitting audits: against a server's snapshot, or one-shot over an upload; queued, and their
`audits.run` job enqueued — sent by the unit of work once it has committed, so a worker never looks
for an audit that is not there yet.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from advisor.errors import InputError
from advisor.model import Profile, Role
from advisor.version import parse_version
from services.audits.callback_address import check_callback_url
from services.errors import Conflict, InvalidInput, NotFound
from services.jobs import RUN_AUDIT, enqueue
from services.servers import get_server
from services.snapshots import SnapshotUpload, build_snapshot
from store.ids import new_id, utcnow
from store.models import Audit, AuditStatus, Server, Snapshot
from store.repositories import audits as repository
from store.repositories import snapshots as snapshot_repository

ANALYZE_PARAMETERS = frozenset(
    {"server_version", "role", "profile", "memory", "memory_limit", "cpus", "storage"}
)
MAX_IDEMPOTENCY_KEY_CHARS = 200


def _check_callback_url(url: str | None) -> str | None:
    """A callback URL we may post to (services.audits.callback_address), or InvalidInput."""
    return None if url is None else check_callback_url(url)


def _replayed(session: Session, org_id: str, key: str | None, request_hash: str | None) -> Audit | None:
    """The audit an earlier request with this idempotency key made; Conflict when the body differs."""
    if key is None:
        return None
    if not key or len(key) > MAX_IDEMPOTENCY_KEY_CHARS:
        raise InvalidInput(f"an Idempotency-Key has 1 to {MAX_IDEMPOTENCY_KEY_CHARS} characters")
    existing = repository.audit_by_idempotency_key(session, org_id, key)
    if existing is not None and existing.request_hash != request_hash:
        raise Conflict("this Idempotency-Key was used with a different request")
    return existing


def _insert(session: Session, audit: Audit, snapshot: Snapshot | None = None) -> tuple[Audit, bool]:
    """Insert the audit (after a one-shot's snapshot) and enqueue its run; a concurrent twin with the
    same key wins (and is not enqueued again)."""

    def insert() -> None:
        # No ORM relationships: flush the snapshot first so the audit's foreign key finds it.
        for row in (snapshot, audit):
            if row is not None:
                session.add(row)
                session.flush()

    if audit.idempotency_key is None or session.get_bind().dialect.name == "sqlite":
        insert()  # SQLite serialises writers: the check in _replayed cannot race
    else:
        try:
            with session.begin_nested():
                insert()
        except IntegrityError:
            twin = _replayed(session, audit.organization_id, audit.idempotency_key, audit.request_hash)
            if twin is None:
                raise
            return twin, False
    enqueue(RUN_AUDIT, audit.id)
    return audit, True


def _server_facts(snapshot: Snapshot, parameters: dict[str, Any]) -> dict[str, str | None]:
    """The flavor and version the audit will run with, known when it is queued (the 202 body says
    them); the run writes what it really used."""
    text = parameters.get("server_version") or snapshot.server_version
    if not text:
        return {"flavor": None, "version": None}
    try:
        return {"flavor": parse_version(str(text)).flavor, "version": str(text)}
    except InputError:  # the run reports it as the audit's error
        return {"flavor": None, "version": None}


def _queued_audit(org_id: str, snapshot: Snapshot, parameters: dict[str, Any], **fields: Any) -> Audit:
    now = utcnow()
    fields = {**_server_facts(snapshot, parameters), **fields}
    return Audit(
        id=new_id(),
        organization_id=org_id,
        server_id=snapshot.server_id,
        snapshot_id=snapshot.id,
        status=AuditStatus.QUEUED,
        parameters=parameters,
        attempts=0,
        created_at=now,
        updated_at=now,
        **fields,
    )


def server_parameters(server: Server, snapshot: Snapshot) -> dict[str, Any]:
    """What the audit of a server's snapshot runs with: the server's facts as they are now."""
    from_variables = bool(snapshot.inputs.get("version_from_variables"))
    return {
        "server_version": None if from_variables else (server.version or snapshot.server_version),
        "role": server.role,
        "profile": server.profile,
        "hardware": server.hardware,
    }


def submit_audit(
    session: Session,
    org_id: str,
    *,
    server_id: str,
    snapshot_id: str | None,
    callback_url: str | None,
    idempotency_key: str | None,
    request_hash: str | None,
) -> tuple[Audit, bool]:
    """Queue an audit of the server's snapshot (its latest when None); (audit, created)."""
    replayed = _replayed(session, org_id, idempotency_key, request_hash)
    if replayed is not None:
        return replayed, False
    server = get_server(session, org_id, server_id)
    if snapshot_id is None:
        snapshot = snapshot_repository.latest_snapshot(session, org_id, server.id)
        if snapshot is None:
            raise InvalidInput(f"server {server.id} has no snapshot yet: upload one first")
    else:
        snapshot = snapshot_repository.get_snapshot(session, org_id, snapshot_id)
        if snapshot is None or snapshot.server_id != server.id:
            raise NotFound(f"no snapshot {snapshot_id} of server {server.id}")
    audit = _queued_audit(
        org_id,
        snapshot,
        server_parameters(server, snapshot),
        callback_url=_check_callback_url(callback_url),
        idempotency_key=idempotency_key,
        request_hash=request_hash,
    )
    return _insert(session, audit)


def _check_parameters(parameters: dict[str, Any]) -> dict[str, Any]:
    unknown = set(parameters) - ANALYZE_PARAMETERS
    if unknown:
        raise InvalidInput(f"unknown parameter(s): {', '.join(sorted(unknown))}")
    given = {name: value for name, value in parameters.items() if value is not None}
    if given.get("role", Role.STANDALONE) not in tuple(Role):
        raise InvalidInput(f"role must be one of {', '.join(Role)}")
    if given.get("profile", Profile.PRODUCTION) not in tuple(Profile):
        raise InvalidInput(f"profile must be one of {', '.join(Profile)}")
    if "cpus" in given and (not isinstance(given["cpus"], int) or isinstance(given["cpus"], bool)):
        raise InvalidInput("cpus must be a whole number")
    for name in ("server_version", "memory", "memory_limit", "storage"):
        if name in given and (not isinstance(given[name], str) or len(given[name]) > 120):
            raise InvalidInput(f"{name} must be text of at most 120 characters")
    return given


def analyze(
    session: Session,
    org_id: str,
    upload: SnapshotUpload,
    parameters: dict[str, Any],
    *,
    callback_url: str | None,
    idempotency_key: str | None,
    request_hash: str | None,
) -> tuple[Audit, bool]:
    """Queue a one-shot audit of an upload, stored as a server-less snapshot; (audit, created)."""
    replayed = _replayed(session, org_id, idempotency_key, request_hash)
    if replayed is not None:
        return replayed, False
    checked = _check_parameters(parameters)
    url = _check_callback_url(callback_url)
    snapshot, _version = build_snapshot(org_id, None, upload, checked)
    snapshot.id = new_id()
    audit = _queued_audit(
        org_id,
        snapshot,
        checked,
        callback_url=url,
        idempotency_key=idempotency_key,
        request_hash=request_hash,
    )
    return _insert(session, audit, snapshot)
