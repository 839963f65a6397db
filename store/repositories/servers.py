"""Servers of an organisation."""

from __future__ import annotations

from sqlalchemy import delete, exists, select
from sqlalchemy.orm import Session

from store.models import Server
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
    session: Session, organization_id: str, *, fleet: str | None, after: After | None, limit: int
) -> list[Server]:
    """Up to `limit + 1` servers after the cursor, oldest first."""
    statement = select(Server).where(Server.organization_id == organization_id)
    if fleet is not None:
        statement = statement.where(Server.fleet == fleet)
    return list(session.scalars(page_after(statement, Server, after, limit)))


def delete_server(session: Session, organization_id: str, server_id: str) -> int:
    """Delete the server (its snapshots and audits go with it, by the foreign keys); rows deleted."""
    statement = delete(Server).where(Server.id == server_id, Server.organization_id == organization_id)
    return int(session.execute(statement).rowcount)  # type: ignore[attr-defined]
