"""Organisations and their API keys (stored as SHA-256 hashes, never in clear)."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import DateTime, ForeignKey, String
from sqlalchemy.orm import Mapped, mapped_column

from store.base import Base
from store.models._columns import created_column, id_column


class Organization(Base):
    __tablename__ = "organizations"

    id: Mapped[str] = id_column()
    name: Mapped[str] = mapped_column(String(200), nullable=False)
    #: signs audit callbacks (HMAC-SHA256); shown to the organisation when it is created.
    webhook_secret: Mapped[str] = mapped_column(String(64), nullable=False)
    created_at: Mapped[datetime] = created_column()


class ApiKey(Base):
    __tablename__ = "api_keys"

    id: Mapped[str] = id_column()
    organization_id: Mapped[str] = mapped_column(
        ForeignKey("organizations.id", ondelete="CASCADE"), index=True, nullable=False
    )
    #: hex SHA-256 of the whole key; lookups go through this unique index.
    key_hash: Mapped[str] = mapped_column(String(64), unique=True, nullable=False)
    #: the first characters of the key, to tell keys apart in listings.
    prefix: Mapped[str] = mapped_column(String(16), nullable=False)
    created_at: Mapped[datetime] = created_column()
    revoked_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
