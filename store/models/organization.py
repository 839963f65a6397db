"""Organisations, their API keys (stored as SHA-256 hashes, never in clear) and web sessions."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import DateTime, ForeignKey, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from store.base import Base
from store.models._columns import created_column, id_column


class Organization(Base):
    __tablename__ = "organizations"

    id: Mapped[str] = id_column()
    name: Mapped[str] = mapped_column(String(200), nullable=False)
    #: which webhook secret signs the audit callbacks: the secret itself is derived from the server's
    #: secret key and this number (services.webhooks), never stored; rotating adds one.
    webhook_secret_generation: Mapped[int] = mapped_column(Integer, nullable=False, default=1)
    created_at: Mapped[datetime] = created_column()


class ApiKey(Base):
    __tablename__ = "api_keys"

    id: Mapped[str] = id_column()
    organization_id: Mapped[str] = mapped_column(
        ForeignKey("organizations.id", ondelete="CASCADE"), index=True, nullable=False
    )
    #: what the key is for (`provisioning`, `ci`), shown in listings.
    name: Mapped[str] = mapped_column(String(200), nullable=False, default="")
    #: hex SHA-256 of the whole key; lookups go through this unique index.
    key_hash: Mapped[str] = mapped_column(String(64), unique=True, nullable=False)
    #: the first characters of the key, to tell keys apart in listings.
    prefix: Mapped[str] = mapped_column(String(16), nullable=False)
    created_at: Mapped[datetime] = created_column()
    #: the last request made with the key (or a page session it opened), to the minute.
    last_used_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    revoked_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


class WebSession(Base):
    """A signed-in browser: ends at sign-out, at expiry, or when its key is revoked."""

    __tablename__ = "web_sessions"

    id: Mapped[str] = id_column()
    #: hex SHA-256 of the session token the cookie carries (the token itself is never stored).
    token_hash: Mapped[str] = mapped_column(String(64), unique=True, nullable=False)
    api_key_id: Mapped[str] = mapped_column(
        ForeignKey("api_keys.id", ondelete="CASCADE"), index=True, nullable=False
    )
    created_at: Mapped[datetime] = created_column()
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), nullable=False)
    revoked_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
