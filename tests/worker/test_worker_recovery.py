"""A worker killed in the middle of an audit loses nothing: acks_late and reject_on_worker_lost.

To catch the worker mid-task without a test hook, the test holds a row lock on the audit: the task
has been delivered (not yet acknowledged) and waits on the lock when the worker is killed.
These tests use a worker of their own, on a queue of their own, with a short broker visibility
timeout so that a restarted worker gets the dead worker's unacknowledged task back within seconds.
"""

from __future__ import annotations

import os
import signal
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
import redis
from sqlalchemy import Connection, create_engine, text

from services.jobs import RUN_AUDIT
from store.db import unit_of_work
from store.models import Audit
from tests.fixtures.jobs import enqueue_now
from tests.fixtures.real_services import RUN_ID, ServiceUrls
from tests.fixtures.service_data import audit_status, make_organization, queued_audit, wait_for
from tests.fixtures.worker_process import WorkerProcess

VISIBILITY_TIMEOUT_SECONDS = 3


class RecoveryWorker(WorkerProcess):
    @property
    def node_name(self) -> str:
        return f"innotune-recovery-{RUN_ID}@localhost"


@pytest.fixture(scope="module")
def recovery_worker(
    service_urls: ServiceUrls, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[RecoveryWorker]:
    urls = ServiceUrls(service_urls.database_url, service_urls.broker_url, f"{service_urls.queue}-recovery")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("INNOTUNE_BROKER_VISIBILITY_TIMEOUT", str(VISIBILITY_TIMEOUT_SECONDS))
        handle = RecoveryWorker(urls, tmp_path_factory.mktemp("recovery") / "worker.log")
        handle.start()
        try:
            yield handle
        finally:
            handle.stop()


@pytest.fixture
def recovery_settings(recovery_worker: RecoveryWorker, use_env: Callable[..., None]) -> ServiceUrls:
    urls = recovery_worker.urls
    use_env(
        DATABASE_URL=urls.database_url, CELERY_BROKER_URL=urls.broker_url, INNOTUNE_CELERY_QUEUE=urls.queue
    )
    return urls


def _lock_audit(connection: Connection, audit_id: str) -> None:
    connection.execute(text("SELECT id FROM audits WHERE id = :id FOR UPDATE"), {"id": audit_id})


def _a_backend_waits_on_a_lock(connection: Connection) -> bool:
    query = "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'"
    return bool(connection.execute(text(query)).scalar())


def _children(pid: int) -> list[int]:
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            found.append(int(stat.parent.name))
    return found


def _audit(audit_id: str) -> Audit:
    with unit_of_work() as session:
        audit = session.get(Audit, audit_id)
        assert audit is not None
        session.expunge(audit)
        return audit


def _deliver_and_hold(urls: ServiceUrls, audit_id: str) -> tuple[Connection, Connection]:
    """Lock the audit row, send its task, and wait until the worker is stuck on the lock."""
    engine = create_engine(urls.database_url)
    holder = engine.connect()
    # Autocommit: pg_stat_activity is snapshotted per transaction, each poll needs a new one.
    observer = engine.connect().execution_options(isolation_level="AUTOCOMMIT")
    holder.begin()
    _lock_audit(holder, audit_id)
    enqueue_now(RUN_AUDIT, audit_id)
    wait_for(lambda: _a_backend_waits_on_a_lock(observer), timeout=30)
    return holder, observer


def test_killed_pool_process_is_replaced_and_the_audit_runs_again(
    recovery_worker: RecoveryWorker, recovery_settings: ServiceUrls
) -> None:
    """kill -9 of the process running the task: the task is requeued (reject_on_worker_lost) and finishes."""
    queued = queued_audit(make_organization())
    holder, observer = _deliver_and_hold(recovery_settings, queued.audit_id)
    assert recovery_worker.process is not None
    (pool_process,) = _children(recovery_worker.process.pid)  # --concurrency 1
    os.kill(pool_process, signal.SIGKILL)
    holder.rollback()
    holder.close()
    observer.close()
    wait_for(lambda: audit_status(queued.audit_id) == "succeeded", timeout=60)
    audit = _audit(queued.audit_id)
    assert audit.findings and audit.attempts == 1  # the killed attempt never committed "running"
    assert "WorkerLostError" in recovery_worker.log_path.read_text()


def test_killed_worker_task_is_delivered_again_after_restart(
    recovery_worker: RecoveryWorker, recovery_settings: ServiceUrls
) -> None:
    """kill -9 of the whole worker before it acknowledged: the task waits unacked, a restart runs it."""
    queued = queued_audit(make_organization())
    holder, observer = _deliver_and_hold(recovery_settings, queued.audit_id)
    broker = redis.Redis.from_url(recovery_settings.broker_url)
    assert broker.llen(recovery_settings.queue) == 0  # taken off the queue...
    assert any(queued.audit_id.encode() in value for value in broker.hvals("unacked"))  # ...not acknowledged
    recovery_worker.kill()
    holder.rollback()
    holder.close()
    observer.close()
    assert audit_status(queued.audit_id) == "queued"
    time.sleep(VISIBILITY_TIMEOUT_SECONDS + 0.5)
    recovery_worker.start()
    wait_for(lambda: audit_status(queued.audit_id) == "succeeded", timeout=60)
    assert _audit(queued.audit_id).findings
