"""Fleets of servers re-audited on a schedule, and each fleet re-audit's run (for its progress)."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import (
    Boolean,
    CheckConstraint,
    DateTime,
    ForeignKey,
    Index,
    Integer,
    String,
    UniqueConstraint,
    false,
)
from sqlalchemy.orm import Mapped, mapped_column

from store.base import Base
from store.models._columns import created_column, id_column


class Fleet(Base):
    """A named group of servers with a re-audit schedule: a cron expression or an interval, never both."""

    __tablename__ = "fleets"
    __table_args__ = (
        UniqueConstraint("organization_id", "name"),
        CheckConstraint(
            "(schedule_cron IS NULL) <> (schedule_interval_seconds IS NULL)", name="one_schedule"
        ),
        Index("ix_fleets_org_created", "organization_id", "created_at", "id"),
        # The dispatcher's every-minute question: which fleets are due?
        Index("ix_fleets_next_run_at", "next_run_at"),
    )

    id: Mapped[str] = id_column()
    organization_id: Mapped[str] = mapped_column(
        ForeignKey("organizations.id", ondelete="CASCADE"), nullable=False
    )
    name: Mapped[str] = mapped_column(String(200), nullable=False)
    #: five-field cron expression (UTC), or None when the fleet runs on an interval.
    schedule_cron: Mapped[str | None] = mapped_column(String(120), nullable=True)
    schedule_interval_seconds: Mapped[int | None] = mapped_column(Integer, nullable=True)
    #: what a server created into the fleet gets when its own role or profile is not given.
    default_role: Mapped[str] = mapped_column(String(16), default="standalone", nullable=False)
    default_profile: Mapped[str] = mapped_column(String(16), default="production", nullable=False)
    #: when the dispatcher next starts a re-audit of the fleet (advanced when it does).
    next_run_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), nullable=False)
    last_dispatch_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    created_at: Mapped[datetime] = created_column()


class FleetRun(Base):
    """One re-audit of a fleet. Its audits point at it (`audits.fleet_run_id`); servers still waiting
    to be dispatched point at it too (`servers.pending_fleet_run_id`). Its finished audits are counted
    here, in the transaction that finishes them, so reading progress never walks the run's audits."""

    __tablename__ = "fleet_runs"
    __table_args__ = (Index("ix_fleet_runs_fleet_started", "fleet_id", "started_at"),)

    id: Mapped[str] = id_column()
    organization_id: Mapped[str] = mapped_column(
        ForeignKey("organizations.id", ondelete="CASCADE"), nullable=False
    )
    fleet_id: Mapped[str] = mapped_column(ForeignKey("fleets.id", ondelete="CASCADE"), nullable=False)
    started_at: Mapped[datetime] = created_column()
    #: servers of the fleet when the run started.
    total: Mapped[int] = mapped_column(Integer, nullable=False)
    #: True: re-audit even servers whose snapshot and advisor version did not change.
    forced: Mapped[bool] = mapped_column(Boolean, default=False, nullable=False)
    #: started by the schedule (not by a request): kept only when it dispatches an audit.
    scheduled: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false(), nullable=False)
    #: servers not re-audited: nothing changed since their last audit, or nothing uploaded yet.
    skipped_unchanged: Mapped[int] = mapped_column(Integer, default=0, nullable=False)
    skipped_no_snapshot: Mapped[int] = mapped_column(Integer, default=0, nullable=False)
    #: servers whose previous audit was still queued or running: never two audits of a server in flight.
    skipped_in_flight: Mapped[int] = mapped_column(Integer, default=0, nullable=False)
    #: the run's audits finished so far, by outcome (`store.repositories.fleets.count_finished`).
    succeeded: Mapped[int] = mapped_column(Integer, default=0, server_default="0", nullable=False)
    failed: Mapped[int] = mapped_column(Integer, default=0, server_default="0", nullable=False)
