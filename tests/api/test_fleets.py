"""/v1/fleets: CRUD, validation, scoping on every endpoint, and a re-audit through the real worker."""

from __future__ import annotations

import time
import uuid
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.api.helpers import Tenant, Tenants, assert_problem, corpus_json
from tests.fixtures.worker_process import WorkerProcess

DAILY = {"schedule_interval_seconds": 86400}


def _fleet(client: TestClient, tenant: Tenant, **fields: Any) -> dict[str, Any]:
    body = {"name": f"fleet-{uuid.uuid4().hex[:8]}", **DAILY, **fields}
    response = client.post("/v1/fleets", json=body, headers=tenant.headers)
    assert response.status_code == 201, response.text
    created: dict[str, Any] = response.json()
    return created


def _server_in(client: TestClient, tenant: Tenant, fleet_id: str, *, snapshot: bool = True) -> str:
    server = client.post(
        "/v1/servers",
        json={"name": f"db-{uuid.uuid4().hex[:8]}", "fleet_id": fleet_id},
        headers=tenant.headers,
    )
    assert server.status_code == 201, server.text
    if snapshot:
        uploaded = client.post(
            f"/v1/servers/{server.json()['id']}/snapshots", json=corpus_json(), headers=tenant.headers
        )
        assert uploaded.status_code == 201, uploaded.text
    return str(server.json()["id"])


def test_create_read_update_delete(client: TestClient, tenants: Tenants) -> None:
    """201 with Location and the stored fields; GET and list show it; PATCH switches the schedule; DELETE
    is 204, then 404, and its servers stay, fleetless."""
    mine = tenants.mine
    response = client.post(
        "/v1/fleets",
        json={"name": f"eu-{uuid.uuid4().hex[:6]}", "schedule_cron": "0 3 * * *", "default_role": "replica"},
        headers=mine.headers,
    )
    assert response.status_code == 201, response.text
    fleet = response.json()
    assert response.headers["location"] == f"/v1/fleets/{fleet['id']}"
    assert (fleet["schedule_cron"], fleet["schedule_interval_seconds"], fleet["default_role"]) == (
        "0 3 * * *",
        None,
        "replica",
    )
    assert fleet["next_run_at"].endswith(("03:00:00Z", "03:00:00+00:00"))
    assert client.get(response.headers["location"], headers=mine.headers).json() == fleet
    listed = client.get("/v1/fleets", params={"limit": 200}, headers=mine.headers).json()["items"]
    assert fleet["id"] in {item["id"] for item in listed}
    server_id = _server_in(client, mine, fleet["id"], snapshot=False)
    server = client.get(f"/v1/servers/{server_id}", headers=mine.headers).json()
    assert (server["fleet"], server["fleet_id"], server["role"]) == (fleet["name"], fleet["id"], "replica")
    changed = client.patch(
        f"/v1/fleets/{fleet['id']}", json={"schedule_interval_seconds": 600}, headers=mine.headers
    )
    assert changed.status_code == 200, changed.text
    assert (changed.json()["schedule_cron"], changed.json()["schedule_interval_seconds"]) == (None, 600)
    assert client.delete(f"/v1/fleets/{fleet['id']}", headers=mine.headers).status_code == 204
    assert_problem(client.get(f"/v1/fleets/{fleet['id']}", headers=mine.headers), 404)
    assert client.get(f"/v1/servers/{server_id}", headers=mine.headers).json()["fleet_id"] is None


@pytest.mark.parametrize(
    "body",
    [
        {"name": "x"},
        {"name": "x", "schedule_cron": "0 3 * * *", "schedule_interval_seconds": 60},
        {"name": "x", "schedule_cron": "every night"},
        {"name": "x", "schedule_interval_seconds": 0},
        {"name": "x", "schedule_interval_seconds": 60, "colour": "red"},
        {"name": "x", "schedule_interval_seconds": 60, "default_profile": "staging"},
    ],
)
def test_bad_fleets_are_422(client: TestClient, tenants: Tenants, body: dict[str, Any]) -> None:
    """Exactly one valid schedule, known fields and known roles/profiles only."""
    assert_problem(client.post("/v1/fleets", json=body, headers=tenants.mine.headers), 422)


def test_duplicate_name_is_409(client: TestClient, tenants: Tenants) -> None:
    """Fleet names are unique per organisation; another organisation may use the name."""
    fleet = _fleet(client, tenants.mine)
    again = client.post("/v1/fleets", json={"name": fleet["name"], **DAILY}, headers=tenants.mine.headers)
    assert "already exists" in assert_problem(again, 409)["detail"]
    assert (
        client.post(
            "/v1/fleets", json={"name": fleet["name"], **DAILY}, headers=tenants.theirs.headers
        ).status_code
        == 201
    )


