"""/v1/servers: create, read, change, delete and list, each scoped to the caller's organisation."""

from __future__ import annotations

import uuid
from typing import Any

from fastapi.testclient import TestClient

from tests.api.helpers import Tenants, assert_problem


def _fleet(client: TestClient, tenants: Tenants, name: str | None = None) -> str:
    """A fleet of mine (servers name an existing fleet); its name."""
    name = name or f"fleet-{uuid.uuid4().hex[:8]}"
    response = client.post(
        "/v1/fleets", json={"name": name, "schedule_cron": "0 3 * * *"}, headers=tenants.mine.headers
    )
    assert response.status_code == 201, response.text
    return name


def _create(client: TestClient, tenants: Tenants, **fields: Any) -> dict[str, Any]:
    body = {"name": f"db-{uuid.uuid4().hex[:8]}", **fields}
    response = client.post("/v1/servers", json=body, headers=tenants.mine.headers)
    assert response.status_code == 201, response.text
    created: dict[str, Any] = response.json()
    return created


def test_create_returns_201_with_location_and_the_stored_fields(client: TestClient, tenants: Tenants) -> None:
    """Every field sent comes back; hardware sizes are stored in bytes; Location names the server."""
    fleet = _fleet(client, tenants)
    response = client.post(
        "/v1/servers",
        json={
            "name": "orders-primary",
            "labels": {"team": "payments"},
            "flavor": "mariadb",
            "version": "10.11.6-MariaDB",
            "hardware": {"memory": "24G", "cpus": 2, "storage": "ssd"},
            "role": "primary",
            "profile": "production",
            "fleet": fleet,
        },
        headers=tenants.mine.headers,
    )
    assert response.status_code == 201, response.text
    server = response.json()
    assert response.headers["location"] == f"/v1/servers/{server['id']}"
    assert server["hardware"] == {"memory": 24 * 1024**3, "cpus": 2, "storage": "ssd"}
    assert (server["name"], server["labels"], server["role"], server["fleet"]) == (
        "orders-primary",
        {"team": "payments"},
        "primary",
        fleet,
    )
    assert server["fleet_id"]
    assert client.get(response.headers["location"], headers=tenants.mine.headers).json() == server


def test_defaults_and_unknown_flavor_version(client: TestClient, tenants: Tenants) -> None:
    """Without role, profile, flavor or version: standalone, production, and both unknown (null)."""
    server = _create(client, tenants)
    assert (server["role"], server["profile"], server["flavor"], server["version"]) == (
        "standalone",
        "production",
        None,
        None,
    )


def test_duplicate_name_is_409_but_another_org_may_reuse_it(client: TestClient, tenants: Tenants) -> None:
    """Names are unique per organisation, not globally."""
    server = _create(client, tenants)
    again = client.post("/v1/servers", json={"name": server["name"]}, headers=tenants.mine.headers)
    assert "already exists" in assert_problem(again, 409)["detail"]
    elsewhere = client.post("/v1/servers", json={"name": server["name"]}, headers=tenants.theirs.headers)
    assert elsewhere.status_code == 201


def test_unknown_fields_and_bad_values_are_422(client: TestClient, tenants: Tenants) -> None:
    """Input models forbid extra fields; a role outside the list and a bad hardware size are refused."""
    for body in (
        {"name": "x", "colour": "blue"},
        {"name": "x", "role": "leader"},
        {"name": "x", "hardware": {"memory": "lots"}},
        {"name": ""},
        {},
    ):
        assert_problem(client.post("/v1/servers", json=body, headers=tenants.mine.headers), 422)


def test_patch_changes_only_the_fields_sent(client: TestClient, tenants: Tenants) -> None:
    """PATCH keeps what is not sent, clears a nullable field set to null, refuses a null name."""
    server = _create(client, tenants, fleet=_fleet(client, tenants), labels={"a": "1"})
    url = f"/v1/servers/{server['id']}"
    changed = client.patch(url, json={"role": "replica", "fleet": None}, headers=tenants.mine.headers)
    assert changed.status_code == 200, changed.text
    assert (
        changed.json()["role"],
        changed.json()["fleet"],
        changed.json()["fleet_id"],
        changed.json()["labels"],
    ) == (
        "replica",
        None,
        None,
        {"a": "1"},
    )
    unknown = client.patch(url, json={"fleet": "no-such-fleet"}, headers=tenants.mine.headers)
    assert "no fleet" in assert_problem(unknown, 422)["detail"]
    assert_problem(client.patch(url, json={"name": None}, headers=tenants.mine.headers), 422)
    assert_problem(client.patch(url, json={"owner": "me"}, headers=tenants.mine.headers), 422)


