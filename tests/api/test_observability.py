"""What operators get: headers on every response, request ids, JSON access logs (and the same id in
the worker's logs of that audit), Prometheus metrics from the API and from the worker."""

from __future__ import annotations

import json
import logging
import re
import time
import uuid
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient

from conf.logging import build_handler
from tests.api.helpers import Tenants, corpus_json
from tests.fixtures.worker_process import WorkerProcess

FACTS = {"memory": "24G", "cpus": "2", "storage": "ssd"}


@pytest.fixture
def worker(worker_process: WorkerProcess) -> WorkerProcess:
    return worker_process


@pytest.mark.parametrize(
    "path",
    [
        "/healthz",
        "/readyz",
        "/openapi.json",
        "/docs",
        "/redoc",
        "/docs/assets/swagger-ui.css",
        "/metrics",
        "/v1/servers",
        "/no-such-thing",
        "/ui",
        "/ui/static/ui.css",
    ],
)
def test_every_response_says_nosniff_and_carries_a_csp(client: TestClient, path: str) -> None:
    """JSON, problems, docs, assets, pages: nosniff and a Content-Security-Policy, and a request id."""
    response = client.get(path, follow_redirects=False)
    assert response.headers["x-content-type-options"] == "nosniff", path
    assert "frame-ancestors 'none'" in response.headers["content-security-policy"], path
    assert re.fullmatch(r"[0-9a-f]{32}", response.headers["x-request-id"]), path


def test_docs_pages_load_their_assets_from_this_server(client: TestClient) -> None:
    """No CDN: every script and stylesheet of /docs and /redoc is served here, and the CSP allows
    only this origin (plus the inline start-up script by its hash)."""
    for page in ("/docs", "/redoc"):
        response = client.get(page)
        assert response.status_code == 200
        assets = re.findall(r'(?:src|href)="([^"]+)"', response.text)
        assert assets and all(asset.startswith("/") for asset in assets), assets
        for asset in assets:
            if asset != "/openapi.json":
                assert client.get(asset).status_code == 200, asset
        policy = response.headers["content-security-policy"]
        assert "http" not in policy and "script-src 'self'" in policy


def test_downloads_carry_the_default_policy(client: TestClient, tenants: Tenants) -> None:
    """A file download (here the OpenAPI document and an audit's diff route's 404) loads nothing."""
    response = client.get("/v1/audits/aud_missing/diff", headers=tenants.mine.headers)
    assert response.headers["content-security-policy"].startswith("default-src 'none'")


def test_a_plain_caller_request_id_is_kept_and_a_strange_one_replaced(client: TestClient) -> None:
    kept = client.get("/healthz", headers={"X-Request-ID": "deploy-42.a"})
    assert kept.headers["x-request-id"] == "deploy-42.a"
    replaced = client.get("/healthz", headers={"X-Request-ID": "bad id\twith spaces"})
    assert re.fullmatch(r"[0-9a-f]{32}", replaced.headers["x-request-id"])


def test_access_log_names_method_route_status_duration_request_id_and_organisation(
    client: TestClient, tenants: Tenants, caplog: pytest.LogCaptureFixture
) -> None:
    """One line per request, the route as its template (ids stay out of the label)."""
    with caplog.at_level(logging.INFO, logger="innotune.access"):
        response = client.get(
            "/v1/audits/aud_nothing", headers={**tenants.mine.headers, "X-Request-ID": "trace-me-1"}
        )
    assert response.status_code == 404
    (record,) = [r for r in caplog.records if r.name == "innotune.access"]
    fields: dict[str, Any] = record.__dict__
    assert fields["method"] == "GET" and fields["route"] == "/v1/audits/{audit_id}"
    assert fields["status"] == 404 and fields["duration_ms"] >= 0
    assert fields["request_id"] == "trace-me-1" and fields["organization_id"] == tenants.mine.org_id


def test_json_lines_have_utc_iso_timestamps_and_no_colour_codes() -> None:
    """The handler every process uses: ISO-8601 UTC `ts`, a request id field, ANSI stripped."""
    handler = build_handler("json")
    record = logging.LogRecord(
        "celery", logging.INFO, __file__, 1, "\x1b[1;32mready\x1b[0m %s", ("\x1b[31mx",), None
    )
    record.color_message = "\x1b[1mready\x1b[0m %s"  # what uvicorn adds to its records
    record.peer = "\x1b[33m127.0.0.1\x1b[0m"
    handler.filter(record)
    line = handler.format(record)
    assert "\x1b" not in line and "\\u001b" not in line and "color_message" not in line
    body = json.loads(line)
    assert body["message"] == "ready x" and body["level"] == "INFO" and "request_id" in body
    assert body["peer"] == "127.0.0.1"
    stamp = datetime.fromisoformat(body["ts"])
    assert stamp.utcoffset() == timedelta(0)
    assert abs(datetime.now(UTC) - stamp) < timedelta(minutes=1)


