"""The job names (Celery task names, and the keys of the in-process registry) and a job's shape."""

from __future__ import annotations

from typing import NamedTuple

RUN_AUDIT = "audits.run"
#: a chunk of a fleet run's audits in one task (ids as the arguments)
RUN_AUDIT_BATCH = "audits.run_batch"
SEND_CALLBACK = "audits.callback"
SWEEP_AUDITS = "audits.sweep"
#: retention: delete the audits a server no longer keeps (beat, hourly by default)
PRUNE_AUDITS = "audits.prune"
DISPATCH_FLEETS = "fleets.dispatch"


class Job(NamedTuple):
    """A job by name with its arguments (ids only: a job never receives ORM objects)."""

    name: str
    args: tuple[str, ...]
