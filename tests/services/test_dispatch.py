"""The fleet dispatcher: due fleets start runs, waiting servers become queued audits exactly once,
unchanged servers are skipped unless forced. Real PostgreSQL: FOR UPDATE SKIP LOCKED is the point."""

from __future__ import annotations

import threading
import time
from collections import Counter
from datetime import datetime, timedelta

from sqlalchemy import func, select

from services.fleets import get_fleet, get_run_progress, start_reaudit
from services.fleets.dispatch import dispatch_due
from services.jobs.buffer import collecting_jobs
from services.snapshots import ingest_snapshot
from store.db import unit_of_work
from store.ids import utcnow
from store.models import Audit, FleetRun
from tests.fixtures.fleet_data import TYPO_MYCNF, audits_per_server, make_fleet, small_upload
from tests.fixtures.service_data import OrganizationHandle


def _runs_of(fleet_id: str) -> list[FleetRun]:
    with unit_of_work() as session:
        return list(session.scalars(select(FleetRun).where(FleetRun.fleet_id == fleet_id)))


def _dispatch_until_idle(chunk_size: int = 500, now: datetime | None = None) -> list[str]:
    """Call the dispatcher (a transaction per call) until it finds nothing more; the audit ids it queued.
    `now` is the dispatcher's clock (default: the real one)."""
    queued: list[str] = []
    while True:
        with unit_of_work() as session:
            report = dispatch_due(session, now or utcnow(), chunk_size)
        queued += report.audit_ids
        if not report.more:
            return queued


def _succeed(audit_ids: list[str]) -> None:
    """Run the queued audits in this process (the worker's task body), so they count as last audits."""
    from services.audits.runs import execute_audit

    for audit_id in audit_ids:
        with unit_of_work() as session:
            execute_audit(session, audit_id)


def test_a_one_second_fleet_is_dispatched_once_then_not_until_due_again(
    fleet_organization: OrganizationHandle,
) -> None:
    """With a 1 s interval: after a second one call queues an audit per server and moves the schedule on;
    a second call right after queues nothing and starts no run; due again, every server's audit is
    still queued, so the run dispatches nothing and is not recorded (no new run every interval)."""
    fleet = make_fleet(fleet_organization, 3, interval_seconds=1)
    # The dispatcher's clock is given, not slept on: a loaded machine cannot make "right after" late.
    first = utcnow() + timedelta(seconds=1.1)
    _dispatch_until_idle(now=first)
    assert audits_per_server(fleet.server_ids) == dict.fromkeys(fleet.server_ids, 1)
    runs = _runs_of(fleet.id)
    assert [(run.total, run.forced) for run in runs] == [(3, False)]
    with unit_of_work() as session:
        found = get_fleet(session, fleet_organization.id, fleet.id)
        assert found.last_dispatch_at is not None and found.next_run_at > first
        next_run_at = found.next_run_at
    _dispatch_until_idle(now=first + timedelta(seconds=0.1))
    assert audits_per_server(fleet.server_ids) == dict.fromkeys(fleet.server_ids, 1)
    assert len(_runs_of(fleet.id)) == 1
    with unit_of_work() as session:
        audits = list(session.scalars(select(Audit).where(Audit.server_id.in_(fleet.server_ids))))
        assert {(audit.status, audit.fleet_run_id) for audit in audits} == {("queued", runs[0].id)}
        assert get_fleet(session, fleet_organization.id, fleet.id).next_run_at == next_run_at
    _dispatch_until_idle(now=next_run_at + timedelta(seconds=0.1))
    assert audits_per_server(fleet.server_ids) == dict.fromkeys(fleet.server_ids, 1)
    assert [run.id for run in _runs_of(fleet.id)] == [runs[0].id]
    with unit_of_work() as session:  # the schedule moved on all the same
        assert get_fleet(session, fleet_organization.id, fleet.id).next_run_at > next_run_at


