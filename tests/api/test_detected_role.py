"""The role `innotune collect --upload` detects reaches the audit: the collector's own upload code
against `innotune serve` on PostgreSQL with a real worker. A role a user gave the server wins."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import httpx
import pytest

from collector.files import snapshot_files
from collector.role import RoleFinding
from collector.upload import upload_snapshot
from tests.api.helpers import Tenants
from tests.collector.snapshots import corpus_snapshot
from tests.fixtures.real_services import ServiceUrls, service_environment
from tests.fixtures.server_process import serve
from tests.fixtures.worker_process import WorkerProcess

REPLICA = RoleFinding("replica", "replicating from 10.0.0.5 (I/O thread yes, SQL thread yes)")
#: rules that only a replica's audit runs (the corpus server is writable, without log_slave_updates).
REPLICA_ONLY = {"replication.replica_writable", "replication.replica_updates_off"}


@pytest.fixture
def server_url(service_urls: ServiceUrls, worker_process: WorkerProcess, tmp_path: Path) -> Iterator[str]:
    with serve(service_environment(service_urls), tmp_path / "serve.log") as url:
        yield url


def _upload(url: str, key: str, server_id: str, role: RoleFinding | None) -> str:
    snapshot = replace(corpus_snapshot(), role=role)
    hardware = {"memory": 24 * 1024**3, "cpus": 2, "storage": "ssd"}
    return upload_snapshot(snapshot_files(snapshot, hardware), url, key, server_id, snapshot.role)


def _audit(http: httpx.Client, server_id: str, snapshot_id: str) -> dict[str, Any]:
    response = http.post(
        "/v1/audits", params={"wait": 30}, json={"server_id": server_id, "snapshot_id": snapshot_id}
    )
    assert response.status_code == 200, response.text
    audit: dict[str, Any] = response.json()
    assert audit["status"] == "succeeded", audit
    return audit


def test_the_detected_role_is_the_audits_unless_a_user_gave_the_servers_role(
    server_url: str, tenants: Tenants
) -> None:
    """A server registered without a role takes the uploaded `replica` and its audit runs the
    replica-only rules; once a user sets `standalone`, a later upload saying replica changes nothing."""
    key = tenants.mine.key
    headers = {"Authorization": f"Bearer {key}"}
    with httpx.Client(base_url=server_url, headers=headers, timeout=60) as http:
        created = http.post("/v1/servers", json={"name": f"db-{uuid.uuid4().hex[:8]}"})
        assert created.status_code == 201, created.text
        server = created.json()
        assert (server["role"], server["role_source"]) == ("standalone", "default")

        detected = _upload(server_url, key, server["id"], REPLICA)
        snapshot = http.get(f"/v1/servers/{server['id']}/snapshots/{detected}").json()
        assert snapshot["detected_role"] == "replica"
        learned = http.get(f"/v1/servers/{server['id']}").json()
        assert (learned["role"], learned["role_source"]) == ("replica", "detected")
        as_replica = _audit(http, server["id"], detected)
        assert as_replica["server"]["role"] == "replica"
        assert {finding["rule"] for finding in as_replica["findings"]} >= REPLICA_ONLY

        given = http.patch(f"/v1/servers/{server['id']}", json={"role": "standalone"})
        assert given.status_code == 200, given.text
        assert (given.json()["role"], given.json()["role_source"]) == ("standalone", "given")
        again = _upload(server_url, key, server["id"], REPLICA)
        kept = http.get(f"/v1/servers/{server['id']}").json()
        assert (kept["role"], kept["role_source"]) == ("standalone", "given")
        overridden = _audit(http, server["id"], again)
        assert overridden["server"]["role"] == "standalone"
        assert not REPLICA_ONLY & {finding["rule"] for finding in overridden["findings"]}


def test_a_detected_role_the_service_does_not_know_is_a_problem(server_url: str, tenants: Tenants) -> None:
    """An unknown role word is refused with a 422 naming the field; nothing is stored."""
    key = tenants.mine.key
    headers = {"Authorization": f"Bearer {key}"}
    with httpx.Client(base_url=server_url, headers=headers, timeout=60) as http:
        server_id = http.post("/v1/servers", json={"name": f"db-{uuid.uuid4().hex[:8]}"}).json()["id"]
        files = [
            (file.field, (file.name, file.text.encode())) for file in snapshot_files(corpus_snapshot(), None)
        ]
        refused = http.post(
            f"/v1/servers/{server_id}/snapshots", files=files, data={"detected_role": "leader"}
        )
        assert refused.status_code == 422, refused.text
        assert "detected_role" in refused.json()["detail"]
        assert http.get(f"/v1/servers/{server_id}/snapshots").json()["items"] == []
