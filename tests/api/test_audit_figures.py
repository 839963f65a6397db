"""The audit resource's `figures`: the numbers behind the web pages' pictures, null until it succeeded."""

from __future__ import annotations

from fastapi.testclient import TestClient

from advisor.units import parse_size
from tests.api.helpers import Tenants, corpus_upload
from tests.fixtures.service_data import OrganizationHandle, queued_audit
from tests.fixtures.worker_process import WorkerProcess

GIB = 1024**3


def test_a_finished_audit_carries_its_figures(
    client: TestClient, tenants: Tenants, worker_process: WorkerProcess
) -> None:
    """24 GiB of memory and two status dumps: usable memory, the live pool, the redo rate, and the
    recommended pool equal to the pool finding's; the same object on GET; no dataset without tables."""
    response = client.post(
        "/v1/analyze",
        params={"wait": 30},
        files=corpus_upload(),
        data={"memory": "24G", "cpus": "2", "storage": "ssd"},
        headers=tenants.mine.headers,
    )
    assert response.status_code == 200, response.text
    audit = response.json()
    figures = audit["figures"]
    pool = next(f for f in audit["findings"] if f["variable"] == "innodb_buffer_pool_size")
    assert figures["usable_memory_bytes"] == 24 * GIB
    assert figures["buffer_pool_bytes"] == pool["current_value"]
    assert figures["recommended_buffer_pool_bytes"] == parse_size(pool["recommended"])
    assert figures["redo_bytes_per_hour"] > 0 and figures["redo_capacity_bytes"] > 0
    assert figures["dataset_bytes"] is None
    again = client.get(f"/v1/audits/{audit['id']}", headers=tenants.mine.headers)
    assert again.json()["figures"] == figures


def test_a_queued_audit_has_no_figures_yet(client: TestClient, organization: OrganizationHandle) -> None:
    """Before a worker has run it, `figures` is null."""
    queued = queued_audit(organization)  # committed, never sent to a worker
    response = client.get(
        f"/v1/audits/{queued.audit_id}", headers={"Authorization": f"Bearer {organization.key}"}
    )
    assert response.status_code == 200 and response.json()["status"] == "queued"
    assert response.json()["figures"] is None
