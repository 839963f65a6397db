"""One audit of a snapshot: its life (queued → running → succeeded | failed) and its results."""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum
from typing import Any

from sqlalchemy import DateTime, ForeignKey, Index, Integer, String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from store.base import Base
from store.models._columns import JSONType, created_column, id_column


class AuditStatus(StrEnum):
    """Where an audit is in its life: queued → running → succeeded | failed."""

    QUEUED = "queued"
    RUNNING = "running"
    SUCCEEDED = "succeeded"
    FAILED = "failed"

    @property
    def finished(self) -> bool:
        """Succeeded or failed: nothing will change it but a re-run."""
        return self in FINISHED_STATUSES


#: the statuses in their order of life (the API lists them so).
AUDIT_STATUSES = tuple(AuditStatus)
FINISHED_STATUSES = frozenset({AuditStatus.SUCCEEDED, AuditStatus.FAILED})
UNFINISHED_STATUSES = frozenset({AuditStatus.QUEUED, AuditStatus.RUNNING})


class Audit(Base):
    __tablename__ = "audits"
    __table_args__ = (
        UniqueConstraint("organization_id", "idempotency_key"),
        Index("ix_audits_org_created", "organization_id", "created_at", "id"),
        Index("ix_audits_server_created", "server_id", "created_at"),
        Index("ix_audits_status_updated", "status", "updated_at"),
        Index("ix_audits_org_severity", "organization_id", "worst_severity"),
        Index("ix_audits_fleet_run_status", "fleet_run_id", "status"),
        # "the server's newest succeeded audit", per server, for the fleet dispatcher and drift
        Index("ix_audits_server_status_created", "server_id", "status", "created_at"),
    )

    id: Mapped[str] = id_column()
    organization_id: Mapped[str] = mapped_column(
        ForeignKey("organizations.id", ondelete="CASCADE"), nullable=False
    )
    server_id: Mapped[str | None] = mapped_column(ForeignKey("servers.id", ondelete="CASCADE"), nullable=True)
    snapshot_id: Mapped[str] = mapped_column(ForeignKey("snapshots.id", ondelete="CASCADE"), nullable=False)
    status: Mapped[str] = mapped_column(String(16), default=AuditStatus.QUEUED.value, nullable=False)
    #: server facts the audit ran with (version, role, profile, hardware flags of a one-shot).
    parameters: Mapped[dict[str, Any]] = mapped_column(JSONType, default=dict, nullable=False)
    advisor_version: Mapped[str | None] = mapped_column(String(32), nullable=True)
    findings: Mapped[list[dict[str, Any]] | None] = mapped_column(JSONType, nullable=True)
    diff: Mapped[str | None] = mapped_column(Text, nullable=True)
    mycnf: Mapped[str | None] = mapped_column(Text, nullable=True)
    #: every option file handed back: [{path, recommended, diff}], in upload order.
    files: Mapped[list[dict[str, str]] | None] = mapped_column(JSONType, nullable=True)
    #: the override-file alternative: {path, text, include_line, include_into, cannot_fix}.
    dropin: Mapped[dict[str, Any] | None] = mapped_column(JSONType, nullable=True)
    warnings: Mapped[list[str] | None] = mapped_column(JSONType, nullable=True)
    #: the numbers behind the audit's pictures (advisor.figures.AuditFigures), null until it succeeded.
    figures: Mapped[dict[str, int | None] | None] = mapped_column(JSONType, nullable=True)
    worst_severity: Mapped[str | None] = mapped_column(String(16), nullable=True)
    #: settings whose live value differs from the option file: [{name, file_value, live_value, file, line}].
    drift: Mapped[list[dict[str, Any]] | None] = mapped_column(JSONType, nullable=True)
    #: "rule|variable" of each finding, sorted: compact, for fleet-wide counts and audit comparisons.
    finding_keys: Mapped[list[str] | None] = mapped_column(JSONType, nullable=True)
    #: how this audit differs from the server's previous succeeded one (see services/audit_facts.py).
    changes: Mapped[dict[str, Any] | None] = mapped_column(JSONType, nullable=True)
    #: the fleet re-audit that dispatched it, if any.
    fleet_run_id: Mapped[str | None] = mapped_column(
        ForeignKey("fleet_runs.id", ondelete="SET NULL"), nullable=True
    )
    flavor: Mapped[str | None] = mapped_column(String(16), nullable=True)
    version: Mapped[str | None] = mapped_column(String(120), nullable=True)
    error: Mapped[str | None] = mapped_column(Text, nullable=True)
    attempts: Mapped[int] = mapped_column(Integer, default=0, nullable=False)
    callback_url: Mapped[str | None] = mapped_column(String(2000), nullable=True)
    callback_status: Mapped[str | None] = mapped_column(String(64), nullable=True)
    idempotency_key: Mapped[str | None] = mapped_column(String(200), nullable=True)
    #: SHA-256 of the request body that created it: the same key with another body is a 409.
    request_hash: Mapped[str | None] = mapped_column(String(64), nullable=True)
    created_at: Mapped[datetime] = created_column()
    updated_at: Mapped[datetime] = created_column()
    started_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
