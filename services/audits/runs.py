"""Running audits: the task body, its start and failure marks, and the sweeper's decisions.

Each function works in the caller's session and never commits; `services.runner` puts the units
of work around them for the Celery worker and for the embedded in-process queue.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import timedelta
from enum import Enum

from sqlalchemy.orm import Session

from advisor.errors import InputError
from services.drift import clear_audit_facts, record_audit_facts
from store.models import Audit
from store.models._columns import utcnow
from store.repositories import audits as repository
from store.repositories import organizations as organization_repository
from store.repositories import snapshots as snapshot_repository

MAX_ERROR_CHARS = 500
UNFINISHED = ("queued", "running")
FINISHED = ("succeeded", "failed")
SWEEP_BATCH = 500


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


def _finish(audit: Audit, status: str, error: str | None = None) -> None:
    now = utcnow()
    audit.status = status
    audit.error = error[:MAX_ERROR_CHARS] if error else None
    audit.started_at = audit.started_at or now
    audit.finished_at = now
    audit.updated_at = now


def _clear_results(audit: Audit) -> None:
    audit.findings = audit.diff = audit.mycnf = audit.warnings = audit.worst_severity = None
    audit.figures = None
    clear_audit_facts(audit)


def mark_running(session: Session, audit_id: str, *, max_attempts: int) -> RunDecision:
    """Lock the audit and mark it running (one more attempt), unless finished or out of attempts."""
    audit = repository.get_audit_by_id(session, audit_id, for_update=True)
    if audit is None or audit.status in FINISHED:
        return RunDecision.SKIP
    if audit.attempts >= max_attempts:
        _clear_results(audit)
        _finish(audit, "failed", f"gave up after {audit.attempts} attempts: the worker stopped each time")
        return RunDecision.GAVE_UP
    now = utcnow()
    audit.status = "running"
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
    _clear_results(audit)
    _finish(audit, "failed", error)
    return audit


def execute_audit(session: Session, audit_id: str) -> Audit | None:
    """Run the advisor over the audit's snapshot and store the results, replacing earlier ones.

    Bad input is a finished audit: status failed, the parser's `file:line: message` as the error.
    Returns None when the audit no longer exists.
    """
    from advisor.audit import ADVISOR_VERSION, run_audit
    from services.snapshots import audit_inputs

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
        _clear_results(audit)
        _finish(audit, "failed", exc.describe())
        return audit
    result = outcome.to_dict()
    audit.findings = result["findings"]
    audit.diff = result["diff"]
    audit.mycnf = result["mycnf"]
    audit.warnings = result["warnings"]
    audit.figures = result["figures"]
    audit.worst_severity = outcome.worst_severity
    audit.flavor = result["server"]["flavor"]
    audit.version = result["server"]["version"]
    record_audit_facts(session, audit, result, snapshot.content_hash)
    _finish(audit, "succeeded")
    session.flush()
    return audit


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
    """Decide for each stuck audit: re-send it (and wait another period) or, out of attempts, fail it."""
    cutoff = utcnow() - timedelta(seconds=older_than_seconds)
    outcome = SweepOutcome()
    for audit in repository.stuck_audits(
        session, statuses=UNFINISHED, updated_before=cutoff, limit=SWEEP_BATCH, lock=True
    ):
        if audit.attempts >= max_attempts:
            _clear_results(audit)
            _finish(audit, "failed", f"gave up after {audit.attempts} attempts: the audit never finished")
            outcome.gave_up.append(audit.id)
        else:
            audit.updated_at = utcnow()  # the next sweep waits a whole period before re-sending again
            outcome.resend.append(audit.id)
    session.flush()
    return outcome


@dataclass(frozen=True)
class CallbackTarget:
    url: str
    secret: str
    payload: dict[str, object]


def callback_target(session: Session, audit_id: str) -> CallbackTarget | None:
    """The finished audit's callback (URL, the organisation's signing secret, the body), if it has one."""
    from services.audit_view import audit_as_dict

    audit = repository.get_audit_by_id(session, audit_id)
    if audit is None or audit.callback_url is None or audit.status not in FINISHED:
        return None
    organization = organization_repository.get_organization(session, audit.organization_id)
    if organization is None:
        return None
    return CallbackTarget(audit.callback_url, organization.webhook_secret, audit_as_dict(audit))


def record_callback_status(session: Session, audit_id: str, status: str) -> None:
    """Keep the outcome of the last callback attempt on the audit."""
    audit = repository.get_audit_by_id(session, audit_id)
    if audit is not None:
        audit.callback_status = status[:64]
