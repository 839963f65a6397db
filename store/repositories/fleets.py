"""Fleets and their runs: CRUD, the dispatcher's claims, and a run's progress in one aggregate."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import case, delete, exists, func, select, update
from sqlalchemy.orm import Session

from store.models import Audit, AuditStatus, Fleet, FleetRun, Server
from store.repositories.keyset import After, page_after

UNFINISHED = (AuditStatus.QUEUED.value, AuditStatus.RUNNING.value)


def get_fleet(session: Session, organization_id: str, fleet_id: str) -> Fleet | None:
    """The organisation's fleet with this id, or None (another organisation's is None too)."""
    statement = select(Fleet).where(Fleet.id == fleet_id, Fleet.organization_id == organization_id)
    return session.scalars(statement).first()


def fleet_by_name(session: Session, organization_id: str, name: str) -> Fleet | None:
    statement = select(Fleet).where(Fleet.organization_id == organization_id, Fleet.name == name)
    return session.scalars(statement).first()


def name_taken(session: Session, organization_id: str, name: str, *, other_than: str | None = None) -> bool:
    condition = (Fleet.organization_id == organization_id) & (Fleet.name == name)
    if other_than is not None:
        condition &= Fleet.id != other_than
    return bool(session.scalar(select(exists().where(condition))))


def add_fleet(session: Session, fleet: Fleet) -> Fleet:
    session.add(fleet)
    session.flush()
    return fleet


def list_fleets(
    session: Session, organization_id: str, *, after: After | None, limit: int, newest: bool = False
) -> list[Fleet]:
    """Up to `limit + 1` fleets after the cursor, oldest first."""
    statement = select(Fleet).where(Fleet.organization_id == organization_id)
    return list(session.scalars(page_after(statement, Fleet, after, limit, newest=newest)))


def delete_fleet(session: Session, organization_id: str, fleet_id: str) -> int:
    """Delete the fleet (its servers stay, fleetless; its runs go); rows deleted."""
    statement = delete(Fleet).where(Fleet.id == fleet_id, Fleet.organization_id == organization_id)
    return int(session.execute(statement).rowcount)  # type: ignore[attr-defined]


def count_servers(session: Session, fleet_id: str) -> int:
    return int(
        session.scalar(select(func.count()).select_from(Server).where(Server.fleet_id == fleet_id)) or 0
    )


# ------------------------------------------------------------------ the dispatcher
def claim_due_fleets(session: Session, now: datetime, limit: int) -> list[Fleet]:
    """Fleets whose next run is due, locked; rows another dispatcher holds are skipped, not waited for."""
    statement = (
        select(Fleet)
        .where(Fleet.next_run_at <= now)
        .order_by(Fleet.next_run_at)
        .limit(limit)
        .with_for_update(skip_locked=True)
    )
    return list(session.scalars(statement))


def lock_fleet(session: Session, organization_id: str, fleet_id: str) -> Fleet | None:
    """The organisation's fleet, locked until the transaction ends (a run started by hand)."""
    statement = (
        select(Fleet).where(Fleet.id == fleet_id, Fleet.organization_id == organization_id).with_for_update()
    )
    return session.scalars(statement).first()


def add_run(session: Session, run: FleetRun) -> FleetRun:
    session.add(run)
    session.flush()
    return run


def mark_servers_pending(session: Session, fleet_id: str, run_id: str) -> int:
    """Mark the fleet's servers as waiting for this run's dispatch, one statement; how many were marked.

    A server still waiting for an earlier run stays with that run: it will be audited once, not twice.
    """
    statement = (
        update(Server)
        .where(Server.fleet_id == fleet_id, Server.pending_fleet_run_id.is_(None))
        .values(pending_fleet_run_id=run_id, updated_at=Server.updated_at)
        .execution_options(synchronize_session=False)
    )
    return int(session.execute(statement).rowcount)  # type: ignore[attr-defined]


