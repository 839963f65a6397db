"""Opaque cursors over (created_at, id) and the page they lead to."""

from __future__ import annotations

import base64
import binascii
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Generic, TypeVar

from services.errors import InvalidInput

T = TypeVar("T")

DEFAULT_LIMIT = 50
MAX_LIMIT = 200
_SEPARATOR = "|"


@dataclass
class Page(Generic[T]):
    """One page of a list, oldest first; `next_cursor` is None on the last page."""

    items: list[T]
    next_cursor: str | None


def _aware(moment: datetime) -> datetime:
    # SQLite hands timestamps back without a zone; they were written in UTC.
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def encode_cursor(created_at: datetime, id: str) -> str:
    """The cursor that continues after the row (created_at, id)."""
    text = f"{_aware(created_at).astimezone(UTC).isoformat()}{_SEPARATOR}{id}"
    return base64.urlsafe_b64encode(text.encode()).decode().rstrip("=")


def decode_cursor(text: str) -> tuple[datetime, str]:
    """(created_at, id) from a cursor; InvalidInput for anything this module did not make."""
    try:
        padded = text + "=" * (-len(text) % 4)
        moment, separator, row_id = (
            base64.urlsafe_b64decode(padded.encode("ascii")).decode().partition(_SEPARATOR)
        )
        if not separator or not row_id:
            raise ValueError("no id")
        created_at = datetime.fromisoformat(moment)
    except (ValueError, UnicodeError, binascii.Error) as exc:
        raise InvalidInput(f"invalid cursor: {text[:40]!r}") from exc
    if created_at.tzinfo is None:
        raise InvalidInput(f"invalid cursor: {text[:40]!r}")
    return created_at, row_id


def check_limit(limit: int) -> int:
    """A page size between 1 and MAX_LIMIT, else InvalidInput."""
    if not 1 <= limit <= MAX_LIMIT:
        raise InvalidInput(f"limit must be between 1 and {MAX_LIMIT}, not {limit}")
    return limit


R = TypeVar("R")


def make_page(rows: list[R], limit: int, key: Callable[[R], tuple[datetime, str]]) -> Page[R]:
    """Cut the `limit + 1` rows a repository fetched into a page and the cursor after it."""
    items = rows[:limit]
    next_cursor = encode_cursor(*key(items[-1])) if len(rows) > limit and items else None
    return Page(items, next_cursor)


def after(cursor: str | None) -> tuple[datetime, str] | None:
    """The repository's `after` argument for an optional cursor."""
    return decode_cursor(cursor) if cursor else None
