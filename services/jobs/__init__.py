"""Jobs by name: services `enqueue(name, *ids)` into the current unit of work's buffer, which is sent
after its commit — to Celery workers by task name, or to the in-process thread pool of the embedded
default. Job bodies live beside their services (`services/*/jobs.py`) and are looked up by name.
"""

from services.jobs.buffer import enqueue
from services.jobs.names import (
    DISPATCH_FLEETS,
    PRUNE_AUDITS,
    RUN_AUDIT,
    RUN_AUDIT_BATCH,
    SEND_CALLBACK,
    SWEEP_AUDITS,
)
from services.jobs.unit_of_work import unit_of_work

__all__ = [
    "DISPATCH_FLEETS",
    "PRUNE_AUDITS",
    "RUN_AUDIT",
    "RUN_AUDIT_BATCH",
    "SEND_CALLBACK",
    "SWEEP_AUDITS",
    "enqueue",
    "unit_of_work",
]
