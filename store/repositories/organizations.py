"""Organisations, their API keys and their web sessions."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import select, update
from sqlalchemy.orm import Session

from store.models import ApiKey, Organization, WebSession


def add_organization(session: Session, name: str) -> Organization:
    """Insert an organisation and flush, so its id is known."""
    organization = Organization(name=name, webhook_secret_generation=1)
    session.add(organization)
    session.flush()
    return organization


def add_api_key(session: Session, organization_id: str, key_hash: str, prefix: str, name: str) -> ApiKey:
    """Insert a key (its hash and display prefix, never the key)."""
    key = ApiKey(organization_id=organization_id, key_hash=key_hash, prefix=prefix, name=name)
    session.add(key)
    session.flush()
    return key


def organization_and_key(session: Session, key_hash: str) -> tuple[Organization, ApiKey] | None:
    """The organisation and row of an unrevoked key with this hash (one indexed join)."""
    statement = (
        select(Organization, ApiKey)
        .join(ApiKey, ApiKey.organization_id == Organization.id)
        .where(ApiKey.key_hash == key_hash, ApiKey.revoked_at.is_(None))
    )
    row = session.execute(statement).first()
    return (row[0], row[1]) if row is not None else None


def api_key_by_hash(session: Session, key_hash: str) -> ApiKey | None:
    return session.scalars(select(ApiKey).where(ApiKey.key_hash == key_hash)).first()


def get_api_key(session: Session, organization_id: str, key_id: str) -> ApiKey | None:
    """The organisation's key with this id (None for another organisation's)."""
    statement = select(ApiKey).where(ApiKey.id == key_id, ApiKey.organization_id == organization_id)
    return session.scalars(statement).first()


def list_api_keys(session: Session, organization_id: str) -> list[ApiKey]:
    statement = (
        select(ApiKey).where(ApiKey.organization_id == organization_id).order_by(ApiKey.created_at, ApiKey.id)
    )
    return list(session.scalars(statement))


def set_last_used(session: Session, key_id: str, when: datetime) -> None:
    session.execute(update(ApiKey).where(ApiKey.id == key_id).values(last_used_at=when))


def get_organization(session: Session, organization_id: str) -> Organization | None:
    return session.get(Organization, organization_id)


def list_organizations(session: Session) -> list[Organization]:
    return list(session.scalars(select(Organization).order_by(Organization.created_at, Organization.id)))


def oldest_organization_named(session: Session, name: str) -> Organization | None:
    """The first organisation created with this name (names are not unique)."""
    statement = (
        select(Organization)
        .where(Organization.name == name)
        .order_by(Organization.created_at, Organization.id)
        .limit(1)
    )
    return session.scalars(statement).first()


def add_web_session(session: Session, token_hash: str, api_key_id: str, expires_at: datetime) -> WebSession:
    row = WebSession(token_hash=token_hash, api_key_id=api_key_id, expires_at=expires_at)
    session.add(row)
    session.flush()
    return row


def session_organization(session: Session, token_hash: str, now: datetime) -> Organization | None:
    """The organisation of a live session: not revoked, not expired, and its key not revoked."""
    statement = (
        select(Organization)
        .join(ApiKey, ApiKey.organization_id == Organization.id)
        .join(WebSession, WebSession.api_key_id == ApiKey.id)
        .where(
            WebSession.token_hash == token_hash,
            WebSession.revoked_at.is_(None),
            WebSession.expires_at > now,
            ApiKey.revoked_at.is_(None),
        )
    )
    return session.scalars(statement).first()


def revoke_web_session(session: Session, token_hash: str, when: datetime) -> None:
    session.execute(
        update(WebSession)
        .where(WebSession.token_hash == token_hash, WebSession.revoked_at.is_(None))
        .values(revoked_at=when)
    )


def revoke_sessions_of_key(session: Session, api_key_id: str, when: datetime) -> None:
    session.execute(
        update(WebSession)
        .where(WebSession.api_key_id == api_key_id, WebSession.revoked_at.is_(None))
        .values(revoked_at=when)
    )
