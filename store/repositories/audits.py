"""Audits: lookups for the API, the worker and the sweeper."""

from __future__ import annotations

from collections.abc import Collection
from datetime import datetime

from sqlalchemy import select
from sqlalchemy.orm import Session

from store.models import Audit
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
) -> list[Audit]:
    """Up to `limit + 1` of the organisation's audits after the cursor, oldest first, filtered."""
    statement = select(Audit).where(Audit.organization_id == organization_id)
    if server_id is not None:
        statement = statement.where(Audit.server_id == server_id)
    if status is not None:
        statement = statement.where(Audit.status == status)
    if severity is not None:
        statement = statement.where(Audit.worst_severity == severity)
    return list(session.scalars(page_after(statement, Audit, after, limit)))


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
