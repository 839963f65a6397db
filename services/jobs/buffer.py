"""The enqueue buffer: jobs a unit of work asked for, sent only once it has committed.

A unit of work opens a buffer (`collecting_jobs`) as the current one of its context; `enqueue`
appends to it; the unit of work sends it after a clean commit and drops it after a rollback, so a
worker never looks for a row that is not there yet, and work that was rolled back is never sent.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field

from services.jobs.backends import send_jobs
from services.jobs.names import Job

_current: ContextVar[JobBuffer | None] = ContextVar("innotune_job_buffer", default=None)


@dataclass
class JobBuffer:
    """The jobs of one unit of work, in the order they were enqueued."""

    jobs: list[Job] = field(default_factory=list)

    def flush(self) -> int:
        """Send the jobs (never raises: what the broker refuses, the sweeper re-sends); how many went."""
        jobs, self.jobs = self.jobs, []
        return send_jobs(jobs) if jobs else 0


def enqueue(name: str, *args: str) -> None:
    """Ask for job `name` with these ids once the current unit of work has committed."""
    buffer = _current.get()
    if buffer is None:
        raise RuntimeError(f"enqueue({name!r}) outside a unit of work: use services.jobs.unit_of_work")
    buffer.jobs.append(Job(name, tuple(args)))


@contextmanager
def collecting_jobs() -> Iterator[JobBuffer]:
    """Make a fresh buffer the current one until the block ends; the caller flushes it after commit."""
    buffer = JobBuffer()
    token = _current.set(buffer)
    try:
        yield buffer
    finally:
        try:
            _current.reset(token)
        except ValueError:  # closed from a copy of the context it was opened in (an async dependency)
            _current.set(None)
