"""Row identities and timestamps as every layer makes them: UUID strings and aware UTC datetimes."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime


def new_id() -> str:
    """A new row id: a random UUID as a string."""
    return str(uuid.uuid4())


def utcnow() -> datetime:
    """Now, timezone-aware, in UTC."""
    return datetime.now(UTC)
