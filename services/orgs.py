"""Organisations and API keys: keys are shown once and stored as SHA-256 hashes; each has a name, a
last-used time, and can be rotated (a new key under the same name, the old one revoked) or revoked.

Revoking a key also ends the web sessions it opened (services.web_sessions).
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy.orm import Session

from services.errors import InvalidInput, NotFound
from store.ids import utcnow
from store.models import ApiKey, Organization
from store.repositories import organizations as repository

#: Every key starts with this, so a leaked key is recognisable (secret scanners, logs).
KEY_PREFIX = "itk_"
#: How much of a key is kept in clear, to tell keys apart in listings.
DISPLAY_PREFIX_CHARS = 12
MAX_NAME_CHARS = 200
#: the embedded default's one organisation: the pages use it, `innotune admin create-key` adds keys to it.
LOCAL_ORGANIZATION_NAME = "local"
#: last_used_at is written at most this often per key, so busy keys do not cost a write per request.
LAST_USED_RESOLUTION = timedelta(minutes=1)


@dataclass(frozen=True)
class IssuedKey:
    """A key just made: its row and, this once, the key in clear."""

    row: ApiKey
    key: str


def hash_key(key: str) -> str:
    """Hex SHA-256 of a key: what is stored and looked up. Keys are random, so no salt is needed."""
    return hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest()


def new_key() -> str:
    """A fresh API key: the prefix and 32 random bytes, URL-safe."""
    return KEY_PREFIX + secrets.token_urlsafe(32)


def _checked_name(name: str, what: str) -> str:
    name = name.strip()
    if len(name) > MAX_NAME_CHARS or any(not char.isprintable() for char in name):
        raise InvalidInput(f"{what} must have at most {MAX_NAME_CHARS} printable characters")
    return name


def create_organization(session: Session, name: str, key_name: str = "first key") -> tuple[Organization, str]:
    """Create an organisation and its first API key; returns the key in clear."""
    name = _checked_name(name, "an organisation name")
    if not name:
        raise InvalidInput(f"an organisation name must have 1 to {MAX_NAME_CHARS} characters")
    organization = repository.add_organization(session, name)
    return organization, issue_api_key(session, organization.id, key_name).key


def issue_api_key(session: Session, organization_id: str, name: str) -> IssuedKey:
    """Add a named key to the organisation; the clear key is returned here and never again."""
    key = new_key()
    row = repository.add_api_key(
        session, organization_id, hash_key(key), key[:DISPLAY_PREFIX_CHARS], _checked_name(name, "a key name")
    )
    return IssuedKey(row, key)


def create_api_key(session: Session, organization_id: str, name: str = "") -> str:
    """Add a key to the organisation and return it in clear (see issue_api_key)."""
    return issue_api_key(session, organization_id, name).key


def list_api_keys(session: Session, organization_id: str) -> list[ApiKey]:
    """The organisation's keys, revoked ones too, oldest first."""
    return repository.list_api_keys(session, organization_id)


def _own_key(session: Session, organization_id: str, key_id: str) -> ApiKey:
    row = repository.get_api_key(session, organization_id, key_id)
    if row is None:
        raise NotFound(f"no API key {key_id}")
    return row


def revoke_key(session: Session, organization_id: str, key_id: str) -> ApiKey:
    """Revoke one of the organisation's keys (by id) and end its web sessions; NotFound when unknown.

    Revoking a revoked key changes nothing.
    """
    row = _own_key(session, organization_id, key_id)
    if row.revoked_at is None:
        now = utcnow()
        row.revoked_at = now
        repository.revoke_sessions_of_key(session, row.id, now)
    return row


def rotate_key(session: Session, organization_id: str, key_id: str) -> IssuedKey:
    """A new key with the old one's name; the old key is revoked (with its sessions) at once."""
    old = _own_key(session, organization_id, key_id)
    if old.revoked_at is not None:
        raise InvalidInput("the key is revoked: create a new one instead")
    issued = issue_api_key(session, organization_id, old.name)
    revoke_key(session, organization_id, key_id)
    return issued


def revoke_api_key(session: Session, organization_id: str, key: str) -> bool:
    """Revoke one of the organisation's keys given in clear; False when it has no such unrevoked key."""
    row = repository.api_key_by_hash(session, hash_key(key))
    if row is None or row.organization_id != organization_id or row.revoked_at is not None:
        return False
    revoke_key(session, organization_id, row.id)
    return True


def local_organization(session: Session) -> Organization:
    """The embedded default's one organisation: the oldest organisation named `local`, created (without
    an API key: `innotune admin create-key` adds them) on first use."""
    found = repository.oldest_organization_named(session, LOCAL_ORGANIZATION_NAME)
    if found is not None:
        return found
    return repository.add_organization(session, LOCAL_ORGANIZATION_NAME)


def mark_used(session: Session, row: ApiKey, now: datetime | None = None) -> None:
    """Record that the key was just used (at most once per LAST_USED_RESOLUTION)."""
    now = now or utcnow()
    last = row.last_used_at
    if last is not None and last.tzinfo is None:  # SQLite hands times back without their zone
        last = last.replace(tzinfo=now.tzinfo)
    if last is None or now - last >= LAST_USED_RESOLUTION:
        repository.set_last_used(session, row.id, now)


def organization_for_key(session: Session, key: str) -> Organization | None:
    """The organisation a key belongs to, or None for an unknown or revoked key; notes the use."""
    if not key.startswith(KEY_PREFIX) or len(key) > 200:
        return None  # not one of ours: spare the database the lookup
    found = repository.organization_and_key(session, hash_key(key))
    if found is None:
        return None
    organization, row = found
    mark_used(session, row)
    return organization


def key_for_clear_key(session: Session, key: str) -> ApiKey | None:
    """The unrevoked key row of a key given in clear (the sign-in form), or None."""
    if not key.startswith(KEY_PREFIX) or len(key) > 200:
        return None
    row = repository.api_key_by_hash(session, hash_key(key))
    return row if row is not None and row.revoked_at is None else None
