"""Organisations and API keys: keys are shown once and stored as SHA-256 hashes."""

from __future__ import annotations

import hashlib
import secrets

from sqlalchemy.orm import Session

from services.errors import InvalidInput
from store.ids import utcnow
from store.models import Organization
from store.repositories import organizations as repository

#: Every key starts with this, so a leaked key is recognisable (secret scanners, logs).
KEY_PREFIX = "itk_"
#: How much of a key is kept in clear, to tell keys apart in listings.
DISPLAY_PREFIX_CHARS = 12
MAX_NAME_CHARS = 200
#: the organisation the web pages use in the embedded default (no broker, no sign-in).
LOCAL_ORGANIZATION_NAME = "local"


def hash_key(key: str) -> str:
    """Hex SHA-256 of a key: what is stored and looked up. Keys are random, so no salt is needed."""
    return hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest()


def new_key() -> str:
    """A fresh API key: the prefix and 32 random bytes, URL-safe."""
    return KEY_PREFIX + secrets.token_urlsafe(32)


def create_organization(session: Session, name: str) -> tuple[Organization, str]:
    """Create an organisation with its webhook secret and first API key; returns the key in clear."""
    name = name.strip()
    if not name or len(name) > MAX_NAME_CHARS:
        raise InvalidInput(f"an organisation name must have 1 to {MAX_NAME_CHARS} characters")
    organization = repository.add_organization(session, name, webhook_secret=secrets.token_hex(32))
    return organization, create_api_key(session, organization.id)


def create_api_key(session: Session, organization_id: str) -> str:
    """Add a key to the organisation; the clear key is returned here and never again."""
    key = new_key()
    repository.add_api_key(session, organization_id, hash_key(key), key[:DISPLAY_PREFIX_CHARS])
    return key


def revoke_api_key(session: Session, organization_id: str, key: str) -> bool:
    """Revoke one of the organisation's keys; False when it has no such unrevoked key."""
    return repository.revoke_api_key(session, organization_id, hash_key(key), utcnow()) > 0


def local_organization(session: Session) -> Organization:
    """The embedded default's one organisation, for the pages that need no sign-in there: the oldest
    organisation named `local`, created (without an API key) on first use."""
    found = repository.oldest_organization_named(session, LOCAL_ORGANIZATION_NAME)
    if found is not None:
        return found
    return repository.add_organization(session, LOCAL_ORGANIZATION_NAME, webhook_secret=secrets.token_hex(32))


def organization_for_key_hash(session: Session, key_hash: str) -> Organization | None:
    """The organisation of an unrevoked key known by its hash (a signed web session carries the hash)."""
    return repository.organization_by_key_hash(session, key_hash)


def organization_for_key(session: Session, key: str) -> Organization | None:
    """The organisation a key belongs to, or None for an unknown or revoked key."""
    if not key.startswith(KEY_PREFIX) or len(key) > 200:
        return None  # not one of ours: spare the database the lookup
    return repository.organization_by_key_hash(session, hash_key(key))
