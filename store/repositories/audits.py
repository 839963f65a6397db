"""Audits: lookups for the API, the worker and the sweeper."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from datetime import datetime
from typing import Any, NamedTuple

from sqlalchemy import delete, insert, select
from sqlalchemy.orm import Session, aliased

from store.models import FINISHED_STATUSES, UNFINISHED_STATUSES, Audit, AuditStatus, Server, Snapshot
from store.repositories.keyset import After, page_after


def get_audit(session: Session, organization_id: str, audit_id: str) -> Audit | None:
    statement = select(Audit).where(Audit.id == audit_id, Audit.organization_id == organization_id)
    return session.scalars(statement).first()


def get_audit_by_id(session: Session, audit_id: str, *, for_update: bool = False) -> Audit | None:
    """Unscoped, for the worker; `for_update` locks the row until the transaction ends."""
    statement = select(Audit).where(Audit.id == audit_id)
    if for_update:
        statement = statement.with_for_update()
    return session.scalars(statement).first()


def audit_by_idempotency_key(session: Session, organization_id: str, key: str) -> Audit | None:
    statement = select(Audit).where(Audit.organization_id == organization_id, Audit.idempotency_key == key)
    return session.scalars(statement).first()


def add_audit(session: Session, audit: Audit) -> Audit:
    session.add(audit)
    session.flush()
    return audit


def list_audits(
    session: Session,
    organization_id: str,
    *,
    server_id: str | None,
    status: str | None,
    severity: str | None,
    after: After | None,
    limit: int,
    newest: bool = False,
) -> list[Audit]:
    """Up to `limit + 1` of the organisation's audits after the cursor, oldest (or newest) first, filtered."""
    statement = select(Audit).where(Audit.organization_id == organization_id)
    if server_id is not None:
        statement = statement.where(Audit.server_id == server_id)
    if status is not None:
        statement = statement.where(Audit.status == status)
    if severity is not None:
        statement = statement.where(Audit.worst_severity == severity)
    return list(session.scalars(page_after(statement, Audit, after, limit, newest=newest)))


def stuck_audits(
    session: Session, *, statuses: Collection[str], updated_before: datetime, limit: int, lock: bool
) -> list[Audit]:
    """Audits in `statuses` not touched since `updated_before`, oldest first.

    `lock` takes row locks and skips rows another sweeper holds, so two sweepers never re-send the
    same audit (PostgreSQL; SQLite has one writer anyway).
    """
    statement = (
        select(Audit)
        .where(Audit.status.in_(list(statuses)), Audit.updated_at < updated_before)
        .order_by(Audit.updated_at)
        .limit(limit)
    )
    if lock:
        statement = statement.with_for_update(skip_locked=True)
    return list(session.scalars(statement))


def add_audits(session: Session, rows: Sequence[dict[str, Any]]) -> None:
    """Insert many queued audits in one batched statement (rows carry their ids)."""
    if rows:
        session.execute(insert(Audit), list(rows))


def _latest_audit_id(statuses: Collection[str]) -> Any:
    """A correlated subquery: the id of the server's newest audit in `statuses` (an index walk)."""
    newest = aliased(Audit)
    return (
        select(newest.id)
        .where(newest.server_id == Server.id, newest.status.in_(list(statuses)))
        # created_at alone: the index gives this order, so the newest row is the first one read
        .order_by(newest.created_at.desc())
        .limit(1)
        .correlate(Server)
        .scalar_subquery()
    )


def servers_in_flight(session: Session, server_ids: Sequence[str]) -> set[str]:
    """Which of these servers have an audit queued or running: a correlated subquery per server probes
    its (server_id, status) index. Filtering every unfinished audit by server instead read the whole
    queue for each chunk of a fleet run — 96 of 112 s dispatching 100,000 servers (quadratic)."""
    if not server_ids:
        return set()
    busy = (
        select(Audit.id)
        .where(Audit.server_id == Server.id, Audit.status.in_(sorted(UNFINISHED_STATUSES)))
        .limit(1)
        .correlate(Server)
        .scalar_subquery()
    )
    statement = select(Server.id, busy).where(Server.id.in_(list(server_ids)))
    return {server_id for server_id, audit_id in session.execute(statement) if audit_id is not None}


def last_succeeded_for(session: Session, server_ids: Sequence[str]) -> Sequence[Any]:
    """(server_id, advisor_version, parameters, snapshot content_hash) of each server's newest
    succeeded audit, in one query."""
    if not server_ids:
        return []
    statement = (
        select(Server.id, Audit.advisor_version, Audit.parameters, Snapshot.content_hash)
        .select_from(Server)
        .join(Audit, Audit.id == _latest_audit_id((AuditStatus.SUCCEEDED,)))
        .join(Snapshot, Snapshot.id == Audit.snapshot_id)
        .where(Server.id.in_(list(server_ids)))
    )
    return session.execute(statement).all()


