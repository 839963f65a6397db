"""A fleet run counts its finished audits on its own row, in the transaction that finishes them:
through a batch (stored or given up), a single `audits.run`, a late failure and the sweeper. Each
test compares the counters with the run's audits counted by status."""

from __future__ import annotations

from datetime import timedelta

from sqlalchemy import func, select, update

from services.audits.batch import run_audit_batch
from services.audits.runs import execute_audit, mark_failed, mark_running
from services.audits.sweep import sweep_stuck_audits
from services.fleets import get_run_progress, start_reaudit
from services.fleets.dispatch import dispatch_due
from store.db import unit_of_work
from store.ids import utcnow
from store.models import Audit, FleetRun, Snapshot
from tests.fixtures.fleet_data import make_fleet
from tests.fixtures.service_data import OrganizationHandle


def _start(organization: OrganizationHandle, servers: int) -> tuple[str, str, list[str]]:
    """A forced run of a new fleet, dispatched: (fleet id, run id, its queued audit ids)."""
    fleet = make_fleet(organization, servers)
    with unit_of_work() as session:
        run_id = start_reaudit(session, organization.id, fleet.id, force=True).id
    audit_ids: list[str] = []
    more = True
    while more:
        with unit_of_work() as session:
            report = dispatch_due(session, utcnow(), 500)
        audit_ids += report.audit_ids
        more = report.more
    assert len(audit_ids) == servers
    return fleet.id, run_id, audit_ids


def _progress(organization: OrganizationHandle, fleet_id: str, run_id: str) -> tuple[int, int]:
    with unit_of_work() as session:
        progress = get_run_progress(session, organization.id, fleet_id, run_id)
    return progress["succeeded"], progress["failed"]


def _counted(run_id: str) -> tuple[int, int]:
    """The run's audits by status, counted the slow way."""
    with unit_of_work() as session:
        rows = dict(
            session.execute(
                select(Audit.status, func.count()).where(Audit.fleet_run_id == run_id).group_by(Audit.status)
            ).all()
        )
    return int(rows.get("succeeded", 0)), int(rows.get("failed", 0))


def test_a_batch_counts_its_stored_failed_and_given_up_audits(fleet_organization: OrganizationHandle) -> None:
    """Four audits in one batch: two succeed, one has a snapshot that no longer parses, one is out of
    attempts (given up at claim): the run says 2 succeeded, 2 failed, as its audits do."""
    fleet_id, run_id, (good, other, broken, tired) = _start(fleet_organization, 4)
    with unit_of_work() as session:
        audit = session.get(Audit, broken)
        assert audit is not None
        snapshot = session.get(Snapshot, audit.snapshot_id)
        assert snapshot is not None
        snapshot.inputs = {**snapshot.inputs, "variables": "not a dump at all\n"}
        snapshot.prepared = None  # stored before prepared forms: the texts are parsed
        session.execute(update(Audit).where(Audit.id == tired).values(attempts=99))
    assert _progress(fleet_organization, fleet_id, run_id) == (0, 0)
    report = run_audit_batch(good, other, broken, tired)
    assert (report.succeeded, report.failed) == (2, 2)
    assert _progress(fleet_organization, fleet_id, run_id) == _counted(run_id) == (2, 2)
    run_audit_batch(good, other, broken, tired)  # delivered again: finished audits are not counted twice
    assert _progress(fleet_organization, fleet_id, run_id) == (2, 2)


def test_single_runs_late_failures_and_the_sweeper_count(fleet_organization: OrganizationHandle) -> None:
    """`audits.run` succeeds one audit; a late failure of it (a time limit) moves it to failed; the
    sweeper gives up another; a third fails at its fourth delivery: every move is on the run's row."""
    fleet_id, run_id, (first, stuck, tired) = _start(fleet_organization, 3)
    with unit_of_work() as session:
        assert mark_running(session, first, max_attempts=3).value == "run"
        execute_audit(session, first)
    assert _progress(fleet_organization, fleet_id, run_id) == _counted(run_id) == (1, 0)
    with unit_of_work() as session:
        mark_failed(session, first, "TimeLimitExceeded")
    assert _progress(fleet_organization, fleet_id, run_id) == _counted(run_id) == (0, 1)
    with unit_of_work() as session:
        for _ in range(3):
            mark_running(session, stuck, max_attempts=3)
        session.execute(
            update(Audit).where(Audit.id == stuck).values(updated_at=utcnow() - timedelta(seconds=600))
        )
    with unit_of_work() as session:
        assert stuck in sweep_stuck_audits(session, older_than_seconds=60, max_attempts=3).gave_up
    assert _progress(fleet_organization, fleet_id, run_id) == _counted(run_id) == (0, 2)
    with unit_of_work() as session:
        for _ in range(3):
            mark_running(session, tired, max_attempts=2)
    assert _progress(fleet_organization, fleet_id, run_id) == _counted(run_id) == (0, 3)


def test_progress_is_read_from_the_runs_row_not_its_audits(fleet_organization: OrganizationHandle) -> None:
    """Progress answers the row's counters: a row that says 1 succeeded of 2 servers is what the API and
    the pages show, whatever the audits say (they are never walked for the finished counts)."""
    fleet_id, run_id, _ = _start(fleet_organization, 2)
    with unit_of_work() as session:
        session.execute(update(FleetRun).where(FleetRun.id == run_id).values(succeeded=1))
    with unit_of_work() as session:
        progress = get_run_progress(session, fleet_organization.id, fleet_id, run_id)
    assert (progress["succeeded"], progress["done"], progress["queued"], progress["finished"]) == (
        1,
        1,
        2,
        False,
    )
    assert _counted(run_id) == (0, 0)
