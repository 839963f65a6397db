"""One audit of a snapshot: its life (queued → running → succeeded | failed) and its results."""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum
from typing import Any, Generic, TypeVar, cast, overload

from sqlalchemy import DateTime, ForeignKey, Index, Integer, String, Text, UniqueConstraint, text
from sqlalchemy.orm import Mapped, mapped_column, relationship

from store.base import Base
from store.models._columns import JSONType, created_column, id_column

T = TypeVar("T")


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
#: the rows of the partial index over unfinished audits (SQL: the migration spells out the same).
UNFINISHED_PREDICATE = "status IN ('queued', 'running')"


class StoredResult(Generic[T]):
    """One of an audit's results: its own copy, else the copy of the audit `result_of` names.

    Setting it stores a copy on this audit and drops the reference (a re-run, a failure).
    """

    def __set_name__(self, owner: type, name: str) -> None:
        self.column = f"stored_{name}"

    @overload
    def __get__(self, audit: None, owner: type) -> StoredResult[T]: ...
    @overload
    def __get__(self, audit: Audit, owner: type) -> T: ...
    def __get__(self, audit: Audit | None, owner: type) -> T | StoredResult[T]:
        if audit is None:
            return self
        source = audit.result_source if audit.result_of is not None else None
        return cast(T, getattr(source if source is not None else audit, self.column))

    def __set__(self, audit: Audit, value: T) -> None:
        setattr(audit, self.column, value)
        if audit.result_of is not None:
            audit.result_of = None


class Audit(Base):
    __tablename__ = "audits"
    __table_args__ = (
        UniqueConstraint("organization_id", "idempotency_key"),
        Index("ix_audits_org_created", "organization_id", "created_at", "id"),
        Index("ix_audits_server_created", "server_id", "created_at"),
        # The sweeper's "queued or running, untouched since": only unfinished audits are indexed. An
        # index over every status let the planner, with statistics taken while a fleet run's audits
        # were all queued, walk every succeeded audit to find one server's previous one (quadratic).
        Index(
            "ix_audits_unfinished_updated",
            "status",
            "updated_at",
            postgresql_where=text(UNFINISHED_PREDICATE),
            sqlite_where=text(UNFINISHED_PREDICATE),
        ),
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
    # The results. An unchanged re-audit (same snapshot content, advisor version and results as the
    # server's previous audit) stores none of them: `result_of` names the audit holding the copy,
    # and the properties below read through it. Columns keep their names; attributes say "stored".
    stored_findings: Mapped[list[dict[str, Any]] | None] = mapped_column("findings", JSONType, nullable=True)
    stored_diff: Mapped[str | None] = mapped_column("diff", Text, nullable=True)
    stored_mycnf: Mapped[str | None] = mapped_column("mycnf", Text, nullable=True)
    #: every option file handed back: [{path, recommended, diff}], in upload order.
    stored_files: Mapped[list[dict[str, str]] | None] = mapped_column("files", JSONType, nullable=True)
    #: the override-file alternative: {path, text, include_line, include_into, cannot_fix}.
    stored_dropin: Mapped[dict[str, Any] | None] = mapped_column("dropin", JSONType, nullable=True)
    stored_warnings: Mapped[list[str] | None] = mapped_column("warnings", JSONType, nullable=True)
    #: the numbers behind the audit's pictures (advisor.figures.AuditFigures), null until it succeeded.
    stored_figures: Mapped[dict[str, int | None] | None] = mapped_column("figures", JSONType, nullable=True)
    #: the audit whose stored results are this one's too (always one holding a copy, never a chain).
    result_of: Mapped[str | None] = mapped_column(ForeignKey("audits.id"), nullable=True, index=True)
    #: SHA-256 of the stored results (findings, diff, files, drop-in, warnings, figures).
    result_hash: Mapped[str | None] = mapped_column(String(64), nullable=True)
    result_source: Mapped[Audit | None] = relationship(remote_side="Audit.id", lazy="selectin", viewonly=True)

    findings = StoredResult[list[dict[str, Any]] | None]()
    diff = StoredResult[str | None]()
    mycnf = StoredResult[str | None]()
    files = StoredResult[list[dict[str, str]] | None]()
    dropin = StoredResult[dict[str, Any] | None]()
    warnings = StoredResult[list[str] | None]()
    figures = StoredResult[dict[str, int | None] | None]()
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


#: the results an audit hands back (attributes reading through `result_of`).
RESULT_ATTRIBUTES = ("findings", "diff", "mycnf", "files", "dropin", "warnings", "figures")