def latest_finished_in_fleet(session: Session, fleet_id: str) -> Sequence[Any]:
    """For each server of the fleet: (server id, name, and of its newest finished audit — or None —
    id, status, worst_severity, finding_keys, changes, and its snapshot's watched settings), in one query."""
    latest = _latest_audit_id(sorted(FINISHED_STATUSES))
    statement = (
        select(
            Server.id,
            Server.name,
            Audit.id,
            Audit.status,
            Audit.worst_severity,
            Audit.finding_keys,
            Snapshot.settings,
            Audit.changes,
        )
        .select_from(Server)
        .outerjoin(Audit, Audit.id == latest)
        .outerjoin(Snapshot, Snapshot.id == Audit.snapshot_id)
        .where(Server.fleet_id == fleet_id)
        .order_by(Server.name)
    )
    return session.execute(statement).all()


def latest_succeeded(session: Session, organization_id: str, server_id: str, *, count: int) -> list[Audit]:
    """The server's `count` newest succeeded audits, newest first."""
    statement = (
        select(Audit)
        .where(
            Audit.organization_id == organization_id,
            Audit.server_id == server_id,
            Audit.status == AuditStatus.SUCCEEDED,
        )
        .order_by(Audit.created_at.desc(), Audit.id.desc())
        .limit(count)
    )
    return list(session.scalars(statement))


class PreviousAudit(NamedTuple):
    """The server's newest succeeded audit before another one: what comparing with it needs."""

    id: str
    finding_keys: list[str] | None
    content_hash: str
    advisor_version: str | None
    result_hash: str | None
    result_of: str | None


def previous_succeeded_for(session: Session, audit_ids: Sequence[str]) -> dict[str, PreviousAudit]:
    """Audit id → its server's newest succeeded audit created before it (when there is one), in one
    query whatever the number of audits (each a walk of the server/status/created index)."""
    if not audit_ids:
        return {}
    current = aliased(Audit)
    previous_id = (
        select(Audit.id)
        .where(
            Audit.server_id == current.server_id,
            Audit.status == AuditStatus.SUCCEEDED,
            Audit.id != current.id,
            Audit.created_at <= current.created_at,
        )
        .order_by(Audit.created_at.desc())  # the (server_id, status, created_at) index order
        .limit(1)
        .correlate(current)
        .scalar_subquery()
    )
    # Two steps, each an index walk: joining on the correlated subquery made PostgreSQL evaluate it
    # for every audit of the table.
    previous_of: dict[str, str | None] = dict(
        session.execute(select(current.id, previous_id).where(current.id.in_(list(audit_ids)))).all()
    )
    wanted = {previous for previous in previous_of.values() if previous is not None}
    if not wanted:
        return {}
    statement = (
        select(
            Audit.id,
            Audit.finding_keys,
            Snapshot.content_hash,
            Audit.advisor_version,
            Audit.result_hash,
            Audit.result_of,
        )
        .join(Snapshot, Snapshot.id == Audit.snapshot_id)
        .where(Audit.id.in_(sorted(wanted)))
    )
    found = {row[0]: PreviousAudit(*row) for row in session.execute(statement)}
    return {audit_id: found[previous] for audit_id, previous in previous_of.items() if previous in found}


def server_ids_after(session: Session, after: str | None, limit: int) -> list[str]:
    """Up to `limit` server ids after `after`, in id order (keyset batches over every server)."""
    statement = select(Server.id).order_by(Server.id).limit(limit)
    if after is not None:
        statement = statement.where(Server.id > after)
    return list(session.scalars(statement))


def audit_lineage(session: Session, server_ids: Sequence[str]) -> Sequence[Any]:
    """(id, server_id, status, changes, result_of) of the servers' audits, each server's newest first."""
    statement = (
        select(Audit.id, Audit.server_id, Audit.status, Audit.changes, Audit.result_of)
        .where(Audit.server_id.in_(list(server_ids)))
        .order_by(Audit.server_id, Audit.created_at.desc(), Audit.id.desc())
    )
    return session.execute(statement).all()


def delete_audits(session: Session, audit_ids: Sequence[str]) -> None:
    """Delete these audits in one statement (a kept audit never refers to one of them)."""
    if audit_ids:
        session.execute(
            delete(Audit).where(Audit.id.in_(list(audit_ids))).execution_options(synchronize_session=False)
        )
