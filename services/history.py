"""Servers and their audits over time, and what changed between two audits of a server.

Read-only services for the web pages; like every service they take the caller's session, never
commit, and treat another organisation's rows as missing (NotFound).
"""

from __future__ import annotations

import difflib
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy.orm import Session

from advisor.findings import Severity
from services.audit_facts import drift_by_name, not_yet_live
from services.audits.queries import get_audit
from services.errors import NotFound
from services.pagination import MAX_LIMIT
from services.servers import get_server, list_servers
from services.snapshots import get_snapshot
from store.models import Audit, Server
from store.repositories.audit_history import (
    LatestAudit,
    latest_succeeded_audits,
    server_audits_newest_first,
)

SEVERITIES = tuple(Severity)
#: how many servers a list shows, and audits a server page: pages of the list API's largest size.
MAX_SERVERS_LISTED = 5 * MAX_LIMIT
MAX_AUDITS_LISTED = MAX_LIMIT


@dataclass(frozen=True)
class ServerOverview:
    """A server with its newest succeeded audit (None before its first)."""

    server: Server
    latest: LatestAudit | None


def servers_overview(session: Session, org_id: str) -> tuple[list[ServerOverview], bool]:
    """The organisation's servers, oldest first, each with its latest worst severity; and whether
    there were more than MAX_SERVERS_LISTED."""
    servers: list[Server] = []
    cursor: str | None = None
    while len(servers) < MAX_SERVERS_LISTED:
        page = list_servers(session, org_id, fleet=None, cursor=cursor, limit=MAX_LIMIT)
        servers += page.items
        cursor = page.next_cursor
        if cursor is None:
            break
    latest = latest_succeeded_audits(session, org_id, [server.id for server in servers])
    return [ServerOverview(server, latest.get(server.id)) for server in servers], cursor is not None


def severity_counts(findings: Iterable[Mapping[str, Any]] | None) -> dict[str, int]:
    """How many findings of each severity, every severity present (0 when none)."""
    counted = Counter(finding.get("severity") for finding in findings or ())
    return {severity: counted.get(severity, 0) for severity in SEVERITIES}


def server_history(session: Session, org_id: str, server_id: str) -> tuple[Server, list[Audit]]:
    """The server and its latest audits, newest first (NotFound for another organisation's server)."""
    server = get_server(session, org_id, server_id)
    audits = server_audits_newest_first(session, org_id, server.id, limit=MAX_AUDITS_LISTED)
    return server, audits


# ---------------------------------------------------------------------------------------- comparing
def finding_key(finding: Mapping[str, Any]) -> tuple[str, str]:
    """What makes two audits' findings "the same finding": its rule and the variable it is about."""
    return str(finding.get("rule")), str(finding.get("variable") or "")


@dataclass(frozen=True)
class ChangedFinding:
    """A finding present in both audits whose severity, current or recommended value moved."""

    before: Mapping[str, Any]
    after: Mapping[str, Any]
    fields: tuple[str, ...]


@dataclass(frozen=True)
class FindingChanges:
    """Findings of the newer audit that the older lacked, the reverse, and those that changed."""

    appeared: list[Mapping[str, Any]] = field(default_factory=list)
    resolved: list[Mapping[str, Any]] = field(default_factory=list)
    changed: list[ChangedFinding] = field(default_factory=list)
    unchanged: int = 0
    #: gone from the newer audit only because its file says so: the server still runs the old value.
    not_yet_live: list[Mapping[str, Any]] = field(default_factory=list)


_COMPARED_FIELDS = ("severity", "current", "recommended")