def forced_runs(session: Session, run_ids: list[str]) -> dict[str, bool]:
    """run id → forced, for the runs of a claimed chunk."""
    if not run_ids:
        return {}
    rows = session.execute(select(FleetRun.id, FleetRun.forced).where(FleetRun.id.in_(run_ids)))
    return {run_id: bool(forced) for run_id, forced in rows}


def add_skips(session: Session, run_id: str, *, unchanged: int, no_snapshot: int, in_flight: int) -> None:
    """Count servers a run did not re-audit (an atomic increment: dispatchers may share a run)."""
    session.execute(
        update(FleetRun)
        .where(FleetRun.id == run_id)
        .values(
            skipped_unchanged=FleetRun.skipped_unchanged + unchanged,
            skipped_no_snapshot=FleetRun.skipped_no_snapshot + no_snapshot,
            skipped_in_flight=FleetRun.skipped_in_flight + in_flight,
        )
        .execution_options(synchronize_session=False)
    )


def discard_idle_runs(session: Session, run_ids: list[str]) -> int:
    """Delete the runs among `run_ids` that the schedule started, that queued no audit and have no
    server still waiting: a schedule that found nothing to re-audit leaves no run behind (a run someone
    asked for is always kept). Returns how many."""
    if not run_ids:
        return 0
    waiting = exists().where(Server.pending_fleet_run_id == FleetRun.id)
    audited = exists().where(Audit.fleet_run_id == FleetRun.id)
    result = session.execute(
        delete(FleetRun)
        .where(FleetRun.id.in_(run_ids), FleetRun.scheduled.is_(True), ~waiting, ~audited)
        .execution_options(synchronize_session=False)
    )
    return int(getattr(result, "rowcount", 0) or 0)


def get_run(session: Session, organization_id: str, fleet_id: str, run_id: str) -> FleetRun | None:
    statement = select(FleetRun).where(
        FleetRun.id == run_id, FleetRun.fleet_id == fleet_id, FleetRun.organization_id == organization_id
    )
    return session.scalars(statement).first()


def latest_run(session: Session, fleet_id: str) -> FleetRun | None:
    statement = (
        select(FleetRun)
        .where(FleetRun.fleet_id == fleet_id)
        .order_by(FleetRun.started_at.desc(), FleetRun.id.desc())
        .limit(1)
    )
    return session.scalars(statement).first()


def count_finished(session: Session, finished: dict[str, tuple[int, int]]) -> None:
    """Add (succeeded, failed) to each run's counters: one atomic UPDATE per run, in the caller's
    transaction (the one that finishes the audits), so the counters move with the audits' status."""
    for run_id, (succeeded, failed) in sorted(finished.items()):  # sorted: one lock order for all
        if succeeded or failed:
            session.execute(
                update(FleetRun)
                .where(FleetRun.id == run_id)
                .values(succeeded=FleetRun.succeeded + succeeded, failed=FleetRun.failed + failed)
                .execution_options(synchronize_session=False)
            )


def run_counts(session: Session, run_id: str) -> dict[str, int]:
    """The run's unfinished audits by status and its servers still waiting for dispatch.

    Finished audits are counted on the run's row (`count_finished`); counting them here walked every
    row version of the run's audits, a cost that grew with the run on each progress read."""
    pending = (
        select(func.count())
        .select_from(Server)
        .where(Server.pending_fleet_run_id == run_id)
        .scalar_subquery()
    )
    by_status = [
        func.coalesce(func.sum(case((Audit.status == status, 1), else_=0)), 0) for status in UNFINISHED
    ]
    row = session.execute(
        select(pending, *by_status).where(Audit.fleet_run_id == run_id, Audit.status.in_(UNFINISHED))
    ).one()
    return {
        "pending": int(row[0]),
        **{status: int(n) for status, n in zip(UNFINISHED, row[1:], strict=True)},
    }
