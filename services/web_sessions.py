"""Signed-in browsers, kept server-side: a session is a row that sign-out, expiry or revoking its key
ends. The browser holds a random token; the database only its SHA-256 (a dump cannot sign anyone in).
"""

from __future__ import annotations

import hashlib
import secrets
from datetime import timedelta

from sqlalchemy.orm import Session

from services.orgs import key_for_clear_key, mark_used
from store.ids import utcnow
from store.models import Organization
from store.repositories import organizations as repository

SESSION_LIFETIME = timedelta(hours=12)


def _token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def sign_in(session: Session, api_key: str) -> str | None:
    """Open a session for a valid key: its token (for the cookie), or None for an unknown/revoked key."""
    row = key_for_clear_key(session, api_key)
    if row is None:
        return None
    token = secrets.token_urlsafe(32)
    now = utcnow()
    repository.add_web_session(session, _token_hash(token), row.id, now + SESSION_LIFETIME)
    mark_used(session, row, now)
    return token


def session_organization(session: Session, token: str) -> Organization | None:
    """The organisation of a live session token; None when signed out, expired or its key revoked."""
    if not token or len(token) > 100:
        return None
    return repository.session_organization(session, _token_hash(token), utcnow())


def sign_out(session: Session, token: str) -> None:
    """End the session (a cookie copied before sign-out no longer works)."""
    if token and len(token) <= 100:
        repository.revoke_web_session(session, _token_hash(token), utcnow())
