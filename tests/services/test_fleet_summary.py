"""The fleet summary over 60 servers audited by the real worker: servers by worst severity, the most
frequent rules, departures from the fleet's majority, newly wrong servers, and the run's progress."""

from __future__ import annotations

from sqlalchemy import update

from services.audits.runs import execute_audit
from services.fleets import fleet_summary, get_run_progress, start_reaudit
from services.fleets.jobs import dispatch_fleets
from services.servers import ServerFields, create_server
from services.snapshots import ingest_snapshot
from store.db import unit_of_work
from store.models import Audit
from tests.corpus import corpus_file
from tests.fixtures.fleet_data import TYPO_MYCNF, make_fleet, small_upload
from tests.fixtures.service_data import VARIABLES, OrganizationHandle, wait_for
from tests.fixtures.worker_process import WorkerProcess

FIXED_MYCNF = TYPO_MYCNF.replace("innodb_bufer_pool_size", "innodb_buffer_pool_size")
SERVERS = 60


def _variables_with(max_connections: int) -> str:
    text = corpus_file(VARIABLES).read_text()
    assert "\nmax_connections\t151\n" in text
    return text.replace("\nmax_connections\t151\n", f"\nmax_connections\t{max_connections}\n")


def test_summary_of_a_sixty_server_fleet(
    fleet_organization: OrganizationHandle, worker_process: WorkerProcess
) -> None:
    """40 servers keep a typo'd option and 20 fixed it; 4 run max_connections = 500 against a majority of
    151; 2 have nothing uploaded; after a forced re-audit through the worker the summary says so."""
    fleet = make_fleet(fleet_organization, SERVERS - 2, upload=small_upload(FIXED_MYCNF))
    typo_servers, departing = fleet.server_ids[:40], fleet.server_ids[40:44]
    with unit_of_work() as session:
        for server_id in typo_servers:  # a newer snapshot: the typo
            ingest_snapshot(session, fleet_organization.id, server_id, small_upload(TYPO_MYCNF))
        for server_id in departing:
            ingest_snapshot(
                session, fleet_organization.id, server_id, small_upload(FIXED_MYCNF, _variables_with(500))
            )
        for name in ("empty-1", "empty-2"):
            create_server(session, fleet_organization.id, ServerFields(name=name, fleet_id=fleet.id))
        run = start_reaudit(session, fleet_organization.id, fleet.id, force=True)
    dispatch_fleets(chunk_size=25)

    def finished() -> dict[str, object] | None:
        with unit_of_work() as session:
            progress = get_run_progress(session, fleet_organization.id, fleet.id, run.id)
        return progress if progress["finished"] else None

    progress = wait_for(finished, timeout=120, interval=0.2)
    assert isinstance(progress, dict)
    assert (progress["total"], progress["done"], progress["succeeded"], progress["skipped_no_snapshot"]) == (
        SERVERS,
        SERVERS,
        SERVERS - 2,
        2,
    )
    with unit_of_work() as session:
        summary = fleet_summary(session, fleet_organization.id, fleet.id)
    assert summary["servers"] == SERVERS
    assert summary["by_severity"]["unaudited"]["count"] == 2
    assert sum(group["count"] for group in summary["by_severity"].values()) == SERVERS
    rules = {entry["rule"]: entry["servers"] for entry in summary["top_rules"]}
    assert rules["config_validity.possible_typo"] == 40
    assert max(rules.values()) == summary["top_rules"][0]["servers"]
    departures = {entry["variable"]: entry for entry in summary["departures"]}
    assert set(departures) == {"max_connections"}
    connections = departures["max_connections"]
    assert (
        connections["majority_value"],
        connections["majority_servers"],
        connections["departing_count"],
    ) == (
        "151",
        SERVERS - 2 - 4,
        4,
    )
    assert {entry["id"] for entry in connections["departing"]} == set(departing)
    assert {entry["value"] for entry in connections["departing"]} == {"500"}
    assert summary["latest_run"]["id"] == run.id and summary["latest_run"]["finished"]


def test_newly_wrong_lists_servers_with_new_findings(fleet_organization: OrganizationHandle) -> None:
    """A server whose latest audit raised a finding its previous audit lacked is newly wrong; the others
    (same findings as before) are not."""
    fleet = make_fleet(fleet_organization, 3, upload=small_upload(FIXED_MYCNF))

    def audit_all() -> None:
        from services.audits import submit_audit

        for server_id in fleet.server_ids:
            with unit_of_work() as session:
                audit, _ = submit_audit(
                    session,
                    fleet_organization.id,
                    server_id=server_id,
                    snapshot_id=None,
                    callback_url=None,
                    idempotency_key=None,
                    request_hash=None,
                )
                audit_id = audit.id
            with unit_of_work() as session:
                execute_audit(session, audit_id)

    audit_all()
    with unit_of_work() as session:
        ingest_snapshot(session, fleet_organization.id, fleet.server_ids[1], small_upload(TYPO_MYCNF))
    audit_all()
    with unit_of_work() as session:
        summary = fleet_summary(session, fleet_organization.id, fleet.id)
        # The summary reads the stored comparison, not the findings: prove it by emptying them.
        session.execute(
            update(Audit).where(Audit.server_id.in_(fleet.server_ids)).values(stored_findings=None)
        )
        again = fleet_summary(session, fleet_organization.id, fleet.id)
        session.rollback()
    newly = summary["newly_wrong"]
    assert newly["count"] == 1
    assert newly["servers"][0]["id"] == fleet.server_ids[1]
    # The misspelt line commented out, and the intended option written with the user's value.
    assert newly["servers"][0]["new"] == [
        "config_validity.possible_typo|innodb_bufer_pool_size",
        "config_validity.possible_typo|innodb_buffer_pool_size",
    ]
    assert again == summary
