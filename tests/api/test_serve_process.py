"""`innotune serve` as a real process on PostgreSQL, with a real worker: the analyze flow over HTTP."""

from __future__ import annotations

import socket
import subprocess
import sys
import time
from collections.abc import Iterator

import httpx
import pytest

from tests.api.helpers import FINDING_FIELDS, PROBLEM_JSON, SECRET, Tenants, corpus_upload
from tests.fixtures.real_services import ServiceUrls, service_environment
from tests.fixtures.worker_process import WorkerProcess


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.fixture
def server_url(service_urls: ServiceUrls, worker_process: WorkerProcess) -> Iterator[str]:
    """The API process on a free port, sharing the run's database and queue with the worker."""
    port = _free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "cli.main", "serve", "--port", str(port)],
        env=service_environment(service_urls),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                if httpx.get(f"{url}/readyz", timeout=2).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            assert process.poll() is None, process.stderr.read().decode() if process.stderr else ""
            assert time.monotonic() < deadline, "server did not become ready"
            time.sleep(0.2)
        yield url
    finally:
        process.terminate()
        process.wait(timeout=20)


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
