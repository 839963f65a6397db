"""A MySQL-family server an organisation audits."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import DateTime, ForeignKey, Index, String, UniqueConstraint, select
from sqlalchemy.orm import Mapped, column_property, mapped_column

from store.base import Base
from store.ids import utcnow
from store.models._columns import JSONType, created_column, id_column
from store.models.fleet import Fleet


class Server(Base):
    __tablename__ = "servers"
    __table_args__ = (
        UniqueConstraint("organization_id", "name"),
        Index("ix_servers_org_created", "organization_id", "created_at", "id"),
        Index("ix_servers_fleet_id", "fleet_id"),
        Index("ix_servers_pending_fleet_run_id", "pending_fleet_run_id"),
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
    #: given (by a user: create or update) | detected (by the collector, with an upload) | default
    #: (standalone or the fleet's): a detected role replaces a default one, never a given one.
    role_source: Mapped[str] = mapped_column(
        String(16), default="default", server_default="default", nullable=False
    )
    profile: Mapped[str] = mapped_column(String(16), default="production", nullable=False)
    #: the fleet it belongs to (at most one); a deleted fleet leaves its servers fleetless.
    fleet_id: Mapped[str | None] = mapped_column(ForeignKey("fleets.id", ondelete="SET NULL"), nullable=True)
    #: the fleet re-audit that has still to dispatch this server's audit (the dispatcher claims
    #: these rows in chunks with FOR UPDATE SKIP LOCKED and clears the mark in the same transaction).
    pending_fleet_run_id: Mapped[str | None] = mapped_column(
        ForeignKey("fleet_runs.id", ondelete="SET NULL"), nullable=True
    )
    #: the fleet's name, read with the server in the same query (the API shows it for compatibility).
    fleet: Mapped[str | None] = column_property(
        select(Fleet.name).where(Fleet.id == fleet_id).correlate_except(Fleet).scalar_subquery()
    )
    created_at: Mapped[datetime] = created_column()
    updated_at: Mapped[datetime] = mapped_column(
        DateTime(timezone=True), default=utcnow, onupdate=utcnow, nullable=False
    )