def compare_findings(
    older: Iterable[Mapping[str, Any]] | None,
    newer: Iterable[Mapping[str, Any]] | None,
    drifting: Mapping[str, Mapping[str, Any]] | None = None,
) -> FindingChanges:
    """Match findings by rule and variable; list what appeared, what was resolved and what moved. A
    finding whose variable is in `drifting` (the newer file's value is not running yet) is not resolved."""
    before = {finding_key(finding): finding for finding in older or ()}
    after = {finding_key(finding): finding for finding in newer or ()}
    gone = [finding for key, finding in before.items() if key not in after]
    changes = FindingChanges(
        appeared=[finding for key, finding in after.items() if key not in before],
        resolved=[finding for finding in gone if not not_yet_live(finding, drifting or {})],
    )
    unchanged = 0
    for key, finding in after.items():
        if key not in before:
            continue
        moved = tuple(name for name in _COMPARED_FIELDS if before[key].get(name) != finding.get(name))
        if moved:
            changes.changed.append(ChangedFinding(before[key], finding, moved))
        else:
            unchanged += 1
    pending = [finding for finding in gone if not_yet_live(finding, drifting or {})]
    return FindingChanges(changes.appeared, changes.resolved, changes.changed, unchanged, pending)


def option_file_changes(older: Mapping[str, str], newer: Mapping[str, str]) -> str:
    """A unified diff of two snapshots' option files (per path; '' when they are the same)."""
    parts: list[str] = []
    for path in sorted(set(older) | set(newer)):
        before, after = older.get(path), newer.get(path)
        if before == after:
            continue
        parts += difflib.unified_diff(
            (before or "").splitlines(keepends=True),
            (after or "").splitlines(keepends=True),
            fromfile=f"a/{path.lstrip('/')}" if before is not None else "/dev/null",
            tofile=f"b/{path.lstrip('/')}" if after is not None else "/dev/null",
        )
    return "".join(line if line.endswith("\n") else line + "\n" for line in parts)


def variable_changes(older: str | None, newer: str | None) -> list[tuple[str, str | None, str | None]]:
    """(name, before, after) for each SHOW GLOBAL VARIABLES value that differs between two dumps."""
    if older is None or newer is None:
        return []
    from advisor.errors import InputError
    from advisor.inputs.statusvars import parse_variables

    try:
        before = parse_variables(older, "older").values
        after = parse_variables(newer, "newer").values
    except InputError:  # stored dumps were validated on upload; an unreadable one just shows nothing
        return []
    names = sorted(set(before) | set(after))
    return [
        (name, before.get(name), after.get(name)) for name in names if before.get(name) != after.get(name)
    ]


@dataclass(frozen=True)
class AuditComparison:
    """Two audits of one server, older first, and what changed from one to the other."""

    server: Server
    older: Audit
    newer: Audit
    findings: FindingChanges
    option_files_diff: str
    variables: list[tuple[str, str | None, str | None]]
    #: the newer audit's settings set in its files but running another value (restart or run the SQL).
    drift: list[Mapping[str, Any]] = field(default_factory=list)
    #: the newer snapshot had a SHOW GLOBAL VARIABLES dump: without one, "resolved" means by the file alone.
    newer_has_live_variables: bool = True


def compare_audits(
    session: Session, org_id: str, server_id: str, first_id: str, second_id: str
) -> AuditComparison:
    """Compare two audits of the server, whichever order they are given in (NotFound when either is
    missing, another organisation's, or of another server)."""
    server = get_server(session, org_id, server_id)
    pair = [get_audit(session, org_id, audit_id) for audit_id in (first_id, second_id)]
    if any(audit.server_id != server.id for audit in pair):
        raise NotFound(f"no such audits of server {server.id}")
    older, newer = sorted(pair, key=lambda audit: (audit.created_at, audit.id))
    older_inputs = get_snapshot(session, org_id, older.snapshot_id).inputs
    newer_inputs = get_snapshot(session, org_id, newer.snapshot_id).inputs
    return AuditComparison(
        server=server,
        older=older,
        newer=newer,
        findings=compare_findings(older.findings, newer.findings, drift_by_name(newer.drift)),
        option_files_diff=option_file_changes(
            older_inputs.get("mycnf") or {}, newer_inputs.get("mycnf") or {}
        ),
        variables=variable_changes(older_inputs.get("variables"), newer_inputs.get("variables")),
        drift=list(newer.drift or []),
        newer_has_live_variables=bool(newer_inputs.get("variables")),
    )
