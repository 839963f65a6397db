"""Errors everywhere are RFC 9457 problem+json: 400, 401, 405, 413, 415, 429 and 503."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

import pytest
from fastapi.testclient import TestClient

from api.app import create_app
from tests.api.helpers import Tenants, assert_problem
from tests.fixtures.real_services import ServiceUrls

UNREACHABLE_DATABASE = "postgresql+psycopg://postgres@127.0.0.1:1/nowhere?connect_timeout=2"
#: every authenticated endpoint, with a method it answers to.
ENDPOINTS = [
    ("GET", "/v1/servers"),
    ("POST", "/v1/servers"),
    ("GET", "/v1/servers/some-id"),
    ("PATCH", "/v1/servers/some-id"),
    ("DELETE", "/v1/servers/some-id"),
    ("GET", "/v1/servers/some-id/snapshots"),
    ("POST", "/v1/servers/some-id/snapshots"),
    ("GET", "/v1/servers/some-id/snapshots/other-id"),
    ("GET", "/v1/audits"),
    ("POST", "/v1/audits"),
    ("GET", "/v1/audits/some-id"),
    ("GET", "/v1/audits/some-id/diff"),
    ("GET", "/v1/audits/some-id/mycnf"),
    ("POST", "/v1/analyze"),
]


@pytest.mark.parametrize(("method", "path"), ENDPOINTS)
def test_no_key_and_a_wrong_key_are_401_with_a_bearer_challenge(
    client: TestClient, tenants: Tenants, method: str, path: str
) -> None:
    """Without Authorization, with another scheme, or with an unknown key: 401 and WWW-Authenticate."""
    for headers in (
        {},
        {"Authorization": f"Basic {tenants.mine.key}"},
        {"Authorization": "Bearer itk_wrong"},
    ):
        response = client.request(method, path, headers=headers, json={})
        assert_problem(response, 401)
        assert response.headers["www-authenticate"] == "Bearer"


def test_a_revoked_key_is_401(client: TestClient, tenants: Tenants) -> None:
    """A key that worked stops working once revoked."""
    from services.orgs import create_api_key, revoke_api_key
    from store.db import unit_of_work

    with unit_of_work() as session:
        key = create_api_key(session, tenants.mine.org_id)
    headers = {"Authorization": f"Bearer {key}"}
    assert client.get("/v1/servers", headers=headers).status_code == 200
    with unit_of_work() as session:
        assert revoke_api_key(session, tenants.mine.org_id, key)
    assert_problem(client.get("/v1/servers", headers=headers), 401)


def test_rate_limit_answers_429_with_retry_after(
    use_env: Callable[..., None], service_settings: ServiceUrls, tenants: Tenants
) -> None:
    """With 3 requests a minute, the 4th is a 429 with Retry-After; another key is not affected."""
    use_env(INNOTUNE_RATE_LIMIT_PER_MINUTE="3")
    client = TestClient(create_app())
    for _ in range(3):
        assert client.get("/v1/servers", headers=tenants.mine.headers).status_code == 200
    refused = client.get("/v1/servers", headers=tenants.mine.headers)
    assert_problem(refused, 429)
    # One token comes back every 20 s at 3 a minute.
    assert 1 <= int(refused.headers["retry-after"]) <= 20
    assert client.get("/v1/servers", headers=tenants.theirs.headers).status_code == 200


def test_wrong_method_is_405_problem_with_allow(client: TestClient, tenants: Tenants) -> None:
    """PUT on the servers collection is a 405 problem naming the allowed methods."""
    response = client.put("/v1/servers", json={}, headers=tenants.mine.headers)
    assert_problem(response, 405)
    assert response.headers["allow"] == "GET, POST"
    wrong = client.post("/v1/audits/some-id", json={}, headers=tenants.mine.headers)
    assert_problem(wrong, 405)
    assert wrong.headers["allow"] == "GET"


@pytest.mark.parametrize("path", ["/v1/servers", "/v1/audits", "/v1/servers/x/snapshots", "/v1/analyze"])
def test_a_body_that_is_neither_json_nor_multipart_is_415(
    client: TestClient, tenants: Tenants, path: str
) -> None:
    """text/plain, form-urlencoded and a missing content type are refused with 415."""
    for content_type in ("text/plain", "application/x-www-form-urlencoded", None):
        headers = {**tenants.mine.headers, **({"Content-Type": content_type} if content_type else {})}
        assert_problem(client.post(path, content=b'{"name": "x"}', headers=headers), 415)


def test_multipart_where_json_is_required_is_415(client: TestClient, tenants: Tenants) -> None:
    """Servers and audits take JSON only."""
    response = client.post("/v1/servers", files={"name": ("n", b"x")}, headers=tenants.mine.headers)
    assert_problem(response, 415)


def test_malformed_json_is_400(client: TestClient, tenants: Tenants) -> None:
    """A body declared as JSON that does not parse is a 400, not a traceback."""
    headers = {**tenants.mine.headers, "Content-Type": "application/json"}
    assert_problem(client.post("/v1/servers", content=b'{"name": ', headers=headers), 400)
    assert_problem(client.post("/v1/servers/x/snapshots", content=b"[1,", headers=headers), 400)


def test_database_down_is_503(use_env: Callable[..., None], tenants: Tenants) -> None:
    """With PostgreSQL unreachable, an authenticated request is a 503 problem with Retry-After."""
    use_env(DATABASE_URL=UNREACHABLE_DATABASE, CELERY_BROKER_URL=None)
    response = TestClient(create_app()).get("/v1/servers", headers=tenants.mine.headers)
    assert_problem(response, 503)
    assert int(response.headers["retry-after"]) >= 1


def test_declared_oversized_body_is_413_before_a_byte_is_read(tenants: Tenants) -> None:
    """A Content-Length over the total limit is answered 413 without calling receive at all."""
    from api.uploads import MAX_BODY_BYTES

    app = create_app()
    sent: list[dict[str, object]] = []

    async def receive() -> dict[str, object]:
        raise AssertionError("the body must not be read")

    async def send(message: dict[str, object]) -> None:
        sent.append(message)

    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "POST",
        "scheme": "http",
        "path": "/v1/analyze",
        "raw_path": b"/v1/analyze",
        "query_string": b"",
        "root_path": "",
        "headers": [
            (b"host", b"testserver"),
            (b"authorization", f"Bearer {tenants.mine.key}".encode()),
            (b"content-type", b"multipart/form-data; boundary=x"),
            (b"content-length", str(MAX_BODY_BYTES + 1).encode()),
        ],
        "client": ("127.0.0.1", 1234),
        "server": ("testserver", 80),
    }
    asyncio.run(app(scope, receive, send))
    start = sent[0]
    assert start["status"] == 413
    assert (b"content-type", b"application/problem+json") in start["headers"]  # type: ignore[operator]


def test_streamed_oversized_body_is_413(client: TestClient, tenants: Tenants) -> None:
    """A chunked body without Content-Length is cut off at the limit with a 413 problem."""
    from api.uploads import MAX_BODY_BYTES

    chunk = b"x" * (1024 * 1024)

    def chunks():  # type: ignore[no-untyped-def]
        for _ in range(MAX_BODY_BYTES // len(chunk) + 2):
            yield chunk

    headers = {**tenants.mine.headers, "Content-Type": "application/json"}
    assert_problem(client.post("/v1/servers", content=chunks(), headers=headers), 413)
