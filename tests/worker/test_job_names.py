"""Every job body registered by name has a Celery task of that name, and every task but the ping a body."""

from __future__ import annotations

from services.jobs import (
    DISPATCH_FLEETS,
    PRUNE_AUDITS,
    RUN_AUDIT,
    RUN_AUDIT_BATCH,
    SEND_CALLBACK,
    SWEEP_AUDITS,
)
from services.jobs.registry import registered_jobs


def test_the_worker_has_a_task_for_every_registered_job() -> None:
    """The in-process registry and the Celery worker know the same job names."""
    from worker.app import celery_app
    from worker.tasks import ping

    assert ping.name == "system.ping"

    tasks = {name for name in celery_app.tasks if not name.startswith("celery.")} - {"system.ping"}
    assert (
        set(registered_jobs())
        == tasks
        == {
            RUN_AUDIT,
            RUN_AUDIT_BATCH,
            SEND_CALLBACK,
            SWEEP_AUDITS,
            DISPATCH_FLEETS,
            PRUNE_AUDITS,
        }
    )
