"""/v1/audits against a real worker: submit, long-poll, findings, diff, my.cnf, idempotency, scoping."""

from __future__ import annotations

import subprocess
import time
import uuid
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from advisor.units import parse_size
from tests.api.helpers import (
    FINDING_FIELDS,
    MYCNF_TEXT,
    SECRET,
    VARIABLES_FILE,
    Tenant,
    Tenants,
    assert_problem,
    corpus_upload,
)
from tests.corpus import corpus_file
from tests.fixtures.worker_process import WorkerProcess
from tests.recommended import assert_same_but_secrets

#: the sysbench machine: 24 GiB, 2 cores, SSD-class disk (corpus README).
HARDWARE = {"memory": "24G", "cpus": 2, "storage": "ssd"}


@pytest.fixture
def worker(worker_process: WorkerProcess) -> WorkerProcess:
    return worker_process


def _server_with_snapshot(client: TestClient, tenant: Tenant) -> tuple[str, str]:
    server = client.post(
        "/v1/servers",
        json={"name": f"db-{uuid.uuid4().hex[:8]}", "hardware": HARDWARE},
        headers=tenant.headers,
    )
    assert server.status_code == 201, server.text
    snapshot = client.post(
        f"/v1/servers/{server.json()['id']}/snapshots", files=corpus_upload(), headers=tenant.headers
    )
    assert snapshot.status_code == 201, snapshot.text
    return server.json()["id"], snapshot.json()["id"]


def _queued_audit(tenant: Tenant, server_id: str) -> str:
    """An audit committed as queued but never sent to the worker: it stays queued."""
    from services.audits import submit_audit
    from store.db import unit_of_work

    with unit_of_work() as session:
        audit, created = submit_audit(
            session,
            tenant.org_id,
            server_id=server_id,
            snapshot_id=None,
            callback_url=None,
            idempotency_key=None,
            request_hash=None,
        )
        assert created
        return audit.id


def _variable(name: str) -> str:
    for line in corpus_file(VARIABLES_FILE).read_text().splitlines():
        key, _, value = line.partition("\t")
        if key == name:
            return value
    raise AssertionError(f"{name} not in {VARIABLES_FILE}")


def test_submit_then_wait_gives_findings_diff_and_mycnf(
    client: TestClient, tenants: Tenants, worker: WorkerProcess, tmp_path: Path
) -> None:
    """202 + Location, then ?wait=30 gives a succeeded audit whose diff patches the my.cnf into its mycnf."""
    server_id, snapshot_id = _server_with_snapshot(client, tenants.mine)
    submitted = client.post("/v1/audits", json={"server_id": server_id}, headers=tenants.mine.headers)
    assert submitted.status_code == 202, submitted.text
    location = submitted.headers["location"]
    assert location == f"/v1/audits/{submitted.json()['id']}"
    assert submitted.json()["snapshot_id"] == snapshot_id
    # The 202 body is the whole resource: every field, the server it will run as already known.
    assert set(submitted.json()) >= {"status", "created_at", "server", "findings", "drift", "links"}
    server = {"flavor": "mariadb", "version": "10.11.19-MariaDB-0+deb12u1", "role": "standalone"}
    assert submitted.json()["server"] == server
    audit = client.get(location, params={"wait": 30}, headers=tenants.mine.headers).json()
    assert audit["status"] == "succeeded", audit
    assert audit["server"] == server
    assert audit["duration_ms"] is not None and audit["finished_at"] >= audit["started_at"]
    assert audit["findings"] and all(set(finding) >= FINDING_FIELDS for finding in audit["findings"])
    pool = next(f for f in audit["findings"] if f["variable"] == "innodb_buffer_pool_size")
    assert pool["current_value"] == int(_variable("innodb_buffer_pool_size"))
    # the same spelling on both sides: `128M` beside a recommended `16G`, never `134217728`
    assert pool["current"] == "128M" and pool["recommended"][-1] == "G"
    assert pool["recommended_value"] == parse_size(pool["recommended"])
    assert audit["worst_severity"] == audit["findings"][0]["severity"]

    diff = client.get(f"{location}/diff", headers=tenants.mine.headers)
    assert diff.status_code == 200 and diff.headers["content-type"].startswith("text/x-diff")
    assert "-innodb_buffer_pool_size = 128M" in diff.text
    assert f"+innodb_buffer_pool_size = {pool['recommended']}" in diff.text
    mycnf = client.get(f"{location}/mycnf", headers=tenants.mine.headers)
    assert mycnf.status_code == 200 and mycnf.headers["content-type"].startswith("text/plain")
    assert f"innodb_buffer_pool_size = {pool['recommended']}" in mycnf.text
    assert SECRET not in diff.text + mycnf.text + submitted.text
    # The diff is against the stored (redacted) option file: patch(1) turns it into the my.cnf.
    from advisor.redact import redact_option_text

    original = tmp_path / "my.cnf"
    original.write_text(redact_option_text(MYCNF_TEXT))
    subprocess.run(["patch", "-s", str(original)], input=diff.text, text=True, check=True)
    assert_same_but_secrets(original.read_text(), mycnf.text)


