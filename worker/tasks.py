"""Task functions. Each takes ids, reloads what it needs, calls a service and saves.

`audits.run` is acknowledged only when it returns (acks_late) and handed out again when its worker
process dies (reject_on_worker_lost), so a killed worker's audit runs again elsewhere; running an
audit twice replaces its results. Time limits come from the settings (worker/app.py).
"""

from __future__ import annotations

from celery.exceptions import SoftTimeLimitExceeded

from worker.app import celery_app

CALLBACK_RETRIES = 3


@celery_app.task(name="system.ping")
def ping() -> str:
    """A no-op used by operators and tests to see a worker consume from the broker."""
    return "pong"


@celery_app.task(name="audits.run", acks_late=True, reject_on_worker_lost=True)
def run_audit(audit_id: str) -> None:
    """Run one audit: mark it running, run the advisor, store findings; then send its callback."""
    from services.queue import enqueue_callback
    from services.runner import run_audit_job

    if run_audit_job(audit_id, time_limit_errors=(SoftTimeLimitExceeded,)):
        enqueue_callback(audit_id)


@celery_app.task(name="audits.sweep", acks_late=True)
def sweep_audits() -> dict[str, int]:
    """Periodic (beat): re-send audits stuck in queued or running; fail those out of attempts."""
    from services.runner import sweep_once

    outcome = sweep_once()
    return {"resent": len(outcome.resend), "gave_up": len(outcome.gave_up)}


@celery_app.task(name="audits.callback", bind=True, acks_late=True, max_retries=CALLBACK_RETRIES)
def send_audit_callback(self, audit_id: str) -> str | None:  # type: ignore[no-untyped-def]
    """POST the finished audit to its callback URL (5 s timeout); retry later on timeouts and 5xx."""
    from services.callbacks import worth_retrying
    from services.runner import deliver_callback

    status = deliver_callback(audit_id)
    if status is not None and worth_retrying(status) and self.request.retries < CALLBACK_RETRIES:
        raise self.retry(countdown=2 ** (self.request.retries + 1))
    return status


@celery_app.task(name="fleets.dispatch", acks_late=True, soft_time_limit=120, time_limit=150)
def dispatch_fleets() -> dict[str, int]:
    """Periodic (beat, every minute) and on demand: start due fleets' re-audits and send their audits.

    Safe to run on several workers at once: servers are claimed with FOR UPDATE SKIP LOCKED.
    """
    from services.fleet_jobs import dispatch_fleets as dispatch

    totals = dispatch()
    return {"runs_started": totals.runs_started, "dispatched": totals.dispatched, "skipped": totals.skipped}
