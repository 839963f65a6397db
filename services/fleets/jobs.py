"""The body of job `fleets.dispatch`: units of work around the fleet dispatcher, for the Celery task of
that name and the embedded runner.

Each chunk is its own unit of work: committed, then its audits are sent. A pass stops after a time
budget and asks for another pass, so one task never runs into its time limit on a huge fleet.
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass

from conf.settings import get_settings
from services.fleets.dispatch import dispatch_due
from services.jobs import DISPATCH_FLEETS, enqueue, unit_of_work
from services.jobs.registry import job
from services.telemetry import fleet_dispatched
from store.ids import utcnow

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


@job(DISPATCH_FLEETS)
def dispatch_fleets(
    *, chunk_size: int | None = None, budget_seconds: float = PASS_BUDGET_SECONDS
) -> DispatchTotals:
    """Start due fleets' runs and dispatch waiting servers chunk by chunk: commit, then send each chunk."""
    settings = get_settings()
    size = chunk_size or settings.fleet_dispatch_chunk_size
    totals = DispatchTotals()
    deadline = time.monotonic() + budget_seconds
    while True:
        with unit_of_work() as session:  # its commit sends the chunk's audits
            report = dispatch_due(session, utcnow(), size, settings.fleet_audits_per_task)
            totals.handed_over = report.more and time.monotonic() > deadline
            if totals.handed_over:
                enqueue(DISPATCH_FLEETS)  # a fresh pass carries on
        totals.chunks += 1
        totals.runs_started += len(report.runs_started)
        totals.dispatched += len(report.audit_ids)
        totals.skipped += sum(report.skipped.values())
        if not report.more or totals.handed_over:
            break
    fleet_dispatched(totals.runs_started, totals.dispatched)
    if totals.runs_started or totals.dispatched or totals.skipped:
        logger.info(
            "fleet dispatch: %d run(s) started, %d audit(s) sent, %d server(s) skipped in %d chunk(s)",
            totals.runs_started,
            totals.dispatched,
            totals.skipped,
            totals.chunks,
        )
    return totals
