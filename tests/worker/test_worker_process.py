"""A real Celery worker process consumes this run's queue from the real Redis."""

from __future__ import annotations

import time

import redis

from tests.fixtures.real_services import ServiceUrls
from tests.fixtures.worker_process import WorkerProcess


def test_worker_answers_a_ping(worker_process: WorkerProcess) -> None:
    """The worker subprocess is alive and connected to the broker."""
    from celery import Celery

    client = Celery("probe", broker=worker_process.urls.broker_url)
    replies = client.control.ping(destination=[worker_process.node_name], timeout=5)
    assert replies and worker_process.node_name in replies[0]


def test_a_sent_task_is_consumed(worker_process: WorkerProcess, service_settings: ServiceUrls) -> None:
    """A task sent to the run's queue leaves the Redis list once the worker takes it."""
    from worker.tasks import ping

    broker = redis.Redis.from_url(service_settings.broker_url)
    for _ in range(3):
        ping.delay()
    deadline = time.monotonic() + 20
    while broker.llen(service_settings.queue) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert broker.llen(service_settings.queue) == 0
