"""Celery tasks: thin wrappers, named as the jobs are, around the job bodies of `services/*/jobs.py`.
Each takes ids; the body reloads what it needs, calls the services and saves in units of work that
send the jobs they enqueue after their commits.

`audits.run` is acknowledged only when it returns (acks_late) and handed out again when its worker
process dies (reject_on_worker_lost), so a killed worker's audit runs again elsewhere; running an
audit twice replaces its results. Time limits come from the settings (worker/app.py).
"""

from __future__ import annotations

from celery.exceptions import SoftTimeLimitExceeded

from services.audits import batch as audit_batch
from services.audits import jobs as audit_jobs
from services.audits.callbacks import worth_retrying
from services.fleets import jobs as fleet_jobs
from services.jobs import (
    DISPATCH_FLEETS,
    PRUNE_AUDITS,
    RUN_AUDIT,
    RUN_AUDIT_BATCH,
    SEND_CALLBACK,
    SWEEP_AUDITS,
)
from worker.app import celery_app

CALLBACK_RETRIES = 3


@celery_app.task(name="system.ping")
def ping() -> str:
    """A no-op used by operators and tests to see a worker consume from the broker."""
    return "pong"


@celery_app.task(name=RUN_AUDIT, acks_late=True, reject_on_worker_lost=True)
def run_audit(audit_id: str) -> None:
    """Run one audit: mark it running, run the advisor, store findings; then its callback is sent."""
    audit_jobs.run_audit_job(audit_id, time_limit_errors=(SoftTimeLimitExceeded,))


@celery_app.task(name=RUN_AUDIT_BATCH, acks_late=True, reject_on_worker_lost=True)
def run_audit_batch(*audit_ids: str) -> dict[str, int]:
    """Run a chunk of a fleet run's audits: claimed together, stored in one bulk update."""
    report = audit_batch.run_audit_batch(*audit_ids)
    return {"succeeded": report.succeeded, "failed": report.failed, "skipped": report.skipped}


@celery_app.task(name=SWEEP_AUDITS, acks_late=True)
def sweep_audits() -> dict[str, int]:
    """Periodic (beat): re-send audits stuck in queued or running; fail those out of attempts."""
    outcome = audit_jobs.sweep_once()
    return {"resent": len(outcome.resend), "gave_up": len(outcome.gave_up)}


@celery_app.task(name=PRUNE_AUDITS, acks_late=True)
def prune_audits(after: str | None = None) -> dict[str, int]:
    """Periodic (beat): delete the audits servers no longer keep (the retention setting), in batches."""
    report = audit_jobs.prune_once(after)
    return {"servers": report.servers, "deleted": report.deleted}


@celery_app.task(name=SEND_CALLBACK, bind=True, acks_late=True, max_retries=CALLBACK_RETRIES)
def send_audit_callback(self, audit_id: str) -> str | None:  # type: ignore[no-untyped-def]
    """POST the finished audit to its callback URL (5 s timeout); retry later on timeouts and 5xx."""
    status = audit_jobs.deliver_callback(audit_id)
    if status is not None and worth_retrying(status) and self.request.retries < CALLBACK_RETRIES:
        raise self.retry(countdown=2 ** (self.request.retries + 1))
    return status


@celery_app.task(name=DISPATCH_FLEETS, acks_late=True, soft_time_limit=120, time_limit=150)
def dispatch_fleets() -> dict[str, int]:
    """Periodic (beat, every minute) and on demand: start due fleets' re-audits and send their audits.

    Safe to run on several workers at once: servers are claimed with FOR UPDATE SKIP LOCKED.
    """
    totals = fleet_jobs.dispatch_fleets()
    return {"runs_started": totals.runs_started, "dispatched": totals.dispatched, "skipped": totals.skipped}
