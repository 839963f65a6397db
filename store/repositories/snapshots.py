"""Snapshots: what was uploaded about a server at one moment."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy import insert, select
from sqlalchemy.orm import Session, aliased

from store.models import Server, Snapshot
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
    session: Session,
    organization_id: str,
    server_id: str,
    *,
    after: After | None,
    limit: int,
    newest: bool = False,
) -> list[Snapshot]:
    """Up to `limit + 1` snapshots of the server after the cursor, oldest first."""
    statement = select(Snapshot).where(
        Snapshot.organization_id == organization_id, Snapshot.server_id == server_id
    )
    return list(session.scalars(page_after(statement, Snapshot, after, limit, newest=newest)))


def latest_snapshots_for(session: Session, server_ids: Sequence[str]) -> Sequence[Any]:
    """(server_id, id, content_hash, server_version, version_from_variables) of each server's latest
    snapshot, in one query: a correlated subquery per server walks its (server_id, created_at) index."""
    if not server_ids:
        return []
    newest = aliased(Snapshot)
    latest_id = (
        select(newest.id)
        .where(newest.server_id == Server.id)
        .order_by(newest.created_at.desc())  # the index's order: one row read per server
        .limit(1)
        .correlate(Server)
        .scalar_subquery()
    )
    statement = (
        select(
            Server.id,
            Snapshot.id,
            Snapshot.content_hash,
            Snapshot.server_version,
            Snapshot.version_from_variables,
        )
        .select_from(Server)
        .join(Snapshot, Snapshot.id == latest_id)
        .where(Server.id.in_(list(server_ids)))
    )
    return session.execute(statement).all()


def add_snapshots(session: Session, rows: Sequence[dict[str, Any]]) -> None:
    """Insert many snapshots in one batched statement (rows carry their ids)."""
    if rows:
        session.execute(insert(Snapshot), list(rows))


def option_files(session: Session, snapshot_id: str) -> dict[str, str]:
    """The snapshot's uploaded option files (path → redacted text), without the rest of its inputs."""
    value = session.scalar(select(Snapshot.inputs["mycnf"]).where(Snapshot.id == snapshot_id))
    return dict(value or {})
