"""Task functions. Each takes ids, reloads what it needs, calls a service and saves."""

from __future__ import annotations

from worker.app import celery_app


@celery_app.task(name="system.ping")
def ping() -> str:
    """A no-op used by operators and tests to see a worker consume from the broker."""
    return "pong"
