"""Servers of an organisation."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy import delete, exists, insert, or_, select, update
from sqlalchemy.orm import Session

from store.models import Fleet, Server
from store.repositories.keyset import After, page_after


def get_server(session: Session, organization_id: str, server_id: str) -> Server | None:
    """The organisation's server with this id, or None (another organisation's server is None too)."""
    statement = select(Server).where(Server.id == server_id, Server.organization_id == organization_id)
    return session.scalars(statement).first()


def name_taken(session: Session, organization_id: str, name: str, *, other_than: str | None = None) -> bool:
    """Does another server of the organisation already have this name?"""
    condition = (Server.organization_id == organization_id) & (Server.name == name)
    if other_than is not None:
        condition &= Server.id != other_than
    return bool(session.scalar(select(exists().where(condition))))


def add_server(session: Session, server: Server) -> Server:
    session.add(server)
    session.flush()
    return server


def list_servers(
    session: Session,
    organization_id: str,
    *,
    fleet: str | None,
    after: After | None,
    limit: int,
    newest: bool = False,
) -> list[Server]:
    """Up to `limit + 1` servers after the cursor, oldest first; `fleet` is a fleet's id or its name."""
    statement = select(Server).where(Server.organization_id == organization_id)
    if fleet is not None:
        named = select(Fleet.id).where(Fleet.organization_id == organization_id, Fleet.name == fleet)
        statement = statement.where(or_(Server.fleet_id == fleet, Server.fleet_id.in_(named)))
    return list(session.scalars(page_after(statement, Server, after, limit, newest=newest)))


def delete_server(session: Session, organization_id: str, server_id: str) -> int:
    """Delete the server (its snapshots and audits go with it, by the foreign keys); rows deleted."""
    statement = delete(Server).where(Server.id == server_id, Server.organization_id == organization_id)
    return int(session.execute(statement).rowcount)  # type: ignore[attr-defined]


def add_servers(session: Session, rows: Sequence[dict[str, Any]]) -> None:
    """Insert many servers in one batched statement (rows carry their ids)."""
    if rows:
        session.execute(insert(Server), list(rows))


# ------------------------------------------------------------------ the fleet dispatcher
def claim_pending_servers(session: Session, limit: int) -> Sequence[Any]:
    """Up to `limit` servers waiting for a fleet run's dispatch, locked; rows another dispatcher holds
    are skipped (FOR UPDATE SKIP LOCKED), so two dispatchers never claim the same server."""
    statement = (
        select(
            Server.id,
            Server.organization_id,
            Server.version,
            Server.role,
            Server.profile,
            Server.hardware,
            Server.pending_fleet_run_id,
        )
        .where(Server.pending_fleet_run_id.is_not(None))
        .limit(limit)
        .with_for_update(skip_locked=True, of=Server)
    )
    return session.execute(statement).all()


def clear_pending(session: Session, server_ids: Sequence[str]) -> None:
    """The claimed servers are dispatched (or skipped): no longer waiting."""
    if server_ids:
        session.execute(
            update(Server)
            .where(Server.id.in_(list(server_ids)))
            # keep updated_at: a dispatch is no change to the server
            .values(pending_fleet_run_id=None, updated_at=Server.updated_at)
            .execution_options(synchronize_session=False)
        )


def fleet_server_names(session: Session, fleet_id: str) -> dict[str, str]:
    """id → name of the fleet's servers."""
    return dict(session.execute(select(Server.id, Server.name).where(Server.fleet_id == fleet_id)).tuples())
