"""Audits over time, for the web pages: each server's latest audit, and one server's audits newest first."""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import func, select
from sqlalchemy.orm import Session, defer

from store.models import Audit, AuditStatus


@dataclass(frozen=True)
class LatestAudit:
    """The few columns of a server's latest succeeded audit that a server list shows."""

    server_id: str
    audit_id: str
    worst_severity: str | None
    created_at: datetime


def latest_succeeded_audits(
    session: Session, organization_id: str, server_ids: Collection[str]
) -> dict[str, LatestAudit]:
    """Server id → its newest succeeded audit, for the given servers of the organisation (one query)."""
    if not server_ids:
        return {}
    newest_first = func.row_number().over(
        partition_by=Audit.server_id, order_by=(Audit.created_at.desc(), Audit.id.desc())
    )
    ranked = (
        select(
            Audit.server_id,
            Audit.id,
            Audit.worst_severity,
            Audit.created_at,
            newest_first.label("position"),
        )
        .where(
            Audit.organization_id == organization_id,
            Audit.server_id.in_(list(server_ids)),
            Audit.status == AuditStatus.SUCCEEDED,
        )
        .subquery()
    )
    rows = session.execute(
        select(ranked.c.server_id, ranked.c.id, ranked.c.worst_severity, ranked.c.created_at).where(
            ranked.c.position == 1
        )
    )
    return {
        row.server_id: LatestAudit(row.server_id, row.id, row.worst_severity, row.created_at) for row in rows
    }


def server_audits_newest_first(
    session: Session, organization_id: str, server_id: str, *, limit: int
) -> list[Audit]:
    """The server's latest `limit` audits, newest first, without their diff and my.cnf texts."""
    statement = (
        select(Audit)
        .options(defer(Audit.stored_diff), defer(Audit.stored_mycnf), defer(Audit.stored_files))
        .where(Audit.organization_id == organization_id, Audit.server_id == server_id)
        .order_by(Audit.created_at.desc(), Audit.id.desc())
        .limit(limit)
    )
    return list(session.scalars(statement))
