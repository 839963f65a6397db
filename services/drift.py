"""Drift: how an audit differs from an earlier one of the same server, and live values that differ
from the option file (what each audit recorded is in `services.audit_facts`).

Findings are matched by (rule, variable): new, resolved and unchanged. Option-file changes are
diffed over the files the user uploaded (redacted), not over our recommended file, so a changed
line is a change the user made. Live-vs-file drift comes from the advisor's effective config.
"""

from __future__ import annotations

import difflib
from collections.abc import Mapping
from typing import Any

from sqlalchemy.orm import Session

from services.audit_facts import drift_by_name, finding_key, not_yet_live
from services.audits.queries import get_audit
from services.errors import Conflict, NotFound
from services.servers import get_server
from store.models import Audit, AuditStatus
from store.repositories import audits as audit_repository
from store.repositories import snapshots as snapshot_repository


# ------------------------------------------------------------------ comparing two audits
def _finding_summary(finding: Mapping[str, Any]) -> dict[str, Any]:
    return {
        name: finding.get(name)
        for name in ("rule", "variable", "severity", "title", "current", "recommended")
    }


def _compare_findings(
    before: list[dict[str, Any]],
    after: list[dict[str, Any]],
    drifting: Mapping[str, Mapping[str, Any]] | None = None,
) -> dict[str, Any]:
    """New, resolved and unchanged findings; a finding gone only from the file's side (its variable
    still runs another value) is `not_yet_live`, never resolved."""
    earlier = {finding_key(finding): finding for finding in before}
    later = {finding_key(finding): finding for finding in after}
    unchanged = []
    for key in sorted(earlier.keys() & later.keys()):
        entry = _finding_summary(later[key])
        entry["severity_before"] = earlier[key].get("severity")
        unchanged.append(entry)
    gone = [earlier[key] for key in sorted(earlier.keys() - later.keys())]
    return {
        "new": [later[key] for key in sorted(later.keys() - earlier.keys())],
        "resolved": [finding for finding in gone if not not_yet_live(finding, drifting or {})],
        "not_yet_live": [finding for finding in gone if not_yet_live(finding, drifting or {})],
        "unchanged": unchanged,
    }


def _file_changes(path: str, before: str, after: str) -> dict[str, Any]:
    """Lines removed (numbered in the old file) and added (numbered in the new), and a unified diff."""
    old_lines, new_lines = before.splitlines(), after.splitlines()
    removed: list[dict[str, Any]] = []
    added: list[dict[str, Any]] = []
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(
        a=old_lines, b=new_lines, autojunk=False
    ).get_opcodes():
        if tag in ("replace", "delete"):
            removed += [{"line": n + 1, "text": old_lines[n]} for n in range(i1, i2)]
        if tag in ("replace", "insert"):
            added += [{"line": n + 1, "text": new_lines[n]} for n in range(j1, j2)]
    diff = "".join(
        f"{line}\n" if not line.endswith("\n") else line
        for line in difflib.unified_diff(old_lines, new_lines, f"a{path}", f"b{path}", lineterm="")
    )
    return {"path": path, "removed": removed, "added": added, "diff": diff}


def compare_option_files(before: Mapping[str, str], after: Mapping[str, str]) -> list[dict[str, Any]]:
    """The changed option files (a file only on one side counts as wholly removed or added)."""
    changed = []
    for path in sorted(set(before) | set(after)):
        old, new = before.get(path, ""), after.get(path, "")
        if old != new:
            changed.append(_file_changes(path, old, new))
    return changed


def _drift_names(audit: Audit | None) -> set[str]:
    return {entry["name"] for entry in (audit.drift or [])} if audit is not None else set()


def compare_audits(
    before: Audit | None,
    after: Audit,
    *,
    before_files: Mapping[str, str] | None = None,
    after_files: Mapping[str, str] | None = None,
) -> dict[str, Any]:
    """How `after` differs from `before` (None: the first audit, everything is new).

    `before_files`/`after_files` are the two snapshots' uploaded option files (path → text); leave
    them None when both audits read the same snapshot content.
    """
    files = compare_option_files(before_files or {}, after_files or {}) if before is not None else []
    return {
        "audit_id": after.id,
        "previous_audit_id": before.id if before is not None else None,
        "server_id": after.server_id,
        "worst_severity": {
            "before": before.worst_severity if before is not None else None,
            "after": after.worst_severity,
        },
        "findings": _compare_findings(
            list(before.findings or []) if before is not None else [],
            list(after.findings or []),
            drift_by_name(after.drift),
        ),
        "mycnf": {"changed": bool(files), "files": files},
        "drift": {
            "live_vs_file": list(after.drift or []),
            "new": sorted(_drift_names(after) - _drift_names(before)),
            "resolved": sorted(_drift_names(before) - _drift_names(after)),
        },
    }


def _files_of(
    session: Session, before: Audit, after: Audit
) -> tuple[dict[str, str] | None, dict[str, str] | None]:
    if before.snapshot_id == after.snapshot_id:
        return None, None
    return (
        snapshot_repository.option_files(session, before.snapshot_id),
        snapshot_repository.option_files(session, after.snapshot_id),
    )


def _succeeded(audit: Audit) -> Audit:
    if audit.status != AuditStatus.SUCCEEDED:
        raise Conflict(f"audit {audit.id} is {audit.status}; only succeeded audits compare")
    return audit


def compare(session: Session, org_id: str, audit_id: str, other_id: str) -> dict[str, Any]:
    """Audit `audit_id` against `other_id` (the baseline): `new` findings are those `other_id` lacked.

    Both must be the organisation's (NotFound) and succeeded (Conflict).
    """
    after = _succeeded(get_audit(session, org_id, audit_id))
    before = _succeeded(get_audit(session, org_id, other_id))
    before_files, after_files = _files_of(session, before, after)
    return compare_audits(before, after, before_files=before_files, after_files=after_files)


def server_drift(session: Session, org_id: str, server_id: str) -> dict[str, Any]:
    """The server's latest succeeded audit against the one before it (NotFound before any succeeded)."""
    server = get_server(session, org_id, server_id)
    latest = audit_repository.latest_succeeded(session, org_id, server.id, count=2)
    if not latest:
        raise NotFound(f"server {server.id} has no succeeded audit yet")
    after = latest[0]
    before = latest[1] if len(latest) > 1 else None
    if before is None:
        return compare_audits(None, after)
    before_files, after_files = _files_of(session, before, after)
    return compare_audits(before, after, before_files=before_files, after_files=after_files)
