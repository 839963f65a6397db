"""Fleet runs: a run is one re-audit of a fleet. Starting it marks the fleet's servers as waiting for
dispatch, and `services.fleets.dispatch` turns the waiting servers into queued audits, a chunk at a time.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy.orm import Session

from services.errors import NotFound
from services.fleets.schedule import aware
from services.jobs import DISPATCH_FLEETS, enqueue
from store.ids import new_id, utcnow
from store.models import Fleet, FleetRun
from store.repositories import fleets as repository


def begin_run(
    session: Session, fleet: Fleet, now: datetime, *, forced: bool, scheduled: bool = False
) -> FleetRun:
    """Start a re-audit of the (locked) fleet: a run row, and the fleet's servers marked as waiting."""
    run = repository.add_run(
        session,
        FleetRun(
            id=new_id(),
            organization_id=fleet.organization_id,
            fleet_id=fleet.id,
            started_at=now,
            total=0,
            forced=forced,
            scheduled=scheduled,
            skipped_unchanged=0,
            skipped_no_snapshot=0,
            skipped_in_flight=0,
        ),
    )
    run.total = repository.mark_servers_pending(session, fleet.id, run.id)
    fleet.last_dispatch_at = now
    return run


def start_reaudit(session: Session, org_id: str, fleet_id: str, *, force: bool) -> FleetRun:
    """Start a re-audit of the fleet now (the schedule is unchanged), and enqueue a dispatcher pass
    (sent after the commit: the dispatcher must find the run and its waiting servers)."""
    fleet = repository.lock_fleet(session, org_id, fleet_id)
    if fleet is None:
        raise NotFound(f"no fleet {fleet_id}")
    run = begin_run(session, fleet, utcnow(), forced=force)
    enqueue(DISPATCH_FLEETS)
    return run


def run_progress(session: Session, run: FleetRun) -> dict[str, Any]:
    """How far a run is: N of M servers done (audited, failed or skipped), by state. Finished and
    skipped counts come from the run's row; one query counts what is still pending, queued or running."""
    counts = repository.run_counts(session, run.id)
    skipped = run.skipped_unchanged + run.skipped_no_snapshot + run.skipped_in_flight
    done = run.succeeded + run.failed + skipped
    return {
        "id": run.id,
        "fleet_id": run.fleet_id,
        "started_at": aware(run.started_at),
        "forced": run.forced,
        "total": run.total,
        "done": done,
        "pending": counts["pending"],
        "queued": counts["queued"],
        "running": counts["running"],
        "succeeded": run.succeeded,
        "failed": run.failed,
        "skipped_unchanged": run.skipped_unchanged,
        "skipped_no_snapshot": run.skipped_no_snapshot,
        "skipped_in_flight": run.skipped_in_flight,
        "finished": counts["pending"] + counts["queued"] + counts["running"] == 0,
    }


def get_run_progress(session: Session, org_id: str, fleet_id: str, run_id: str) -> dict[str, Any]:
    """A run of the organisation's fleet with its progress, or NotFound."""
    run = repository.get_run(session, org_id, fleet_id, run_id)
    if run is None:
        raise NotFound(f"no run {run_id} of fleet {fleet_id}")
    return run_progress(session, run)


def latest_run_progress(session: Session, fleet_id: str) -> dict[str, Any] | None:
    """The progress of the fleet's newest run, or None before its first."""
    run = repository.latest_run(session, fleet_id)
    return run_progress(session, run) if run is not None else None