def test_a_run_someone_asked_for_is_kept_even_when_it_skips_every_server(
    fleet_organization: OrganizationHandle,
) -> None:
    """A re-audit requested through the API whose servers are all unchanged still shows as a run (its
    id was handed back), with every server counted as skipped."""
    fleet = make_fleet(fleet_organization, 2)
    with unit_of_work() as session:
        start_reaudit(session, fleet_organization.id, fleet.id, force=False)
    _succeed(_dispatch_until_idle())
    with unit_of_work() as session:
        asked = start_reaudit(session, fleet_organization.id, fleet.id, force=False)
    assert _dispatch_until_idle() == []
    with unit_of_work() as session:
        progress = get_run_progress(session, fleet_organization.id, fleet.id, asked.id)
    assert (progress["skipped_unchanged"], progress["finished"]) == (2, True)


def test_two_dispatchers_racing_never_dispatch_a_server_twice(fleet_organization: OrganizationHandle) -> None:
    """Two threads, each with its own sessions, race for a due fleet of 200 servers and dispatch them in
    chunks of 10: exactly one run starts, and every server gets exactly one audit."""
    fleet = make_fleet(fleet_organization, 200, interval_seconds=3600)
    with unit_of_work() as session:  # due now; the next run is an hour away, well after this test
        get_fleet(session, fleet_organization.id, fleet.id).next_run_at = utcnow() - timedelta(seconds=1)
    start = threading.Barrier(2)
    dispatched: dict[str, list[str]] = {"a": [], "b": []}
    errors: list[BaseException] = []

    def dispatcher(name: str) -> None:
        try:
            start.wait(timeout=10)
            idle_since = time.monotonic()
            # A thread has a context of its own: hold its audits' jobs, as the test's are held.
            with collecting_jobs():
                while time.monotonic() - idle_since < 0.5:  # until half a second without work
                    with unit_of_work() as session:
                        report = dispatch_due(session, utcnow(), 10)
                    dispatched[name] += report.audit_ids
                    if report.claimed:
                        idle_since = time.monotonic()
        except BaseException as exc:  # surfaced below: a thread's failure must fail the test
            errors.append(exc)

    threads = [threading.Thread(target=dispatcher, args=(name,)) for name in dispatched]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert not errors, errors
    assert audits_per_server(fleet.server_ids) == dict.fromkeys(fleet.server_ids, 1)
    with unit_of_work() as session:
        ours = set(session.scalars(select(Audit.id).where(Audit.server_id.in_(fleet.server_ids))))
    both = Counter(audit for audits in dispatched.values() for audit in audits if audit in ours)
    assert len(both) == 200 and set(both.values()) == {1}
    assert len(_runs_of(fleet.id)) == 1


def test_unchanged_servers_are_skipped_unless_forced(fleet_organization: OrganizationHandle) -> None:
    """Same snapshot content and advisor version as the last succeeded audit: skipped; a new snapshot
    with one line changed is re-audited; a forced run re-audits every server with a snapshot."""
    fleet = make_fleet(fleet_organization, 3)
    changed = fleet.server_ids[0]
    with unit_of_work() as session:
        first = start_reaudit(session, fleet_organization.id, fleet.id, force=False)
    _succeed(_dispatch_until_idle())
    with unit_of_work() as session:
        ingest_snapshot(
            session, fleet_organization.id, changed, small_upload(TYPO_MYCNF.replace("151", "300"))
        )
        second = start_reaudit(session, fleet_organization.id, fleet.id, force=False)
    second_audits = _dispatch_until_idle()
    with unit_of_work() as session:
        rows = session.execute(select(Audit.server_id).where(Audit.id.in_(second_audits))).scalars().all()
        assert list(rows) == [changed]
        progress = get_run_progress(session, fleet_organization.id, fleet.id, second.id)
        assert (progress["total"], progress["skipped_unchanged"], progress["queued"]) == (3, 2, 1)
        assert get_run_progress(session, fleet_organization.id, fleet.id, first.id)["succeeded"] == 3
    _succeed(second_audits)
    with unit_of_work() as session:
        forced = start_reaudit(session, fleet_organization.id, fleet.id, force=True)
    forced_audits = _dispatch_until_idle()
    assert len(forced_audits) == 3
    with unit_of_work() as session:
        progress = get_run_progress(session, fleet_organization.id, fleet.id, forced.id)
        assert (progress["queued"], progress["skipped_unchanged"], progress["done"]) == (3, 0, 0)


