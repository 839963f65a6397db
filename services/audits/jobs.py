"""The audit jobs' bodies — `audits.run`, `audits.callback`, `audits.sweep` — with their units of work.

The services never commit; these bodies are their callers when no HTTP request is: they commit
"running" before the advisor runs (so the status is visible), the results after, and a failure
mark when running raised. Nothing here raises for a failed audit: the audit row says it failed.
The Celery tasks of the same names (worker/tasks.py) and the embedded runner call these.
"""

from __future__ import annotations

import logging
import time

from conf.settings import get_settings
from services.audits.callbacks import callback_target, record_callback_status, send_callback
from services.audits.retention import PruneReport, prune_audits
from services.audits.runs import RunDecision, execute_audit, mark_failed, mark_running, short_error
from services.audits.sweep import SweepOutcome, sweep_stuck_audits
from services.jobs import PRUNE_AUDITS, RUN_AUDIT, SEND_CALLBACK, SWEEP_AUDITS, enqueue, unit_of_work
from services.jobs.registry import job
from services.telemetry import audit_finished

logger = logging.getLogger(__name__)


@job(RUN_AUDIT)
def run_audit_job(audit_id: str, *, time_limit_errors: tuple[type[BaseException], ...] = ()) -> bool:
    """Mark the audit running, run it, store the outcome; True when it ended with a callback due
    (then enqueued).

    `time_limit_errors` are the exceptions a time limit raises inside the job (Celery's
    SoftTimeLimitExceeded): they fail the audit with a message saying so.
    """
    settings = get_settings()
    with unit_of_work() as session:
        decision = mark_running(session, audit_id, max_attempts=settings.audit_max_attempts)
        if decision is RunDecision.GAVE_UP:
            enqueue(SEND_CALLBACK, audit_id)
    if decision is RunDecision.SKIP:
        return False
    if decision is RunDecision.GAVE_UP:
        logger.warning("audit %s failed: out of attempts", audit_id)
        return True
    started = time.perf_counter()
    try:
        with unit_of_work() as session:
            audit = execute_audit(session, audit_id)
            callback_due = audit is not None and audit.callback_url is not None
            if callback_due:
                enqueue(SEND_CALLBACK, audit_id)
    except time_limit_errors:
        limit = settings.audit_soft_time_limit_seconds
        audit_finished("failed", time.perf_counter() - started)
        return _fail(audit_id, f"the audit ran past its time limit of {limit:g} s")
    except Exception as exc:  # a bug or an outage: the audit must say failed, the log keeps the traceback
        logger.exception("audit %s raised while running", audit_id)
        audit_finished("failed", time.perf_counter() - started)
        return _fail(audit_id, short_error(exc))
    if audit is not None:
        seconds = time.perf_counter() - started
        audit_finished(audit.status, seconds)
        logger.info(
            "audit %s %s in %.3f s",
            audit_id,
            audit.status,
            seconds,
            extra={"audit_id": audit_id, "status": audit.status, "duration_ms": round(seconds * 1000, 3)},
        )
    return callback_due


def _fail(audit_id: str, error: str) -> bool:
    with unit_of_work() as session:
        audit = mark_failed(session, audit_id, error)
        callback_due = audit is not None and audit.callback_url is not None
        if callback_due:
            enqueue(SEND_CALLBACK, audit_id)
        return callback_due


@job(SEND_CALLBACK)
def deliver_callback(audit_id: str) -> str | None:
    """POST the finished audit to its callback URL and record the outcome; None when it has none."""
    with unit_of_work() as session:
        target = callback_target(session, audit_id)
    if target is None:
        return None
    status = send_callback(
        target.payload,
        target.url,
        target.secret,
        message_id=target.message_id,
        timeout_seconds=get_settings().callback_timeout_seconds,
    )
    with unit_of_work() as session:
        record_callback_status(session, audit_id, status)
    logger.info("audit %s callback: %s", audit_id, status)
    return status


@job(SWEEP_AUDITS)
def sweep_once() -> SweepOutcome:
    """Re-send audits stuck in queued or running; fail those out of attempts and send their callbacks."""
    settings = get_settings()
    with unit_of_work() as session:
        outcome = sweep_stuck_audits(
            session, older_than_seconds=settings.sweep_after_seconds, max_attempts=settings.audit_max_attempts
        )
    if outcome.resend or outcome.gave_up:
        logger.warning(
            "sweeper re-sent %d audit(s), gave up on %d", len(outcome.resend), len(outcome.gave_up)
        )
    return outcome


@job(PRUNE_AUDITS)
def prune_once(after: str | None = None) -> PruneReport:
    """Apply the retention setting to every server's audits; hand over to a fresh pass after a minute."""
    keep = get_settings().audit_retention_keep
    if keep <= 0:
        return PruneReport()
    report = prune_audits(keep, after=after)
    if report.resume_after is not None:
        with unit_of_work():
            enqueue(PRUNE_AUDITS, report.resume_after)
    if report.deleted:
        logger.info("retention: %d audit(s) of %d server(s) deleted", report.deleted, report.servers)
    return report
