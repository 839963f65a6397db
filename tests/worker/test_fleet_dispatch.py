"""The fleet dispatcher as a Celery task: on beat's schedule and on demand, through the real worker."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from sqlalchemy import func, select

from services import jobs
from services.fleets import get_run_progress, start_reaudit
from services.jobs import DISPATCH_FLEETS as DISPATCH_TASK
from store.db import unit_of_work
from store.models import Audit, Fleet, FleetRun
from tests.fixtures.fleet_data import audits_per_server, make_fleet
from tests.fixtures.real_services import ServiceUrls, service_environment
from tests.fixtures.service_data import OrganizationHandle, wait_for
from tests.fixtures.worker_process import WorkerProcess


def test_beat_schedules_the_dispatcher_every_interval(service_settings: ServiceUrls) -> None:
    """The beat schedule sends `fleets.dispatch` to the service's queue at the configured interval."""
    from conf.settings import get_settings
    from worker.app import celery_app
    from worker.tasks import dispatch_fleets

    entry = celery_app.conf.beat_schedule["dispatch-fleets"]
    assert entry["task"] == DISPATCH_TASK == "fleets.dispatch"
    assert entry["schedule"] == get_settings().fleet_dispatch_interval_seconds == 60.0
    assert entry["options"]["queue"] == service_settings.queue
    assert dispatch_fleets.name == DISPATCH_TASK


def test_a_reaudit_sent_to_the_worker_finishes(
    fleet_organization: OrganizationHandle, worker_process: WorkerProcess
) -> None:
    """A run started by hand, then `fleets.dispatch` sent: the worker dispatches and runs every audit."""
    fleet = make_fleet(fleet_organization, 5)
    with jobs.unit_of_work() as session:  # sends `fleets.dispatch` after its commit
        run = start_reaudit(session, fleet_organization.id, fleet.id, force=True)

    def finished() -> bool:
        with unit_of_work() as session:
            return bool(get_run_progress(session, fleet_organization.id, fleet.id, run.id)["finished"])

    wait_for(finished, timeout=60, interval=0.1)
    with unit_of_work() as session:
        progress = get_run_progress(session, fleet_organization.id, fleet.id, run.id)
    assert (progress["total"], progress["succeeded"], progress["done"]) == (5, 5, 5)
    with unit_of_work() as session:  # the run's counters (moved by the worker) match its audits
        succeeded = session.scalar(
            select(func.count()).where(Audit.fleet_run_id == run.id, Audit.status == "succeeded")
        )
        row = session.get(FleetRun, run.id)
        assert row is not None and (row.succeeded, row.failed) == (succeeded, 0) == (5, 0)


@pytest.fixture
def beat_process(service_urls: ServiceUrls, tmp_path: Path) -> Iterator[subprocess.Popen[bytes]]:
    """`innotune beat` sending the dispatcher every second (and the sweeper), for one test."""
    environment = {**service_environment(service_urls), "INNOTUNE_FLEET_DISPATCH_INTERVAL": "1"}
    log = (tmp_path / "beat.log").open("wb")
    argv = [sys.executable, "-m", "cli.main", "beat", "--schedule", str(tmp_path / "schedule")]
    process = subprocess.Popen(
        argv, env=environment, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
    )
    try:
        yield process
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        process.wait(timeout=20)


_SEEN: dict[object, set[object]] = {}


def _passes_since(read: Callable[[], object], start: object) -> int:
    """How many distinct later values `read` has shown since `start` (each a scheduled pass)."""
    seen = _SEEN.setdefault(start, set())
    value = read()
    if value is not None and value != start:
        seen.add(value)
    return len(seen)


def test_beat_and_the_worker_reaudit_a_one_second_fleet(
    fleet_organization: OrganizationHandle,
    worker_process: WorkerProcess,
    beat_process: subprocess.Popen[bytes],
) -> None:
    """With beat every second and a fleet due every second: each server is audited once; later
    scheduled passes find nothing changed, dispatch nothing and record no run — no server is audited
    twice, and no new run appears every second."""
    fleet = make_fleet(fleet_organization, 3, interval_seconds=1)

    def audited() -> bool:
        with unit_of_work() as session:
            statuses = session.scalars(
                select(Audit.status).where(Audit.server_id.in_(fleet.server_ids))
            ).all()
        return len(statuses) == 3 and set(statuses) == {"succeeded"}

    def last_dispatch() -> object:
        with unit_of_work() as session:
            return session.scalar(select(Fleet.last_dispatch_at).where(Fleet.id == fleet.id))

    wait_for(audited, timeout=60, interval=0.2)
    first_pass = last_dispatch()
    # three more scheduled passes over the unchanged servers
    wait_for(lambda: _passes_since(last_dispatch, first_pass) >= 3, timeout=60, interval=0.2)
    assert beat_process.poll() is None
    assert audits_per_server(fleet.server_ids) == dict.fromkeys(fleet.server_ids, 1)
    with unit_of_work() as session:
        runs = session.scalars(select(FleetRun).where(FleetRun.fleet_id == fleet.id)).all()
        statuses = session.scalars(select(Audit.status).where(Audit.server_id.in_(fleet.server_ids))).all()
    assert [run.total for run in runs] == [3]
    assert set(statuses) == {"succeeded"}
