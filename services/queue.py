"""Hand audits to workers: by task name through the broker, or in-process in the embedded default.

The caller commits the queued audit first, then calls `enqueue_audit`. Sending never raises: when
the broker is down the audit stays queued in the database and the sweeper re-sends it later.
"""

from __future__ import annotations

import logging
import threading
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING, Any

from conf.settings import get_settings

if TYPE_CHECKING:
    from celery import Celery

logger = logging.getLogger(__name__)

RUN_TASK = "audits.run"
CALLBACK_TASK = "audits.callback"
SWEEP_TASK = "audits.sweep"
DISPATCH_TASK = "fleets.dispatch"
# A publish to a broker that is down gives up after about half a second: the sweeper has the audit.
_PUBLISH_RETRY = {"max_retries": 2, "interval_start": 0, "interval_step": 0.2, "interval_max": 0.3}

_lock = threading.Lock()
_clients: dict[tuple[str, str], Celery] = {}
_executor: ThreadPoolExecutor | None = None
_sweeper: threading.Thread | None = None


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
    """Publish a task by name on the configured queue; False (logged) when the broker cannot take it."""
    settings = get_settings()
    assert settings.celery_broker_url is not None
    try:
        _client(settings.celery_broker_url, settings.celery_queue).send_task(
            name, args=args, queue=settings.celery_queue, retry=True, retry_policy=_PUBLISH_RETRY
        )
    except Exception as exc:  # any broker trouble: the row in the database is the source of truth
        logger.warning("could not send %s%s: %s; the sweeper will re-send it", name, args, exc)
        return False
    return True


def enqueue_audit(audit_id: str) -> None:
    """Send `audits.run` for a committed audit; in the embedded default run it on a background thread."""
    if get_settings().embedded:
        _embedded_executor().submit(_run_in_process, audit_id)
        return
    send_task(RUN_TASK, [audit_id])


def send_tasks(name: str, args_list: list[list[Any]]) -> int:
    """Publish many tasks over one broker connection; how many were sent (the rest wait for the sweeper)."""
    if not args_list:
        return 0
    settings = get_settings()
    assert settings.celery_broker_url is not None
    client = _client(settings.celery_broker_url, settings.celery_queue)
    sent = 0
    try:
        with client.producer_or_acquire() as producer:
            for args in args_list:
                client.send_task(
                    name,
                    args=args,
                    queue=settings.celery_queue,
                    producer=producer,
                    retry=True,
                    retry_policy=_PUBLISH_RETRY,
                )
                sent += 1
    except Exception as exc:  # broker trouble: the audits are queued in the database, the sweeper re-sends
        logger.warning(
            "sent %d of %d %s tasks: %s; the sweeper will re-send the rest", sent, len(args_list), name, exc
        )
    return sent


def enqueue_audits(audit_ids: list[str]) -> int:
    """Send `audits.run` for many committed audits (a fleet run's chunk) over one connection."""
    if get_settings().embedded:
        for audit_id in audit_ids:
            _embedded_executor().submit(_run_in_process, audit_id)
        return len(audit_ids)
    return send_tasks(RUN_TASK, [[audit_id] for audit_id in audit_ids])


def enqueue_dispatch() -> None:
    """Ask for a dispatcher pass now (a fleet re-audit started by hand), rather than at the next minute."""
    if get_settings().embedded:
        _embedded_executor().submit(_dispatch_in_process)
        return
    send_task(DISPATCH_TASK, [])


def enqueue_callback(audit_id: str) -> None:
    """Send `audits.callback` for a finished audit (in-process in the embedded default)."""
    if get_settings().embedded:
        _embedded_executor().submit(_callback_in_process, audit_id)
        return
    send_task(CALLBACK_TASK, [audit_id])


# ---------------------------------------------------------------------- embedded default
def _embedded_executor() -> ThreadPoolExecutor:
    """One background thread: SQLite has one writer anyway, and audits take about a millisecond."""
    global _executor
    with _lock:
        if _executor is None:
            _executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="innotune-audit")
    start_embedded_sweeper()
    return _executor


def _run_in_process(audit_id: str) -> None:
    from services.runner import deliver_callback, run_audit_job

    try:
        if run_audit_job(audit_id):
            deliver_callback(audit_id)
    except Exception:  # a background thread has nobody to raise to: log, the sweeper retries
        logger.exception("embedded run of audit %s failed", audit_id)


def _dispatch_in_process() -> None:
    from services.fleet_jobs import dispatch_fleets

    try:
        dispatch_fleets()
    except Exception:
        logger.exception("embedded fleet dispatch failed")


def _callback_in_process(audit_id: str) -> None:
    from services.runner import deliver_callback

    try:
        deliver_callback(audit_id)
    except Exception:
        logger.exception("embedded callback of audit %s failed", audit_id)


def _sweep_forever(interval_seconds: float, stop: threading.Event) -> None:
    from services.runner import sweep_once

    while not stop.wait(interval_seconds):
        if not get_settings().embedded:
            return  # a broker was configured since (tests switch settings): beat sweeps now
        try:
            sweep_once()
        except Exception:
            logger.exception("embedded sweep failed")
        _dispatch_in_process()  # what beat's `fleets.dispatch` does with a broker


_stop_sweeper = threading.Event()


def start_embedded_sweeper() -> None:
    """In the embedded default, sweep stuck audits on a daemon thread (what beat does with a broker)."""
    global _sweeper
    settings = get_settings()
    if not settings.embedded:
        return
    with _lock:
        if _sweeper is None or not _sweeper.is_alive():
            _sweeper = threading.Thread(
                target=_sweep_forever,
                args=(settings.sweep_interval_seconds, _stop_sweeper),
                name="innotune-sweeper",
                daemon=True,
            )
            _sweeper.start()


def wait_for_embedded_work(timeout_seconds: float = 30.0) -> None:
    """Block until the in-process queue has run what was submitted so far (tests, CLI commands)."""
    with _lock:
        executor = _executor
    if executor is not None:
        executor.submit(lambda: None).result(timeout=timeout_seconds)
