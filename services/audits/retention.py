"""Retention: the audits a server keeps once newer ones exist (job `audits.prune`, sent by beat).

A server keeps its newest `keep` audits, every audit whose findings changed from the one before it
(the first one too), anything still queued or running, and every audit whose stored results a kept
audit refers to. The rest go, servers taken in batches of one transaction each, so drift (the two
newest succeeded audits) and history (every change of findings) answer as before.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy.orm import Session

from services.jobs import unit_of_work
from store.models import UNFINISHED_STATUSES, AuditStatus
from store.repositories import audits as audit_repository

#: drift compares the two newest succeeded audits: fewer could not answer it.
MIN_KEEP = 2


@dataclass
class PruneReport:
    servers: int = 0
    deleted: int = 0
    batches: int = 0
    #: the server id to carry on after when the time budget ran out (None: every server was seen).
    resume_after: str | None = None


def _findings_changed(audit: Any) -> bool:
    if audit.status != AuditStatus.SUCCEEDED:
        return False
    changes = audit.changes
    return changes is None or bool(changes.get("new")) or bool(changes.get("resolved"))


def audits_to_delete(audits: Sequence[Any], keep: int) -> list[str]:
    """Of one server's audits (newest first, with id, status, changes, result_of): the ids that go."""
    kept: set[str] = set()
    for position, audit in enumerate(audits):
        if position < keep or audit.status in UNFINISHED_STATUSES or _findings_changed(audit):
            kept.add(audit.id)
    kept |= {audit.result_of for audit in audits if audit.id in kept and audit.result_of}
    return [audit.id for audit in audits if audit.id not in kept]


def prune_batch(session: Session, after: str | None, servers: int, keep: int) -> tuple[int, int, str | None]:
    """One batch of servers after `after` (by id): (servers seen, audits deleted, last server id)."""
    server_ids = audit_repository.server_ids_after(session, after, servers)
    if not server_ids:
        return 0, 0, None
    by_server: dict[str, list[Any]] = {}
    for row in audit_repository.audit_lineage(session, server_ids):
        by_server.setdefault(row.server_id, []).append(row)
    doomed = [audit_id for rows in by_server.values() for audit_id in audits_to_delete(rows, keep)]
    audit_repository.delete_audits(session, doomed)
    return len(server_ids), len(doomed), server_ids[-1]


def prune_audits(
    keep: int, *, servers_per_batch: int = 500, after: str | None = None, budget_seconds: float = 60.0
) -> PruneReport:
    """Prune every server's audits, a batch of servers per transaction, until done or out of time."""
    keep = max(keep, MIN_KEEP)
    report = PruneReport()
    deadline = time.monotonic() + budget_seconds
    while True:
        with unit_of_work() as session:
            seen, deleted, after = prune_batch(session, after, servers_per_batch, keep)
        report.servers += seen
        report.deleted += deleted
        report.batches += 1
        if after is None or seen < servers_per_batch:
            return report
        if time.monotonic() > deadline:
            report.resume_after = after
            return report
