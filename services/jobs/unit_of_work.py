"""The unit of work of services: one transaction, and the jobs it enqueued sent after its commit."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from sqlalchemy.orm import Session

from services.jobs.buffer import collecting_jobs
from store.db import unit_of_work as transaction


@contextmanager
def unit_of_work() -> Iterator[Session]:
    """A session committed when the block ends cleanly (rolled back otherwise); then its jobs are sent.

    The worker's tasks, the dispatcher's chunks, the embedded runner and the API's long-polling
    endpoints all work in one of these; the API's other requests in `api.deps.DbSession`, the same.
    """
    with collecting_jobs() as jobs:
        with transaction() as session:
            yield session
        jobs.flush()
