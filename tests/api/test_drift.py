"""Drift through the API and the real worker: one my.cnf line changed between two audits of a server."""

from __future__ import annotations

import uuid
from typing import Any

from fastapi.testclient import TestClient

from tests.api.helpers import MYCNF_PATH, Tenant, Tenants, assert_problem, corpus_json
from tests.fixtures.worker_process import WorkerProcess

TYPO_FINDINGS = {
    ("config_validity.possible_typo", "innodb_bufer_pool_size"),
    ("config_validity.possible_typo", "innodb_buffer_pool_size"),
}
#: line 2 has a typo (config_validity.possible_typo); snapshot B changes only that line, to a value
#: the server cannot read (config_validity.invalid_value) that also differs from the live value.
MYCNF_A = "[mysqld]\ninnodb_bufer_pool_size = 128M\nmax_connections = 151\n"
MYCNF_B = "[mysqld]\ninnodb_buffer_pool_size = banana\nmax_connections = 151\n"


def _audit(client: TestClient, tenant: Tenant, server_id: str, mycnf: str) -> str:
    uploaded = client.post(
        f"/v1/servers/{server_id}/snapshots", json=corpus_json(mycnf), headers=tenant.headers
    )
    assert uploaded.status_code == 201, uploaded.text
    audit = client.post(
        "/v1/audits", params={"wait": 30}, json={"server_id": server_id}, headers=tenant.headers
    )
    assert audit.status_code == 200 and audit.json()["status"] == "succeeded", audit.text
    return str(audit.json()["id"])


def _keys(findings: list[dict[str, Any]]) -> set[tuple[str, str | None]]:
    return {(finding["rule"], finding["variable"]) for finding in findings}


def test_drift_after_one_cnf_line_changed(
    client: TestClient, tenants: Tenants, worker_process: WorkerProcess
) -> None:
    """GET /drift names the changed line (removed and added, line 2), the resolved typo finding, the new
    invalid-value finding and the new live-vs-file drift; /compare says the same, and the reverse."""
    mine = tenants.mine
    server = client.post(
        "/v1/servers", json={"name": f"db-{uuid.uuid4().hex[:8]}"}, headers=mine.headers
    ).json()
    first = _audit(client, mine, server["id"], MYCNF_A)
    only_one = client.get(f"/v1/servers/{server['id']}/drift", headers=mine.headers).json()
    assert only_one["previous_audit_id"] is None and only_one["audit_id"] == first
    second = _audit(client, mine, server["id"], MYCNF_B)

    response = client.get(f"/v1/servers/{server['id']}/drift", headers=mine.headers)
    assert response.status_code == 200, response.text
    drift = response.json()
    assert (drift["audit_id"], drift["previous_audit_id"]) == (second, first)
    [changed] = drift["mycnf"]["files"]
    assert changed["path"] == MYCNF_PATH
    assert changed["removed"] == [{"line": 2, "text": "innodb_bufer_pool_size = 128M"}]
    assert changed["added"] == [{"line": 2, "text": "innodb_buffer_pool_size = banana"}]
    assert "-innodb_bufer_pool_size = 128M\n+innodb_buffer_pool_size = banana" in changed["diff"]
    assert _keys(drift["findings"]["new"]) == {("config_validity.invalid_value", "innodb_buffer_pool_size")}
    # The typo was two findings: the misspelt line commented out, the intended option written instead.
    assert _keys(drift["findings"]["resolved"]) == TYPO_FINDINGS
    assert drift["findings"]["unchanged"]
    assert drift["drift"]["new"] == ["innodb_buffer_pool_size"]
    assert {"name": "innodb_buffer_pool_size", "file_value": "banana", "live_value": "134217728"}.items() <= (
        drift["drift"]["live_vs_file"][0].items()
    )

    compared = client.get(f"/v1/audits/{second}/compare/{first}", headers=mine.headers).json()
    assert compared == drift
    reverse = client.get(f"/v1/audits/{first}/compare/{second}", headers=mine.headers).json()
    assert _keys(reverse["findings"]["new"]) == TYPO_FINDINGS
    assert reverse["mycnf"]["files"][0]["added"] == [{"line": 2, "text": "innodb_bufer_pool_size = 128M"}]


def test_drift_needs_a_succeeded_audit(client: TestClient, tenants: Tenants) -> None:
    """No succeeded audit yet: /drift is a 404; comparing with an unfinished audit is a 409."""
    from services.audits import submit_audit
    from store.db import unit_of_work

    mine = tenants.mine
    server = client.post(
        "/v1/servers", json={"name": f"db-{uuid.uuid4().hex[:8]}"}, headers=mine.headers
    ).json()
    assert_problem(client.get(f"/v1/servers/{server['id']}/drift", headers=mine.headers), 404)
    client.post(f"/v1/servers/{server['id']}/snapshots", json=corpus_json(), headers=mine.headers)
    with unit_of_work() as session:  # committed as queued, never sent: it stays queued
        audit, _ = submit_audit(
            session,
            mine.org_id,
            server_id=server["id"],
            snapshot_id=None,
            callback_url=None,
            idempotency_key=None,
            request_hash=None,
        )
        queued = audit.id
    assert (
        "queued"
        in assert_problem(client.get(f"/v1/audits/{queued}/compare/{queued}", headers=mine.headers), 409)[
            "detail"
        ]
    )
