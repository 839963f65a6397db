"""Snapshots: what was uploaded about a server at one moment."""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.orm import Session

from store.models import Snapshot
from store.repositories.keyset import After, page_after


def get_snapshot(session: Session, organization_id: str, snapshot_id: str) -> Snapshot | None:
    statement = select(Snapshot).where(
        Snapshot.id == snapshot_id, Snapshot.organization_id == organization_id
    )
    return session.scalars(statement).first()


def get_snapshot_by_id(session: Session, snapshot_id: str) -> Snapshot | None:
    """Unscoped: for the worker, which holds an audit's snapshot id and no organisation."""
    return session.get(Snapshot, snapshot_id)


def latest_snapshot(session: Session, organization_id: str, server_id: str) -> Snapshot | None:
    """The server's most recent snapshot."""
    statement = (
        select(Snapshot)
        .where(Snapshot.organization_id == organization_id, Snapshot.server_id == server_id)
        .order_by(Snapshot.created_at.desc(), Snapshot.id.desc())
        .limit(1)
    )
    return session.scalars(statement).first()


def add_snapshot(session: Session, snapshot: Snapshot) -> Snapshot:
    session.add(snapshot)
    session.flush()
    return snapshot


def list_snapshots(
    session: Session, organization_id: str, server_id: str, *, after: After | None, limit: int
) -> list[Snapshot]:
    """Up to `limit + 1` snapshots of the server after the cursor, oldest first."""
    statement = select(Snapshot).where(
        Snapshot.organization_id == organization_id, Snapshot.server_id == server_id
    )
    return list(session.scalars(page_after(statement, Snapshot, after, limit)))
