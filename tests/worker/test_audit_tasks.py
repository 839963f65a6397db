"""End to end: audits submitted through the services are finished by the real worker process."""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import timedelta

from sqlalchemy import update
from standardwebhooks.webhooks import Webhook

from services.jobs import RUN_AUDIT
from services.jobs import SWEEP_AUDITS as SWEEP_TASK
from services.jobs.broker import send_task
from store.db import unit_of_work
from store.ids import utcnow
from store.models import Audit
from tests.fixtures.callbacks import CallbackReceiver
from tests.fixtures.jobs import enqueue_now
from tests.fixtures.real_services import ServiceUrls
from tests.fixtures.service_data import OrganizationHandle, audit_status, queued_audit, wait_for
from tests.fixtures.worker_process import WorkerProcess


def _audit(audit_id: str) -> Audit:
    with unit_of_work() as session:
        audit = session.get(Audit, audit_id)
        assert audit is not None
        session.expunge(audit)
        return audit


def test_submitted_audit_is_finished_by_the_worker(
    worker_process: WorkerProcess, organization: OrganizationHandle
) -> None:
    """Commit a queued audit, enqueue it: the worker marks it succeeded with findings and timings."""
    queued = queued_audit(organization)
    enqueue_now(RUN_AUDIT, queued.audit_id)
    wait_for(lambda: audit_status(queued.audit_id) == "succeeded")
    audit = _audit(queued.audit_id)
    assert audit.findings and audit.worst_severity and audit.attempts == 1
    assert audit.started_at is not None and audit.finished_at is not None
    assert audit.created_at <= audit.started_at <= audit.finished_at


def test_callback_arrives_signed(
    worker_process: WorkerProcess, organization: OrganizationHandle, callback_receiver: CallbackReceiver
) -> None:
    """When the audit ends, its callback URL receives the audit, signed with the organisation's secret."""
    queued = queued_audit(organization, callback_url=callback_receiver.url)
    enqueue_now(RUN_AUDIT, queued.audit_id)
    assert callback_receiver.arrived.wait(30), "no callback arrived"
    (call,) = callback_receiver.received
    Webhook(organization.webhook_secret).verify(call.body, call.headers)  # raises when forged
    body = json.loads(call.body)
    assert (body["id"], body["status"]) == (queued.audit_id, "succeeded")
    assert body["findings"] == _audit(queued.audit_id).findings
    wait_for(lambda: _audit(queued.audit_id).callback_status == "delivered 200")


def test_broker_outage_at_submit_is_recovered_by_the_sweeper(
    worker_process: WorkerProcess,
    organization: OrganizationHandle,
    service_settings: ServiceUrls,
    use_env: Callable[..., None],
) -> None:
    """An audit whose task could not be sent stays queued; the sweeper task re-sends it and it finishes."""
    queued = queued_audit(organization)
    use_env(CELERY_BROKER_URL="redis://127.0.0.1:9/0")  # nothing listens on the discard port
    enqueue_now(RUN_AUDIT, queued.audit_id)
    use_env(CELERY_BROKER_URL=service_settings.broker_url)
    assert audit_status(queued.audit_id) == "queued"
    with unit_of_work() as session:  # as if the outage had lasted ten minutes
        session.execute(
            update(Audit)
            .where(Audit.id == queued.audit_id)
            .values(updated_at=utcnow() - timedelta(minutes=10), created_at=utcnow() - timedelta(minutes=10))
        )
    assert send_task(SWEEP_TASK, [])
    wait_for(lambda: audit_status(queued.audit_id) == "succeeded")
