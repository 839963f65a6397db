"""A MySQL-family server an organisation audits."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import DateTime, ForeignKey, Index, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from store.base import Base
from store.models._columns import JSONType, created_column, id_column, utcnow


class Server(Base):
    __tablename__ = "servers"
    __table_args__ = (
        UniqueConstraint("organization_id", "name"),
        Index("ix_servers_org_created", "organization_id", "created_at", "id"),
        Index("ix_servers_org_fleet", "organization_id", "fleet"),
    )

    id: Mapped[str] = id_column()
    organization_id: Mapped[str] = mapped_column(
        ForeignKey("organizations.id", ondelete="CASCADE"), nullable=False
    )
    name: Mapped[str] = mapped_column(String(200), nullable=False)
    labels: Mapped[dict[str, str]] = mapped_column(JSONType, default=dict, nullable=False)
    #: mysql | mariadb | percona, and the version string; learned from uploads when not given.
    flavor: Mapped[str | None] = mapped_column(String(16), nullable=True)
    version: Mapped[str | None] = mapped_column(String(120), nullable=True)
    #: the HardwareSpec as JSON (sizes in bytes).
    hardware: Mapped[dict[str, Any] | None] = mapped_column(JSONType, nullable=True)
    role: Mapped[str] = mapped_column(String(16), default="standalone", nullable=False)
    profile: Mapped[str] = mapped_column(String(16), default="production", nullable=False)
    #: fleet name (the fleets issue turns this into a reference to a fleets table).
    fleet: Mapped[str | None] = mapped_column(String(200), nullable=True)
    created_at: Mapped[datetime] = created_column()
    updated_at: Mapped[datetime] = mapped_column(
        DateTime(timezone=True), default=utcnow, onupdate=utcnow, nullable=False
    )
