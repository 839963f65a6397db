"""The fleet dispatcher as a Celery task: on beat's schedule and on demand, through the real worker."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import select

from services import jobs
from services.fleets import get_run_progress, start_reaudit
from services.jobs import DISPATCH_FLEETS as DISPATCH_TASK
from store.db import unit_of_work
from store.models import Audit, FleetRun
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


def test_beat_and_the_worker_reaudit_a_one_second_fleet(
    fleet_organization: OrganizationHandle,
    worker_process: WorkerProcess,
    beat_process: subprocess.Popen[bytes],
) -> None:
    """With beat every second and a fleet due every second: each server is audited once, then later runs
    start on schedule and skip the unchanged servers — no server is audited twice."""
    fleet = make_fleet(fleet_organization, 3, interval_seconds=1)

    def skipping_runs() -> list[FleetRun]:
        with unit_of_work() as session:
            runs = session.scalars(select(FleetRun).where(FleetRun.fleet_id == fleet.id)).all()
        return [run for run in runs if run.skipped_unchanged == 3]

    wait_for(skipping_runs, timeout=60, interval=0.2)
    assert beat_process.poll() is None
    assert audits_per_server(fleet.server_ids) == dict.fromkeys(fleet.server_ids, 1)
    with unit_of_work() as session:
        statuses = session.scalars(select(Audit.status).where(Audit.server_id.in_(fleet.server_ids))).all()
    assert set(statuses) == {"succeeded"}
