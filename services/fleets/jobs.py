"""Units of work around the fleet dispatcher, for the Celery task `fleets.dispatch` and the embedded queue.

Each chunk is its own transaction: committed, then its audits are sent. A pass stops after a time
budget and asks for another pass, so one task never runs into its time limit on a huge fleet.
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass

from conf.settings import get_settings
from services.dispatch import dispatch_due
from store.db import unit_of_work
from store.models._columns import utcnow

logger = logging.getLogger(__name__)

#: a pass hands over to a fresh task after this long (the task's soft time limit is larger).
PASS_BUDGET_SECONDS = 20.0


@dataclass
class DispatchTotals:
    runs_started: int = 0
    dispatched: int = 0
    skipped: int = 0
    chunks: int = 0
    handed_over: bool = False


def dispatch_fleets(
    *, chunk_size: int | None = None, budget_seconds: float = PASS_BUDGET_SECONDS
) -> DispatchTotals:
    """Start due fleets' runs and dispatch waiting servers chunk by chunk: commit, then send each chunk."""
    from services.queue import enqueue_audits, enqueue_dispatch

    size = chunk_size or get_settings().fleet_dispatch_chunk_size
    totals = DispatchTotals()
    deadline = time.monotonic() + budget_seconds
    while True:
        with unit_of_work() as session:
            report = dispatch_due(session, utcnow(), size)
        enqueue_audits(report.audit_ids)
        totals.chunks += 1
        totals.runs_started += len(report.runs_started)
        totals.dispatched += len(report.audit_ids)
        totals.skipped += sum(report.skipped.values())
        if not report.more:
            break
        if time.monotonic() > deadline:
            totals.handed_over = True
            enqueue_dispatch()
            break
    if totals.runs_started or totals.dispatched or totals.skipped:
        logger.info(
            "fleet dispatch: %d run(s) started, %d audit(s) sent, %d server(s) skipped in %d chunk(s)",
            totals.runs_started,
            totals.dispatched,
            totals.skipped,
            totals.chunks,
        )
    return totals
