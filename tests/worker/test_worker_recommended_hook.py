"""The suite-wide mariadbd check sees what the Celery worker process renders, not only this process."""

from __future__ import annotations

import json

from services.jobs import RUN_AUDIT
from tests.fixtures.jobs import enqueue_now
from tests.fixtures.recommended_mariadbd import WORKER_LOG
from tests.fixtures.service_data import OrganizationHandle, audit_status, queued_audit, wait_for
from tests.fixtures.worker_process import WorkerProcess


def test_the_worker_hands_its_recommended_files_to_the_session_check(
    worker_process: WorkerProcess, organization: OrganizationHandle
) -> None:
    """An audit the worker runs (a MariaDB 10.11 sysbench upload) appends its recommended file and drop-in to
    WORKER_LOG, which the session reads after each test and puts through the real mariadbd."""
    before = WORKER_LOG.stat().st_size if WORKER_LOG.exists() else 0
    queued = queued_audit(organization)
    enqueue_now(RUN_AUDIT, queued.audit_id)
    wait_for(lambda: audit_status(queued.audit_id) == "succeeded")
    with WORKER_LOG.open() as log:
        log.seek(before)
        texts = [json.loads(line) for line in log]
    assert len(texts) >= 2, texts  # the recommended files and the drop-in
    assert any("[mysqld]" in text and "innodb_buffer_pool_size" in text for text in texts)