def test_delete_is_204_then_404(client: TestClient, tenants: Tenants) -> None:
    """A deleted server is gone for GET, PATCH and a second DELETE."""
    url = f"/v1/servers/{_create(client, tenants)['id']}"
    deleted = client.delete(url, headers=tenants.mine.headers)
    assert deleted.status_code == 204 and deleted.content == b""
    assert_problem(client.get(url, headers=tenants.mine.headers), 404)
    assert_problem(client.patch(url, json={"role": "replica"}, headers=tenants.mine.headers), 404)
    assert_problem(client.delete(url, headers=tenants.mine.headers), 404)


def test_another_organisations_server_is_404_on_every_endpoint(client: TestClient, tenants: Tenants) -> None:
    """GET, PATCH and DELETE of their server are 404 for me, and it is untouched afterwards."""
    response = client.post(
        "/v1/servers", json={"name": f"theirs-{uuid.uuid4().hex[:6]}"}, headers=tenants.theirs.headers
    )
    url = f"/v1/servers/{response.json()['id']}"
    assert_problem(client.get(url, headers=tenants.mine.headers), 404)
    assert_problem(client.patch(url, json={"role": "replica"}, headers=tenants.mine.headers), 404)
    assert_problem(client.delete(url, headers=tenants.mine.headers), 404)
    assert client.get(url, headers=tenants.theirs.headers).json() == response.json()
    listed = client.get("/v1/servers", params={"limit": 200}, headers=tenants.mine.headers).json()["items"]
    assert response.json()["id"] not in {server["id"] for server in listed}


def _all_pages(client: TestClient, tenants: Tenants, **params: Any) -> list[list[dict[str, Any]]]:
    pages, cursor = [], None
    while True:
        query = {**params, **({"cursor": cursor} if cursor else {})}
        body = client.get("/v1/servers", params=query, headers=tenants.mine.headers).json()
        pages.append(body["items"])
        cursor = body["next_cursor"]
        if cursor is None:
            return pages


def test_pagination_with_limit_2_is_stable_and_complete(client: TestClient, tenants: Tenants) -> None:
    """Five servers of a fleet page as 2+2+1 in creation order, twice the same, no duplicates."""
    fleet = _fleet(client, tenants)
    created = [_create(client, tenants, fleet=fleet)["id"] for _ in range(5)]
    pages = _all_pages(client, tenants, fleet=fleet, limit=2)
    assert [len(page) for page in pages] == [2, 2, 1]
    seen = [server["id"] for page in pages for server in page]
    assert seen == created
    assert _all_pages(client, tenants, fleet=fleet, limit=2) == pages


def test_fleet_filter_keeps_only_that_fleet(client: TestClient, tenants: Tenants) -> None:
    """?fleet= lists the fleet's servers and no other, the fleet named by name or by id."""
    fleet = _fleet(client, tenants)
    inside = _create(client, tenants, fleet=fleet)
    _create(client, tenants, fleet=_fleet(client, tenants, f"{fleet}-other"))
    for reference in (fleet, inside["fleet_id"]):
        items = client.get("/v1/servers", params={"fleet": reference}, headers=tenants.mine.headers).json()[
            "items"
        ]
        assert [server["id"] for server in items] == [inside["id"]]


def test_bad_cursor_is_400_and_bad_limit_is_422(client: TestClient, tenants: Tenants) -> None:
    """A cursor we did not make is a 400; a limit outside 1..200 is a 422."""
    assert (
        "cursor"
        in assert_problem(
            client.get("/v1/servers", params={"cursor": "not-a-cursor"}, headers=tenants.mine.headers), 400
        )["detail"].lower()
    )
    assert_problem(client.get("/v1/servers", params={"limit": 0}, headers=tenants.mine.headers), 422)
    assert_problem(client.get("/v1/servers", params={"limit": 201}, headers=tenants.mine.headers), 422)
