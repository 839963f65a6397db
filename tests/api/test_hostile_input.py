"""Hostile input reaches a clear 4xx — never a 500, never a failed audit — and costs little:
authentication before any body byte is read, JSON capped per route, one rate limit for the API
and the pages, shared between API processes through Redis."""

from __future__ import annotations

import json
import socket
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from api.app import create_app
from api.input_guard import MAX_JSON_DEPTH, SMALL_JSON_BYTES
from tests.api.helpers import MYCNF_PATH, Tenants, assert_problem
from tests.fixtures.real_services import ServiceUrls
from tests.fixtures.server_process import serve
from tests.web.browser import embedded_environment, migrate

NUL = "\x00"
LONE_SURROGATE = "\ud800"


def _raw_json(client: TestClient, method: str, path: str, body: str, headers: dict[str, str]) -> object:
    """Send JSON text as is: json.dumps escapes a lone surrogate as \\ud800, as a hostile client would."""
    return client.request(
        method, path, content=body.encode(), headers={**headers, "Content-Type": "application/json"}
    )


@pytest.mark.parametrize(
    "body",
    [
        {"name": f"db{NUL}1"},
        {"name": f"db{LONE_SURROGATE}1"},
        {"name": "db-labels", "labels": {f"env{NUL}": "prod"}},
        {"name": "db-labels", "labels": {LONE_SURROGATE: "prod"}},
        {"name": "db-labels", "labels": {"env": f"prod{LONE_SURROGATE}"}},
        {"name": "db-version", "version": f"8.0{NUL}"},
        {"name": "db-fleet", "fleet": f"f{LONE_SURROGATE}"},
        {"name": "db-cpus", "hardware": {"cpus": 10**40}},
        {"name": "db-cpus", "hardware": {"cpus": 1e40}},
        {"name": "db-big", "hardware": {"memory": int("9" * 400)}},
        {"name": "db-labels", "labels": {str(i): "x" for i in range(65)}},
        {"name": "db-labels", "labels": {"k" * 101: "x"}},
    ],
)
def test_hostile_server_bodies_are_4xx_problems(client: TestClient, tenants: Tenants, body: dict) -> None:  # type: ignore[type-arg]
    response = _raw_json(client, "POST", "/v1/servers", json.dumps(body), tenants.mine.headers)
    assert 400 <= response.status_code < 500, response.text  # type: ignore[attr-defined]
    assert_problem(response, response.status_code)  # type: ignore[arg-type,attr-defined]


@pytest.mark.parametrize(
    "path",
    [
        "/v1/servers/srv%00x",
        "/v1/audits/%ED%A0%80",
        "/v1/servers?cursor=%00",
        "/v1/audits?server_id=%ED%A0%80",
        "/v1/servers?limit=1%00",
        "/ui/servers/x%00",
    ],
)
def test_nul_and_broken_utf8_in_urls_are_400(client: TestClient, tenants: Tenants, path: str) -> None:
    assert_problem(client.get(path, headers=tenants.mine.headers), 400)


def test_too_deep_and_too_large_json_is_refused(client: TestClient, tenants: Tenants) -> None:
    deep = "[" * (MAX_JSON_DEPTH + 5) + "]" * (MAX_JSON_DEPTH + 5)
    body = assert_problem(
        _raw_json(
            client, "POST", "/v1/servers", '{"name": "x", "labels": ' + deep + "}", tenants.mine.headers
        ),  # type: ignore[arg-type]
        400,
    )
    assert "nested" in body["detail"]
    large = json.dumps({"name": "x", "labels": {"k": "v" * (SMALL_JSON_BYTES + 10)}})
    assert_problem(_raw_json(client, "POST", "/v1/servers", large, tenants.mine.headers), 413)  # type: ignore[arg-type]


def test_a_huge_number_in_an_upload_is_a_4xx_not_a_failed_audit(client: TestClient, tenants: Tenants) -> None:
    """`cpus: 10**40` at /v1/analyze is refused at the door (400-digit variables: tests/advisor/test_huge_numbers.py)."""
    mycnf = "[mysqld]\nmax_connections = " + "9" * 400 + "\ninnodb_buffer_pool_size = " + "9" * 400 + "G\n"
    refused = client.post(
        "/v1/analyze",
        json={"mycnf": {MYCNF_PATH: mycnf}, "server_version": "10.11.6-MariaDB", "cpus": 10**40},
        headers=tenants.mine.headers,
    )
    assert_problem(refused, 422)


