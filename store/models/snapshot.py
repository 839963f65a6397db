"""What a user uploaded about a server at one moment, secrets redacted, validated by the parsers."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, Boolean, ForeignKey, Index, LargeBinary, String, false
from sqlalchemy.orm import Mapped, mapped_column

from store.base import Base
from store.models._columns import JSONType, created_column, id_column


class Snapshot(Base):
    __tablename__ = "snapshots"
    __table_args__ = (Index("ix_snapshots_server_created", "server_id", "created_at"),)

    id: Mapped[str] = id_column()
    organization_id: Mapped[str] = mapped_column(
        ForeignKey("organizations.id", ondelete="CASCADE"), index=True, nullable=False
    )
    #: None for the inputs of a one-shot `POST /v1/analyze`.
    server_id: Mapped[str | None] = mapped_column(ForeignKey("servers.id", ondelete="CASCADE"), nullable=True)
    #: {"mycnf": {path: text}, "variables": text|null, "status": [text, ...], "innodb_status": text|null,
    #:  "schema": text|null, "hardware": text|null, "names": {input: file name} for error messages,
    #:  "version_from_variables": text|null} — texts as uploaded, secrets redacted.
    #: json, not jsonb, on PostgreSQL: the worker reads every snapshot whole, and jsonb rebuilds the
    #: text of ~100 KB of escaped dumps on each read (half the server's cost of claiming an audit);
    #: json hands back the stored text. Nothing queries inside it but `->` (json has it too).
    inputs: Mapped[dict[str, Any]] = mapped_column(JSON, nullable=False)
    #: the inputs as an audit reads them: the dumps parsed at upload (advisor.prepared) and the rest of
    #: `inputs` (services.snapshots.prepared_form); None before it existed. A re-audit reads this, not `inputs`.
    prepared: Mapped[bytes | None] = mapped_column(LargeBinary, nullable=True, deferred=True)
    #: SHA-256 of the canonical inputs: an unchanged snapshot is not re-audited.
    content_hash: Mapped[str] = mapped_column(String(64), nullable=False)
    server_version: Mapped[str | None] = mapped_column(String(120), nullable=True)
    warnings: Mapped[list[str]] = mapped_column(JSONType, default=list, nullable=False)
    #: live values of the variables a fleet summary compares across servers (name → value), read once
    #: at upload so that neither the worker nor the summary parses the dump again.
    settings: Mapped[dict[str, str] | None] = mapped_column(JSONType, nullable=True)
    #: inputs["version_from_variables"] as a column: the fleet dispatcher reads it for thousands of
    #: snapshots at once, and reading it from `inputs` would decompress every snapshot's texts.
    version_from_variables: Mapped[bool] = mapped_column(
        Boolean, default=False, server_default=false(), nullable=False
    )
    created_at: Mapped[datetime] = created_column()
