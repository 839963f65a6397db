"""The sweeper's decisions: audits stuck in queued or running are re-sent, or, out of attempts, failed.

Beat runs `audits.sweep` periodically (the embedded default, a daemon thread). A broker that was
down when an audit was submitted leaves it queued; this is what sends it later.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import timedelta

from sqlalchemy.orm import Session

from services.audits.runs import clear_results, finish
from services.jobs import RUN_AUDIT, SEND_CALLBACK, enqueue
from store.ids import utcnow
from store.models import UNFINISHED_STATUSES, AuditStatus
from store.repositories import audits as repository

SWEEP_BATCH = 500
UNFINISHED = tuple(sorted(UNFINISHED_STATUSES))


def find_stuck_audits(session: Session, *, older_than_seconds: float) -> list[str]:
    """Ids of audits queued or running with no change for longer than `older_than_seconds`."""
    cutoff = utcnow() - timedelta(seconds=older_than_seconds)
    rows = repository.stuck_audits(
        session, statuses=UNFINISHED, updated_before=cutoff, limit=SWEEP_BATCH, lock=False
    )
    return [audit.id for audit in rows]


@dataclass
class SweepOutcome:
    """What one sweep did: audits to re-send, and audits it gave up on (their callbacks are due)."""

    resend: list[str] = field(default_factory=list)
    gave_up: list[str] = field(default_factory=list)


def sweep_stuck_audits(session: Session, *, older_than_seconds: float, max_attempts: int) -> SweepOutcome:
    """Decide for each stuck audit: re-send it (and wait another period) or, out of attempts, fail it
    (its callback is then due). Enqueues the re-sent audits' runs and the callbacks."""
    cutoff = utcnow() - timedelta(seconds=older_than_seconds)
    outcome = SweepOutcome()
    for audit in repository.stuck_audits(
        session, statuses=UNFINISHED, updated_before=cutoff, limit=SWEEP_BATCH, lock=True
    ):
        if audit.attempts >= max_attempts:
            clear_results(audit)
            finish(
                audit,
                AuditStatus.FAILED,
                f"gave up after {audit.attempts} attempts: the audit never finished",
            )
            outcome.gave_up.append(audit.id)
            enqueue(SEND_CALLBACK, audit.id)
        else:
            audit.updated_at = utcnow()  # the next sweep waits a whole period before re-sending again
            outcome.resend.append(audit.id)
            enqueue(RUN_AUDIT, audit.id)
    session.flush()
    return outcome
