"""ORM models, one module per table; importing this package registers them all on Base.metadata."""

from store.models.audit import (
    AUDIT_STATUSES,
    FINISHED_STATUSES,
    RESULT_ATTRIBUTES,
    UNFINISHED_STATUSES,
    Audit,
    AuditStatus,
)
from store.models.fleet import Fleet, FleetRun
from store.models.organization import ApiKey, Organization, WebSession
from store.models.server import Server
from store.models.snapshot import Snapshot

__all__ = [
    "AUDIT_STATUSES",
    "FINISHED_STATUSES",
    "RESULT_ATTRIBUTES",
    "UNFINISHED_STATUSES",
    "ApiKey",
    "Audit",
    "AuditStatus",
    "Fleet",
    "FleetRun",
    "Organization",
    "Server",
    "Snapshot",
    "WebSession",
]
