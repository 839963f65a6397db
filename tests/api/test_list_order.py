"""Lists take ?order=newest|oldest (cursors continue in the same order); every timestamp the API
returns carries its offset, on PostgreSQL and on the embedded SQLite alike."""

from __future__ import annotations

import re
import uuid
from collections.abc import Callable
from pathlib import Path

from fastapi.testclient import TestClient

from tests.api.helpers import Tenants, assert_problem

#: RFC 3339 date-time with an offset (OpenAPI `format: date-time`).
DATE_TIME = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$")


def _names(client: TestClient, tenants: Tenants, **params: str | int) -> tuple[list[str], str | None]:
    response = client.get("/v1/servers", params=params, headers=tenants.mine.headers)
    assert response.status_code == 200, response.text
    body = response.json()
    return [item["name"] for item in body["items"]], body["next_cursor"]


def test_servers_list_newest_first_page_by_page(client: TestClient, tenants: Tenants) -> None:
    """order=newest reverses the list, its cursor continues newest first; a bad order is a 422."""
    prefix = uuid.uuid4().hex[:6]
    made = [f"{prefix}-{n}" for n in range(3)]
    for name in made:
        assert (
            client.post("/v1/servers", json={"name": name}, headers=tenants.mine.headers).status_code == 201
        )
    oldest, _ = _names(client, tenants, limit=200)
    newest, _ = _names(client, tenants, limit=200, order="newest")
    assert newest == list(reversed(oldest))
    assert [name for name in newest if name.startswith(prefix)] == list(reversed(made))
    first, cursor = _names(client, tenants, limit=2, order="newest")
    assert cursor is not None
    second, _ = _names(client, tenants, limit=2, order="newest", cursor=cursor)
    assert first + second == newest[:4]
    problem = assert_problem(
        client.get("/v1/servers", params={"order": "latest"}, headers=tenants.mine.headers), 422
    )
    assert "order" in problem["detail"]


def test_embedded_timestamps_carry_their_offset(tmp_path: Path, use_env: Callable[..., None]) -> None:
    """On SQLite (which stores no zone) a server's created_at still reads as UTC with its offset."""
    from api.app import create_app
    from conf.settings import get_settings
    from migrations.commands import upgrade
    from tests.fixtures.service_data import make_organization

    use_env(DATABASE_URL=f"sqlite:///{tmp_path / 'embedded.db'}", CELERY_BROKER_URL=None)
    upgrade(get_settings().database_url)
    organization = make_organization()
    headers = {"Authorization": f"Bearer {organization.key}"}
    with TestClient(create_app()) as client:
        created = client.post("/v1/servers", json={"name": "db-1"}, headers=headers)
        assert created.status_code == 201, created.text
        read = client.get(created.headers["location"], headers=headers).json()
        listed = client.get("/v1/servers", headers=headers).json()["items"][0]
    for body in (created.json(), read, listed):
        assert DATE_TIME.match(body["created_at"]), body["created_at"]
        assert DATE_TIME.match(body["updated_at"]), body["updated_at"]
