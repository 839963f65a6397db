"""The embedded default's runner: jobs run on one background thread of this process, their bodies
looked up by name in the registry; a daemon thread sweeps stuck audits and dispatches due fleets
(what beat does with a broker).
"""

from __future__ import annotations

import logging
import threading
from concurrent.futures import ThreadPoolExecutor

from conf.settings import get_settings
from services.jobs.names import DISPATCH_FLEETS, SWEEP_AUDITS, Job
from services.jobs.registry import job_body

logger = logging.getLogger(__name__)

_lock = threading.Lock()
_executor: ThreadPoolExecutor | None = None
_sweeper: threading.Thread | None = None
_stop_sweeper = threading.Event()


def _embedded_executor() -> ThreadPoolExecutor:
    """One background thread: SQLite has one writer anyway, and audits take about a millisecond."""
    global _executor
    with _lock:
        if _executor is None:
            _executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="innotune-audit")
    start_embedded_sweeper()
    return _executor


def submit_jobs(jobs: list[Job]) -> int:
    """Queue the jobs on the background thread, in order; how many (all of them)."""
    executor = _embedded_executor()
    for job in jobs:
        executor.submit(run_job, job)
    return len(jobs)


def run_job(job: Job) -> None:
    """Run one job's body here and now; a failure is logged (a background thread has nobody to tell)."""
    try:
        job_body(job.name)(*job.args)
    except Exception:  # the rows say what happened; the sweeper retries what is stuck
        logger.exception("embedded job %s%s failed", job.name, list(job.args))


def _sweep_forever(interval_seconds: float, stop: threading.Event) -> None:
    while not stop.wait(interval_seconds):
        if not get_settings().embedded:
            return  # a broker was configured since (tests switch settings): beat sweeps now
        run_job(Job(SWEEP_AUDITS, ()))
        run_job(Job(DISPATCH_FLEETS, ()))  # what beat's `fleets.dispatch` does with a broker


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