def _worker_lines(worker: WorkerProcess) -> list[dict[str, Any]]:
    lines = []
    for raw in worker.log_path.read_text(errors="replace").splitlines():
        try:
            lines.append(json.loads(raw))
        except ValueError:
            continue
    return lines


def test_the_request_id_reaches_the_workers_log_of_that_audit(
    client: TestClient, tenants: Tenants, worker: WorkerProcess
) -> None:
    """The worker logs the audit it runs under the id of the request that queued it, in JSON."""
    request_id = f"req-{uuid.uuid4().hex[:12]}"
    response = client.post(
        "/v1/analyze",
        params={"wait": 30},
        json={**corpus_json(), **FACTS},
        headers={**tenants.mine.headers, "X-Request-ID": request_id},
    )
    assert response.status_code == 200, response.text
    audit_id = response.json()["id"]
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        ours = [line for line in _worker_lines(worker) if line.get("request_id") == request_id]
        if any(line.get("audit_id") == audit_id for line in ours):
            break
        time.sleep(0.2)
    assert any(line.get("audit_id") == audit_id for line in ours), worker.log_path.read_text()[-3000:]
    assert all("\x1b" not in json.dumps(line) for line in _worker_lines(worker))


def _samples(text: str, name: str) -> dict[str, float]:
    found = {}
    for line in text.splitlines():
        if line.startswith(name):
            key, value = line.rsplit(" ", 1)
            found[key] = float(value)
    return found


def test_api_metrics_count_requests_by_route_and_read_the_queue(
    client: TestClient, tenants: Tenants, worker: WorkerProcess
) -> None:
    """HTTP counters and latency histograms by route template and status; audits by status, queue
    depth and the oldest queued audit's age from the database."""
    client.get("/v1/audits/aud_x", headers=tenants.mine.headers)
    response = client.post(
        "/v1/analyze", params={"wait": 30}, json={**corpus_json(), **FACTS}, headers=tenants.mine.headers
    )
    assert response.status_code == 200, response.text
    text = client.get("/metrics").text
    requests = _samples(text, "innotune_http_requests_total")
    assert (
        requests['innotune_http_requests_total{method="GET",route="/v1/audits/{audit_id}",status="404"}'] >= 1
    )
    assert requests['innotune_http_requests_total{method="POST",route="/v1/analyze",status="200"}'] >= 1
    buckets = _samples(text, "innotune_http_request_duration_seconds_bucket")
    assert any('route="/v1/analyze"' in key for key in buckets)
    assert _samples(text, "innotune_audits")['innotune_audits{status="succeeded"}'] >= 1
    assert "innotune_queue_depth" in text and "innotune_queue_oldest_age_seconds" in text
    assert (
        "innotune_fleet_runs" in text and _samples(text, "innotune_database_up")["innotune_database_up"] == 1
    )


def test_worker_serves_its_childrens_metrics(
    client: TestClient, tenants: Tenants, worker: WorkerProcess
) -> None:
    """Audits finished and their run time, counted in the pool's children, scraped from the worker."""
    response = client.post(
        "/v1/analyze", params={"wait": 30}, json={**corpus_json(), **FACTS}, headers=tenants.mine.headers
    )
    assert response.status_code == 200, response.text
    text = httpx.get(f"http://127.0.0.1:{worker.metrics_port}/metrics", timeout=5).text
    assert (
        _samples(text, "innotune_audits_finished_total")['innotune_audits_finished_total{status="succeeded"}']
        >= 1
    )
    assert any(
        key.startswith("innotune_audit_run_duration_seconds_bucket")
        for key in _samples(text, "innotune_audit")
    )


def test_a_mapping_of_arguments_survives_the_filter() -> None:
    """Celery logs `logger.info("Task %(name)s[%(id)s] ...", {...})`: one mapping, kept a mapping."""
    handler = build_handler("json")
    record = logging.LogRecord(
        "celery.app.trace", logging.INFO, __file__, 1, "Task %(name)s succeeded: %(value)s", None, None
    )
    record.args = {"name": "audits.run", "value": "\x1b[32mok\x1b[0m"}
    handler.filter(record)
    assert json.loads(handler.format(record))["message"] == "Task audits.run succeeded: ok"
