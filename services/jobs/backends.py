"""Where jobs go: the Celery broker when one is configured, else the embedded in-process runner."""

from __future__ import annotations

from conf.settings import get_settings
from services.jobs import broker
from services.jobs import in_process as embedded
from services.jobs.names import Job


def send_jobs(jobs: list[Job]) -> int:
    """Send committed work's jobs; how many were accepted (never raises)."""
    if get_settings().embedded:
        return embedded.submit_jobs(jobs)
    return broker.send_jobs(jobs)