def test_post_with_wait_answers_200_with_the_finished_audit(
    client: TestClient, tenants: Tenants, worker: WorkerProcess
) -> None:
    """POST ?wait=30 is one call: 200 and the succeeded audit, still with Location."""
    server_id, _ = _server_with_snapshot(client, tenants.mine)
    response = client.post(
        "/v1/audits", params={"wait": 30}, json={"server_id": server_id}, headers=tenants.mine.headers
    )
    assert response.status_code == 200, response.text
    assert response.json()["status"] == "succeeded"
    assert response.headers["location"] == f"/v1/audits/{response.json()['id']}"


def test_idempotency_key_returns_the_same_audit_and_409_for_another_body(
    client: TestClient, tenants: Tenants, worker: WorkerProcess
) -> None:
    """Same key and body: the same audit id; same key, different body: 409 problem."""
    server_id, snapshot_id = _server_with_snapshot(client, tenants.mine)
    headers = {**tenants.mine.headers, "Idempotency-Key": f"provision-{uuid.uuid4()}"}
    body = {"server_id": server_id, "snapshot_id": snapshot_id}
    first = client.post("/v1/audits", json=body, headers=headers)
    again = client.post("/v1/audits", json=body, headers=headers)
    assert first.status_code == 202 and again.status_code in (200, 202)
    assert again.json()["id"] == first.json()["id"]
    other = client.post("/v1/audits", json={"server_id": server_id}, headers=headers)
    assert "Idempotency-Key" in assert_problem(other, 409)["detail"]
    # The key is the organisation's: theirs may use the same one for their own server.
    their_server, _ = _server_with_snapshot(client, tenants.theirs)
    theirs = client.post(
        "/v1/audits",
        json={"server_id": their_server},
        headers={**tenants.theirs.headers, "Idempotency-Key": headers["Idempotency-Key"]},
    )
    assert theirs.status_code == 202 and theirs.json()["id"] != first.json()["id"]


def test_diff_and_mycnf_are_409_while_not_succeeded(client: TestClient, tenants: Tenants) -> None:
    """A queued audit has no diff or my.cnf yet: 409 problem naming its status."""
    server_id, _ = _server_with_snapshot(client, tenants.mine)
    audit_id = _queued_audit(tenants.mine, server_id)
    for member in ("diff", "mycnf"):
        problem = assert_problem(
            client.get(f"/v1/audits/{audit_id}/{member}", headers=tenants.mine.headers), 409
        )
        assert "queued" in problem["detail"]


def test_wait_returns_when_the_time_runs_out(client: TestClient, tenants: Tenants) -> None:
    """?wait=0.5 on an audit that never runs answers after about half a second, still queued."""
    server_id, _ = _server_with_snapshot(client, tenants.mine)
    audit_id = _queued_audit(tenants.mine, server_id)
    started = time.monotonic()
    response = client.get(f"/v1/audits/{audit_id}", params={"wait": 0.5}, headers=tenants.mine.headers)
    elapsed = time.monotonic() - started
    assert response.status_code == 200 and response.json()["status"] == "queued"
    assert 0.5 <= elapsed < 5
    assert_problem(
        client.get(f"/v1/audits/{audit_id}", params={"wait": -1}, headers=tenants.mine.headers), 422
    )


