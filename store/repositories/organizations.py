"""Organisations and their API keys."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import select, update
from sqlalchemy.orm import Session

from store.models import ApiKey, Organization


def add_organization(session: Session, name: str, webhook_secret: str) -> Organization:
    """Insert an organisation and flush, so its id is known."""
    organization = Organization(name=name, webhook_secret=webhook_secret)
    session.add(organization)
    session.flush()
    return organization


def add_api_key(session: Session, organization_id: str, key_hash: str, prefix: str) -> ApiKey:
    """Insert a key (its hash and display prefix, never the key)."""
    key = ApiKey(organization_id=organization_id, key_hash=key_hash, prefix=prefix)
    session.add(key)
    session.flush()
    return key


def organization_by_key_hash(session: Session, key_hash: str) -> Organization | None:
    """The organisation owning an unrevoked key with this hash (one indexed join)."""
    statement = (
        select(Organization)
        .join(ApiKey, ApiKey.organization_id == Organization.id)
        .where(ApiKey.key_hash == key_hash, ApiKey.revoked_at.is_(None))
    )
    return session.scalars(statement).first()


def get_organization(session: Session, organization_id: str) -> Organization | None:
    return session.get(Organization, organization_id)


def oldest_organization_named(session: Session, name: str) -> Organization | None:
    """The first organisation created with this name (names are not unique)."""
    statement = (
        select(Organization)
        .where(Organization.name == name)
        .order_by(Organization.created_at, Organization.id)
        .limit(1)
    )
    return session.scalars(statement).first()


def revoke_api_key(session: Session, organization_id: str, key_hash: str, when: datetime) -> int:
    """Mark the organisation's key with this hash revoked; returns how many keys changed (0 or 1)."""
    statement = (
        update(ApiKey)
        .where(
            ApiKey.organization_id == organization_id,
            ApiKey.key_hash == key_hash,
            ApiKey.revoked_at.is_(None),
        )
        .values(revoked_at=when)
    )
    return int(session.execute(statement).rowcount)  # type: ignore[attr-defined]
