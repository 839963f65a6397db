"""`innotune serve` as a real process on PostgreSQL, with a real worker: the analyze flow over HTTP."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.api.helpers import FINDING_FIELDS, PROBLEM_JSON, SECRET, Tenants, corpus_upload
from tests.fixtures.real_services import ServiceUrls, service_environment
from tests.fixtures.server_process import serve
from tests.fixtures.worker_process import WorkerProcess


@pytest.fixture
def server_url(service_urls: ServiceUrls, worker_process: WorkerProcess, tmp_path: Path) -> Iterator[str]:
    """The API process on a free port, sharing the run's database and queue with the worker."""
    with serve(service_environment(service_urls), tmp_path / "serve.log") as url:
        yield url


def test_analyze_over_http_against_postgres_and_the_worker(server_url: str, tenants: Tenants) -> None:
    """multipart upload + ?wait=30 over a real socket: 200, findings, diff and my.cnf; errors are problems."""
    headers = {"Authorization": f"Bearer {tenants.mine.key}"}
    with httpx.Client(base_url=server_url, timeout=60) as http:
        response = http.post(
            "/v1/analyze",
            params={"wait": 30},
            files=corpus_upload(),
            data={"memory": "24G", "cpus": "2", "storage": "ssd"},
            headers=headers,
        )
        assert response.status_code == 200, response.text
        audit = response.json()
        assert audit["status"] == "succeeded"
        assert audit["findings"] and all(set(finding) >= FINDING_FIELDS for finding in audit["findings"])
        assert audit["diff"].startswith("---") and "innodb_buffer_pool_size" in audit["mycnf"]
        assert SECRET not in response.text
        diff = http.get(f"/v1/audits/{audit['id']}/diff", headers=headers)
        assert diff.status_code == 200 and diff.text == audit["diff"]
        unauthorised = http.get("/v1/servers")
        assert unauthorised.status_code == 401 and unauthorised.headers["content-type"] == PROBLEM_JSON
