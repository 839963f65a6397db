"""The Celery client: publishes jobs by task name on the configured queue. It imports no job body
and no worker code; `worker/tasks.py` holds the tasks of those names.

Publishing never raises: when the broker is down the rows stay queued in the database and the
sweeper re-sends them later.
"""

from __future__ import annotations

import logging
import threading
from typing import TYPE_CHECKING, Any

from conf.logging import REQUEST_ID_HEADER, request_id_var
from conf.settings import get_settings
from services.jobs.names import RUN_AUDIT_BATCH, Job

if TYPE_CHECKING:
    from celery import Celery

logger = logging.getLogger(__name__)
#: jobs that go to the fleet queue, which workers serve after the main one.
BULK_JOBS = frozenset({RUN_AUDIT_BATCH})

# A publish to a broker that is down gives up after about half a second: the sweeper has the audit.
_PUBLISH_RETRY = {"max_retries": 2, "interval_start": 0, "interval_step": 0.2, "interval_max": 0.3}

_lock = threading.Lock()
_clients: dict[tuple[str, str], Celery] = {}


def _client(broker_url: str, queue: str) -> Celery:
    """A Celery client (no worker code imported) for the broker, one per process."""
    with _lock:
        client = _clients.get((broker_url, queue))
        if client is None:
            from celery import Celery

            client = Celery("innotune-client", broker=broker_url, set_as_current=False)
            client.conf.update(
                task_default_queue=queue,
                broker_connection_timeout=2,
                broker_transport_options={"socket_connect_timeout": 2, "socket_timeout": 5},
            )
            _clients[(broker_url, queue)] = client
        return client


def send_task(name: str, args: list[Any]) -> bool:
    """Publish one task by name now; False (logged) when the broker cannot take it."""
    return send_jobs([Job(name, tuple(args))]) == 1


def send_jobs(jobs: list[Job]) -> int:
    """Publish the jobs over one broker connection; how many were sent (the rest wait for the sweeper)."""
    if not jobs:
        return 0
    settings = get_settings()
    assert settings.celery_broker_url is not None
    client = _client(settings.celery_broker_url, settings.celery_queue)
    sent = 0
    # The worker logs its run of the job under the id of the request that queued it.
    request_id = request_id_var.get()
    headers = {REQUEST_ID_HEADER: request_id} if request_id else None
    try:
        with client.producer_or_acquire() as producer:
            for job in jobs:
                client.send_task(
                    job.name,
                    args=list(job.args),
                    headers=headers,
                    queue=settings.celery_fleet_queue if job.name in BULK_JOBS else settings.celery_queue,
                    producer=producer,
                    retry=True,
                    retry_policy=_PUBLISH_RETRY,
                )
                sent += 1
    except Exception as exc:  # any broker trouble: the rows in the database are the source of truth
        logger.warning(
            "sent %d of %d job(s) (%s): %s; the sweeper will re-send the rest",
            sent,
            len(jobs),
            ", ".join(sorted({job.name for job in jobs})),
            exc,
        )
    return sent