def test_another_organisations_fleet_is_404_on_every_endpoint(client: TestClient, tenants: Tenants) -> None:
    """Their fleet, its run, its summary, their server's drift and their audit's comparison: all 404."""
    theirs = _fleet(client, tenants.theirs)
    run = client.post(f"/v1/fleets/{theirs['id']}/reaudit", headers=tenants.theirs.headers)
    assert run.status_code == 202, run.text
    base = f"/v1/fleets/{theirs['id']}"
    mine = tenants.mine.headers
    assert_problem(client.get(base, headers=mine), 404)
    assert_problem(client.patch(base, json={"name": "stolen"}, headers=mine), 404)
    assert_problem(client.delete(base, headers=mine), 404)
    assert_problem(client.post(f"{base}/reaudit", params={"force": "true"}, headers=mine), 404)
    assert_problem(client.get(f"{base}/runs/{run.json()['id']}", headers=mine), 404)
    assert_problem(client.get(f"{base}/summary", headers=mine), 404)
    their_server = _server_in(client, tenants.theirs, theirs["id"])
    assert_problem(client.get(f"/v1/servers/{their_server}/drift", headers=mine), 404)
    their_audit = _queued_audit(tenants.theirs, their_server)
    assert_problem(client.get(f"/v1/audits/{their_audit}/compare/{their_audit}", headers=mine), 404)
    assert (
        "queued"
        in assert_problem(
            client.get(f"/v1/audits/{their_audit}/compare/{their_audit}", headers=tenants.theirs.headers), 409
        )["detail"]
    )
    assert client.get(base, headers=tenants.theirs.headers).json()["name"] == theirs["name"]
    mine_listed = client.get("/v1/fleets", params={"limit": 200}, headers=mine).json()["items"]
    assert theirs["id"] not in {item["id"] for item in mine_listed}


def _queued_audit(tenant: Tenant, server_id: str) -> str:
    """An audit committed as queued and never sent: it stays queued."""
    from services.audits import submit_audit
    from store.db import unit_of_work

    with unit_of_work() as session:
        audit, _ = submit_audit(
            session,
            tenant.org_id,
            server_id=server_id,
            snapshot_id=None,
            callback_url=None,
            idempotency_key=None,
            request_hash=None,
        )
        return str(audit.id)


def _wait_finished(client: TestClient, tenant: Tenant, location: str, timeout: float = 60) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while True:
        progress: dict[str, Any] = client.get(location, headers=tenant.headers).json()
        if progress["finished"] or time.monotonic() > deadline:
            return progress
        time.sleep(0.2)


def test_reaudit_through_the_worker_then_skip_unchanged(
    client: TestClient, tenants: Tenants, worker_process: WorkerProcess
) -> None:
    """A forced re-audit of three servers (one without a snapshot) finishes through the real worker,
    N of M counted; a second, unforced one skips the unchanged servers; the summary counts them all."""
    mine = tenants.mine
    fleet = _fleet(client, mine)
    for _ in range(2):
        _server_in(client, mine, fleet["id"])
    _server_in(client, mine, fleet["id"], snapshot=False)
    started = client.post(f"/v1/fleets/{fleet['id']}/reaudit", params={"force": "true"}, headers=mine.headers)
    assert started.status_code == 202, started.text
    assert started.headers["location"] == f"/v1/fleets/{fleet['id']}/runs/{started.json()['id']}"
    assert (started.json()["total"], started.json()["forced"], started.json()["finished"]) == (3, True, False)
    progress = _wait_finished(client, mine, started.headers["location"])
    assert progress["finished"], progress
    assert (progress["done"], progress["succeeded"], progress["failed"], progress["skipped_no_snapshot"]) == (
        3,
        2,
        0,
        1,
    )
    again = client.post(f"/v1/fleets/{fleet['id']}/reaudit", headers=mine.headers)
    progress = _wait_finished(client, mine, again.headers["location"])
    assert (progress["done"], progress["skipped_unchanged"], progress["succeeded"]) == (3, 2, 0)
    summary = client.get(f"/v1/fleets/{fleet['id']}/summary", headers=mine.headers)
    assert summary.status_code == 200, summary.text
    body = summary.json()
    assert body["servers"] == 3 and body["by_severity"]["unaudited"]["count"] == 1
    assert sum(group["count"] for group in body["by_severity"].values()) == 3
    assert body["top_rules"] and body["top_rules"][0]["servers"] == 2
    assert body["latest_run"]["id"] == again.json()["id"]
