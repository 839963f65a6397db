"""Column helpers shared by the models: UUID string keys and timezone-aware timestamps."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import JSON, DateTime, String
from sqlalchemy.dialects.postgresql import JSONB
from sqlalchemy.orm import Mapped, mapped_column

from store.ids import new_id, utcnow

__all__ = ["JSONType", "created_column", "id_column", "new_id", "utcnow"]

# JSONB on PostgreSQL (indexable, compact), plain JSON on the embedded SQLite.
JSONType = JSON().with_variant(JSONB(), "postgresql")


def id_column() -> Mapped[str]:
    return mapped_column(String(36), primary_key=True, default=new_id)


def created_column() -> Mapped[datetime]:
    return mapped_column(DateTime(timezone=True), default=utcnow, nullable=False)