def test_the_total_lines_of_an_upload_are_capped(client: TestClient, tenants: Tenants) -> None:
    mycnf = "[mysqld]\n" + "#\n" * 300_000
    body = assert_problem(
        client.post(
            "/v1/analyze", files=[("mycnf", (MYCNF_PATH, mycnf.encode()))], headers=tenants.mine.headers
        ),
        413,
    )
    assert "lines" in body["detail"]


@pytest.fixture(scope="module")
def embedded_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    directory = tmp_path_factory.mktemp("guard")
    env = embedded_environment(directory / "innotune.db")
    migrate(env)
    with serve(env, directory / "serve.log") as url:
        yield url


def _send_headers_only(url: str, path: str, headers: dict[str, str], declared: int) -> bytes:
    """Send a request's head declaring `declared` body bytes, and only the first few of them."""
    host, port = url.removeprefix("http://").split(":")
    lines = [
        f"POST {path} HTTP/1.1",
        f"Host: {host}",
        "Content-Type: application/json",
        f"Content-Length: {declared}",
    ]
    lines += [f"{name}: {value}" for name, value in headers.items()]
    with socket.create_connection((host, int(port)), timeout=10) as conn:
        conn.sendall(("\r\n".join(lines) + "\r\n\r\n").encode() + b'{"name": "')
        started = time.monotonic()
        answer = b""
        while b"\r\n\r\n" not in answer and time.monotonic() - started < 10:
            chunk = conn.recv(65536)
            if not chunk:
                break
            answer += chunk
    return answer


def test_an_anonymous_32_mb_body_is_refused_before_a_byte_of_it_is_read(embedded_server: str) -> None:
    """401 arrives while the client has sent a few bytes of the megabytes it announced; a size
    over the route's cap answers 413 first, also unread."""
    for headers in ({}, {"Authorization": "Bearer not-a-key"}):
        for path in ("/v1/analyze", "/v1/servers/x/snapshots"):
            answer = _send_headers_only(embedded_server, path, headers, 6 * 1024 * 1024)
            assert answer.startswith(b"HTTP/1.1 401"), answer[:200]
            answer = _send_headers_only(embedded_server, path, headers, 32 * 1024 * 1024)
            assert answer.startswith(b"HTTP/1.1 413"), answer[:200]
        answer = _send_headers_only(embedded_server, "/v1/servers", headers, 100 * 1024)
        assert answer.startswith(b"HTTP/1.1 401"), answer[:200]
        answer = _send_headers_only(embedded_server, "/v1/servers", headers, 32 * 1024 * 1024)
        assert answer.startswith(b"HTTP/1.1 413"), answer[:200]


def test_one_rate_limit_is_shared_by_api_processes_through_redis(
    use_env: Callable[..., None], service_settings: ServiceUrls, tenants: Tenants
) -> None:
    """Two apps (as two API processes would) draw from one bucket: 5 a minute in all, not 5 each."""
    use_env(INNOTUNE_RATE_LIMIT_PER_MINUTE="5")
    first, second = TestClient(create_app()), TestClient(create_app())
    answers = [
        (first if index % 2 else second).get("/v1/servers", headers=tenants.theirs.headers).status_code
        for index in range(6)
    ]
    assert answers[:5] == [200] * 5 and answers[5] == 429, answers


def test_the_pages_draw_from_the_same_limit(use_env: Callable[..., None], tmp_path: Path) -> None:
    """The web form no longer bypasses the limit (embedded default: the pages' local organisation)."""
    database = tmp_path / "innotune.db"
    env = embedded_environment(database)
    migrate(env)
    use_env(DATABASE_URL=env["DATABASE_URL"], CELERY_BROKER_URL=None, INNOTUNE_RATE_LIMIT_PER_MINUTE="3")
    client = TestClient(create_app())
    statuses = [client.get("/ui/servers").status_code for _ in range(4)]
    assert statuses[:3] == [200] * 3 and statuses[3] == 429, statuses


@pytest.mark.parametrize("value", [{}, [], {"a": 1}, [True]])
def test_a_container_where_a_yes_or_no_belongs_is_422(
    client: TestClient, tenants: Tenants, value: object
) -> None:
    """Found by bench/fuzz.py: `battery_backed_cache: {}` raised TypeError (unhashable) in the check."""
    response = client.post(
        "/v1/servers",
        json={"name": "db-bbu", "hardware": {"battery_backed_cache": value}},
        headers=tenants.mine.headers,
    )
    assert_problem(response, 422)
