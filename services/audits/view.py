"""An audit as the API returns it and as a callback carries it."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from store.models import Audit

API_PREFIX = "/v1"


def _moment(value: datetime | None) -> str | None:
    """ISO 8601 in UTC (SQLite hands timestamps back without their zone; they were written in UTC)."""
    if value is None:
        return None
    aware = value if value.tzinfo is not None else value.replace(tzinfo=UTC)
    return aware.astimezone(UTC).isoformat()


def _milliseconds(start: datetime | None, end: datetime | None) -> int | None:
    if start is None or end is None:
        return None
    start = start if start.tzinfo is not None else start.replace(tzinfo=UTC)
    end = end if end.tzinfo is not None else end.replace(tzinfo=UTC)
    return max(0, round((end - start).total_seconds() * 1000))


def audit_links(audit: Audit) -> dict[str, str]:
    """Where the API serves the audit and what it refers to."""
    links = {
        "self": f"{API_PREFIX}/audits/{audit.id}",
        "diff": f"{API_PREFIX}/audits/{audit.id}/diff",
        "mycnf": f"{API_PREFIX}/audits/{audit.id}/mycnf",
        "files": f"{API_PREFIX}/audits/{audit.id}/files",
        "snapshot": f"{API_PREFIX}/snapshots/{audit.snapshot_id}",
    }
    if audit.server_id is not None:
        links["server"] = f"{API_PREFIX}/servers/{audit.server_id}"
    return links


def audit_as_dict(audit: Audit) -> dict[str, Any]:
    """The audit resource: status, timings (duration_ms: started → finished), findings, links.

    The diff and the recommended my.cnf are large, so they are links, not fields.
    """
    return {
        "id": audit.id,
        "status": audit.status,
        "server_id": audit.server_id,
        "snapshot_id": audit.snapshot_id,
        "created_at": _moment(audit.created_at),
        "started_at": _moment(audit.started_at),
        "finished_at": _moment(audit.finished_at),
        "duration_ms": _milliseconds(audit.started_at, audit.finished_at),
        "queued_ms": _milliseconds(audit.created_at, audit.started_at),
        "worst_severity": audit.worst_severity,
        "server": {
            "flavor": audit.flavor,
            "version": audit.version,
            "role": (audit.parameters or {}).get("role") or "standalone",
        },
        "findings": list(audit.findings or []),
        "warnings": list(audit.warnings or []),
        "figures": dict(audit.figures) if audit.figures is not None else None,
        "drift": list(audit.drift or []) if audit.status == "succeeded" else None,
        "error": audit.error,
        "attempts": audit.attempts,
        "advisor_version": audit.advisor_version,
        "callback_status": audit.callback_status,
        "links": audit_links(audit),
    }
