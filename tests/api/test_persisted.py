"""Persisted values (MySQL 8.0+'s mysqld-auto.cnf) through the API: stored with the snapshot and redacted
like the variables, refused naming file and line, and judged by the audit the worker runs (a capture of a
real 8.0.46: tests/fixtures/persisted_mysql80)."""

from __future__ import annotations

import uuid
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from tests.api.helpers import Tenants, assert_problem
from tests.fixtures.worker_process import WorkerProcess

CAPTURE = Path(__file__).parents[1] / "fixtures" / "persisted_mysql80"
MYCNF_PATH = "/etc/mysql/my.cnf"


def _server(client: TestClient, headers: dict[str, str]) -> str:
    response = client.post("/v1/servers", json={"name": f"db-{uuid.uuid4().hex[:8]}"}, headers=headers)
    assert response.status_code == 201, response.text
    return str(response.json()["id"])


def _body(persisted: str) -> dict[str, Any]:
    return {
        "mycnf": {MYCNF_PATH: (CAPTURE / "my.cnf").read_text()},
        "variables": (CAPTURE / "variables.tsv").read_text(),
        "persisted": persisted,
        "hardware": {"memory": "8G", "cpus": 2, "storage": "ssd"},
    }


def test_persisted_values_are_stored_and_judged_by_the_audit(
    client: TestClient, tenants: Tenants, worker_process: WorkerProcess
) -> None:
    """The JSON upload keeps `persisted` (a secret-named row redacted like a variables dump), and the audit
    of the snapshot takes max_connections' persisted 300 as what a restart brings: no drift, where the file's
    200 alone was drift with `SET PERSIST max_connections = 200`."""
    headers = tenants.mine.headers
    server_id = _server(client, headers)
    persisted = (CAPTURE / "persisted.tsv").read_text() + "replication_sender_password\thunter2\n"
    uploaded = client.post(f"/v1/servers/{server_id}/snapshots", json=_body(persisted), headers=headers)
    assert uploaded.status_code == 201, uploaded.text
    assert "persisted" in uploaded.json()["inputs_present"]
    stored = client.get(uploaded.headers["location"], headers=headers).json()["inputs"]["persisted"]
    assert "max_connections\t300" in stored and "hunter2" not in stored
    audit = client.post("/v1/audits", params={"wait": 30}, json={"server_id": server_id}, headers=headers)
    assert audit.status_code == 200 and audit.json()["status"] == "succeeded", audit.text
    drift = {entry["name"]: entry for entry in audit.json()["drift"]}
    assert "max_connections" not in drift
    assert drift["innodb_io_capacity"]["persisted_value"] == "1000"
    assert drift["innodb_io_capacity"]["apply_sql"] == "SET PERSIST innodb_io_capacity = 1000;"


def test_bad_persisted_values_are_422_naming_file_and_line(client: TestClient, tenants: Tenants) -> None:
    """A multipart `persisted` part with a line no listing has is refused as problem+json with its name and
    line; a SHOW GLOBAL VARIABLES given there is refused naming the file."""
    headers = tenants.mine.headers
    server_id = _server(client, headers)
    broken = "VARIABLE_NAME\tVARIABLE_VALUE\nmax_connections\t300\n+---+\n"
    files = [
        ("mycnf", (MYCNF_PATH, (CAPTURE / "my.cnf").read_bytes())),
        ("variables", ("variables.tsv", (CAPTURE / "variables.tsv").read_bytes())),
        ("persisted", ("persisted.tsv", broken.encode())),
    ]
    response = client.post(f"/v1/servers/{server_id}/snapshots", files=files, headers=headers)
    problem = assert_problem(response, 422)
    assert (problem["file"], problem["line"]) == ("persisted.tsv", 3)
    whole = _body((CAPTURE / "variables.tsv").read_text())
    problem = assert_problem(
        client.post(f"/v1/servers/{server_id}/snapshots", json=whole, headers=headers), 422
    )
    assert problem["file"] == "persisted" and "SHOW GLOBAL VARIABLES" in problem["detail"]
