"""Running an audit: its start and failure marks, and the run itself.

Each function works in the caller's session and never commits; `services.audits.jobs` puts the
units of work around them for the Celery worker and for the embedded in-process runner.
"""

from __future__ import annotations

from enum import Enum

from sqlalchemy.orm import Session, object_session

from advisor.audit import ADVISOR_VERSION, run_audit
from advisor.errors import InputError
from services.audit_facts import clear_audit_facts
from services.audits.results import succeeded_values
from services.snapshots import audit_inputs
from store.ids import utcnow
from store.models import RESULT_ATTRIBUTES, Audit, AuditStatus
from store.repositories import audits as repository
from store.repositories import fleets as fleet_repository
from store.repositories import snapshots as snapshot_repository

MAX_ERROR_CHARS = 500


class RunDecision(Enum):
    """What a delivered `audits.run` should do."""

    RUN = "run"
    #: the audit is gone or already finished (a duplicate delivery): nothing to do, no callback.
    SKIP = "skip"
    #: too many attempts (the worker died each time): marked failed, the callback is due.
    GAVE_UP = "gave_up"


def short_error(exc: BaseException) -> str:
    """One line for `audit.error`: the exception's type and first line, never a traceback."""
    first_line = (str(exc).strip().splitlines() or [""])[0]
    text = f"{type(exc).__name__}: {first_line}" if first_line else type(exc).__name__
    return text[:MAX_ERROR_CHARS]


def finish(audit: Audit, status: AuditStatus, error: str | None = None) -> None:
    """Mark the audit finished now with this status (and a short error when it failed), and move its
    fleet run's counters in the same transaction (an audit finished before moves from one to the other)."""
    session = object_session(audit)
    if audit.fleet_run_id and session is not None:
        before = AuditStatus(audit.status or AuditStatus.QUEUED)
        if before != status:
            succeeded = (status == AuditStatus.SUCCEEDED) - (before == AuditStatus.SUCCEEDED)
            failed = (status == AuditStatus.FAILED) - (before == AuditStatus.FAILED)
            fleet_repository.count_finished(session, {audit.fleet_run_id: (succeeded, failed)})
    now = utcnow()
    audit.status = status
    audit.error = error[:MAX_ERROR_CHARS] if error else None
    audit.started_at = audit.started_at or now
    audit.finished_at = now
    audit.updated_at = now


def clear_results(audit: Audit) -> None:
    """Forget an earlier run's results (the audit runs again, or failed)."""
    for name in RESULT_ATTRIBUTES:
        setattr(audit, f"stored_{name}", None)
    audit.result_of = audit.result_hash = audit.worst_severity = None
    clear_audit_facts(audit)


def mark_running(session: Session, audit_id: str, *, max_attempts: int) -> RunDecision:
    """Lock the audit and mark it running (one more attempt), unless finished or out of attempts."""
    audit = repository.get_audit_by_id(session, audit_id, for_update=True)
    if audit is None or AuditStatus(audit.status).finished:
        return RunDecision.SKIP
    if audit.attempts >= max_attempts:
        clear_results(audit)
        finish(
            audit,
            AuditStatus.FAILED,
            f"gave up after {audit.attempts} attempts: the worker stopped each time",
        )
        return RunDecision.GAVE_UP
    now = utcnow()
    audit.status = AuditStatus.RUNNING
    audit.attempts += 1
    audit.started_at = now
    audit.finished_at = None
    audit.updated_at = now
    return RunDecision.RUN


def mark_failed(session: Session, audit_id: str, error: str) -> Audit | None:
    """Record that running the audit failed (a bug, a time limit): status failed, a short error."""
    audit = repository.get_audit_by_id(session, audit_id, for_update=True)
    if audit is None:
        return None
    clear_results(audit)
    finish(audit, AuditStatus.FAILED, error)
    return audit


def execute_audit(session: Session, audit_id: str) -> Audit | None:
    """Run the advisor over the audit's snapshot and store the results, replacing earlier ones.

    Bad input is a finished audit: status failed, the parser's `file:line: message` as the error.
    Returns None when the audit no longer exists.
    """
    audit = repository.get_audit_by_id(session, audit_id)
    if audit is None:
        return None
    snapshot = snapshot_repository.get_snapshot_by_id(session, audit.snapshot_id)
    if snapshot is None:  # the foreign key cascades, so only a concurrent delete gets here
        return None
    audit.started_at = audit.started_at or utcnow()
    audit.advisor_version = ADVISOR_VERSION
    try:
        outcome = run_audit(audit_inputs(snapshot.inputs, audit.parameters))
    except InputError as exc:
        clear_results(audit)
        finish(audit, AuditStatus.FAILED, exc.describe())
        return audit
    with session.no_autoflush:  # one UPDATE of the audit at the end, not one more before this read
        previous = repository.previous_succeeded_for(session, [audit.id]).get(audit.id)
    for name, value in succeeded_values(outcome, snapshot.content_hash, previous).items():
        setattr(audit, name, value)
    finish(audit, AuditStatus.SUCCEEDED)
    session.flush()
    return audit