def test_an_audit_needs_a_snapshot(client: TestClient, tenants: Tenants) -> None:
    """A server without snapshots cannot be audited: 422."""
    server = client.post(
        "/v1/servers", json={"name": f"db-{uuid.uuid4().hex[:8]}"}, headers=tenants.mine.headers
    )
    assert_problem(
        client.post("/v1/audits", json={"server_id": server.json()["id"]}, headers=tenants.mine.headers), 422
    )
    assert_problem(
        client.post("/v1/audits", json={"server_id": "x", "extra": 1}, headers=tenants.mine.headers), 422
    )


def test_another_organisations_audit_is_404_on_every_endpoint(client: TestClient, tenants: Tenants) -> None:
    """Their audit, its diff, its my.cnf, their server and their snapshot are all 404 for me."""
    their_server, their_snapshot = _server_with_snapshot(client, tenants.theirs)
    audit_id = _queued_audit(tenants.theirs, their_server)
    for path in (f"/v1/audits/{audit_id}", f"/v1/audits/{audit_id}/diff", f"/v1/audits/{audit_id}/mycnf"):
        assert_problem(client.get(path, headers=tenants.mine.headers), 404)
        assert_problem(client.get(path, params={"wait": 0.2}, headers=tenants.mine.headers), 404)
    assert_problem(
        client.post("/v1/audits", json={"server_id": their_server}, headers=tenants.mine.headers), 404
    )
    my_server, _ = _server_with_snapshot(client, tenants.mine)
    mixed = {"server_id": my_server, "snapshot_id": their_snapshot}
    assert_problem(client.post("/v1/audits", json=mixed, headers=tenants.mine.headers), 404)
    assert_problem(client.get(f"/v1/snapshots/{their_snapshot}", headers=tenants.mine.headers), 404)
    listed = client.get("/v1/audits", params={"server_id": their_server}, headers=tenants.mine.headers)
    assert listed.status_code == 200 and listed.json()["items"] == []
    assert client.get(f"/v1/audits/{audit_id}", headers=tenants.theirs.headers).status_code == 200


def _ids(client: TestClient, tenant: Tenant, **params: Any) -> list[str]:
    body = client.get("/v1/audits", params={"limit": 200, **params}, headers=tenant.headers).json()
    return [item["id"] for item in body["items"]]


def test_list_filters_by_server_status_and_severity_and_paginates(
    client: TestClient, tenants: Tenants, worker: WorkerProcess
) -> None:
    """Filters narrow the list; limit=1 pages through a server's audits in submission order."""
    server_id, _ = _server_with_snapshot(client, tenants.mine)
    done = client.post(
        "/v1/audits", params={"wait": 30}, json={"server_id": server_id}, headers=tenants.mine.headers
    ).json()
    queued = _queued_audit(tenants.mine, server_id)
    assert _ids(client, tenants.mine, server_id=server_id) == [done["id"], queued]
    assert _ids(client, tenants.mine, server_id=server_id, status="queued") == [queued]
    assert _ids(client, tenants.mine, server_id=server_id, status="succeeded") == [done["id"]]
    assert _ids(client, tenants.mine, server_id=server_id, severity=done["worst_severity"]) == [done["id"]]
    first = client.get(
        "/v1/audits", params={"server_id": server_id, "limit": 1}, headers=tenants.mine.headers
    )
    cursor = first.json()["next_cursor"]
    second = client.get(
        "/v1/audits",
        params={"server_id": server_id, "limit": 1, "cursor": cursor},
        headers=tenants.mine.headers,
    )
    assert [first.json()["items"][0]["id"], second.json()["items"][0]["id"]] == [done["id"], queued]
    assert second.json()["next_cursor"] is None
    assert_problem(client.get("/v1/audits", params={"status": "lost"}, headers=tenants.mine.headers), 422)
    assert_problem(client.get("/v1/audits", params={"severity": "dire"}, headers=tenants.mine.headers), 422)
