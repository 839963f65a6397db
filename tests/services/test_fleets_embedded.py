"""Fleets on the embedded default: SQLite, no broker — the dispatcher, the in-process queue, drift and
the summary work there too (FOR UPDATE SKIP LOCKED is PostgreSQL's; SQLite has one writer anyway)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from services import jobs
from services.drift import server_drift
from services.fleets import fleet_summary, get_run_progress, start_reaudit
from services.jobs.in_process import wait_for_embedded_work
from services.snapshots import ingest_snapshot
from store.db import unit_of_work
from tests.fixtures.fleet_data import TYPO_MYCNF, make_fleet, small_upload
from tests.fixtures.service_data import make_organization


def test_a_fleet_reaudit_on_sqlite(tmp_path: Path, use_env: Callable[..., None]) -> None:
    """Four servers re-audited in process, twice with a changed line between: progress, summary and
    drift read the same as on PostgreSQL."""
    from conf.settings import get_settings
    from migrations.commands import upgrade

    use_env(DATABASE_URL=f"sqlite:///{tmp_path / 'embedded.db'}", CELERY_BROKER_URL=None)
    assert get_settings().embedded
    upgrade(get_settings().database_url)
    organization = make_organization()
    fleet = make_fleet(organization, 4)

    def reaudit() -> dict[str, object]:
        with jobs.unit_of_work() as session:  # sends the dispatch after its commit
            run_id = start_reaudit(session, organization.id, fleet.id, force=False).id
        wait_for_embedded_work()
        wait_for_embedded_work()  # the audits the dispatch queued behind itself
        with unit_of_work() as session:
            return get_run_progress(session, organization.id, fleet.id, run_id)

    first = reaudit()
    assert (first["finished"], first["succeeded"], first["done"]) == (True, 4, 4)
    fixed = TYPO_MYCNF.replace("innodb_bufer_pool_size", "innodb_buffer_pool_size")
    with unit_of_work() as session:
        ingest_snapshot(session, organization.id, fleet.server_ids[0], small_upload(fixed))
    second = reaudit()
    assert (second["succeeded"], second["skipped_unchanged"], second["finished"]) == (1, 3, True)
    with unit_of_work() as session:
        summary = fleet_summary(session, organization.id, fleet.id)
        drift = server_drift(session, organization.id, fleet.server_ids[0])
    assert summary["servers"] == 4
    assert {entry["rule"]: entry["servers"] for entry in summary["top_rules"]}[
        "config_validity.possible_typo"
    ] == 3
    assert summary["latest_run"]["succeeded"] == 1
    # The typo was two findings: the misspelt line commented out, the intended option written instead.
    assert [finding["rule"] for finding in drift["findings"]["resolved"]] == [
        "config_validity.possible_typo"
    ] * 2
    assert drift["mycnf"]["files"][0]["added"] == [{"line": 2, "text": "innodb_buffer_pool_size = 128M"}]