def test_servers_without_a_snapshot_are_counted_not_audited(fleet_organization: OrganizationHandle) -> None:
    """A server with nothing uploaded is skipped and counted; the run still finishes."""
    fleet = make_fleet(fleet_organization, 2, with_snapshots=False)
    with unit_of_work() as session:
        run = start_reaudit(session, fleet_organization.id, fleet.id, force=True)
    assert _dispatch_until_idle() == [] or audits_per_server(fleet.server_ids) == dict.fromkeys(
        fleet.server_ids, 0
    )
    assert audits_per_server(fleet.server_ids) == dict.fromkeys(fleet.server_ids, 0)
    with unit_of_work() as session:
        progress = get_run_progress(session, fleet_organization.id, fleet.id, run.id)
        assert (
            progress["skipped_no_snapshot"],
            progress["done"],
            progress["total"],
            progress["finished"],
        ) == (
            2,
            2,
            2,
            True,
        )


def test_a_forced_reaudit_refers_to_the_stored_snapshot_instead_of_copying_it(
    fleet_organization: OrganizationHandle,
) -> None:
    """Two forced runs over an unchanged fleet add an audit per server each time and no snapshot: every
    server keeps its one snapshot row, and both of its audits name that row (a re-audit is a reference)."""
    from services.audits.batch import run_audit_batch
    from store.models import Snapshot

    fleet = make_fleet(fleet_organization, 3)
    audit_ids: list[str] = []
    for _ in range(2):
        with unit_of_work() as session:
            start_reaudit(session, fleet_organization.id, fleet.id, force=True)
        dispatched = _dispatch_until_idle()
        assert len(dispatched) == 3
        assert run_audit_batch(*dispatched).succeeded == 3  # the fleet worker's task body
        audit_ids += dispatched
    with unit_of_work() as session:
        snapshots = dict(
            session.execute(
                select(Snapshot.server_id, func.count())
                .where(Snapshot.server_id.in_(fleet.server_ids))
                .group_by(Snapshot.server_id)
            ).all()
        )
        referenced = session.execute(
            select(Audit.server_id, Audit.snapshot_id).where(Audit.id.in_(audit_ids))
        ).all()
        snapshot_of = dict(
            session.execute(
                select(Snapshot.server_id, Snapshot.id).where(Snapshot.server_id.in_(fleet.server_ids))
            ).all()
        )
    assert snapshots == dict.fromkeys(fleet.server_ids, 1)
    assert len(referenced) == 6
    assert all(snapshot_id == snapshot_of[server_id] for server_id, snapshot_id in referenced)


def test_a_server_with_an_audit_still_queued_or_running_is_skipped(
    fleet_organization: OrganizationHandle,
) -> None:
    """Never two audits of a server in flight: a forced run skips the servers whose audit of an earlier
    run is queued or running, and audits the one whose audit finished."""
    fleet = make_fleet(fleet_organization, 3)
    queued_server, running_server, finished_server = fleet.server_ids
    with unit_of_work() as session:
        start_reaudit(session, fleet_organization.id, fleet.id, force=True)
    first = _dispatch_until_idle()
    with unit_of_work() as session:
        by_server = dict(session.execute(select(Audit.server_id, Audit.id).where(Audit.id.in_(first))).all())
    _succeed([by_server[finished_server]])
    with unit_of_work() as session:
        running = session.get(Audit, by_server[running_server])
        assert running is not None
        running.status = "running"
        second = start_reaudit(session, fleet_organization.id, fleet.id, force=True)
    again = _dispatch_until_idle()
    with unit_of_work() as session:
        servers = session.execute(select(Audit.server_id).where(Audit.id.in_(again))).scalars().all()
        assert list(servers) == [finished_server]
        progress = get_run_progress(session, fleet_organization.id, fleet.id, second.id)
        assert (progress["skipped_in_flight"], progress["queued"]) == (2, 1)
    assert queued_server not in servers
