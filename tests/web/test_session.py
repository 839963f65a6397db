"""Web sessions live on the server: signing out, or revoking the key, ends a session wherever its
cookie was copied; the database holds only the token's hash."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select

from store.db import unit_of_work
from store.models import WebSession
from tests.fixtures.real_services import ServiceUrls
from tests.fixtures.service_data import OrganizationHandle
from tests.web.forms_csrf import form_token


@pytest.fixture
def web_client(service_settings: ServiceUrls) -> Iterator[TestClient]:
    from api.app import create_app

    with TestClient(create_app(), base_url="https://testserver", follow_redirects=False) as client:
        yield client


def _sign_in(client: TestClient, key: str) -> str:
    token = form_token(client, "/ui/login")
    answer = client.post("/ui/login", data={"api_key": key, "csrf_token": token, "next": "/ui/servers"})
    assert answer.status_code == 303 and answer.headers["location"] == "/ui/servers", answer.text
    return client.cookies["innotune_session"]


def _status_with(client: TestClient, cookie: str) -> int:
    client.cookies.clear()
    client.cookies.set("innotune_session", cookie)
    return client.get("/ui/servers").status_code


def test_sign_out_ends_the_session_on_the_server(
    web_client: TestClient, organization: OrganizationHandle
) -> None:
    """A copy of the cookie taken before signing out is refused afterwards (redirect to sign-in)."""
    cookie = _sign_in(web_client, organization.key)
    assert web_client.get("/ui/servers").status_code == 200
    assert organization.key not in cookie
    with unit_of_work() as session:
        stored = session.scalars(select(WebSession.token_hash)).all()
    assert cookie not in stored and all(len(value) == 64 for value in stored)
    assert _status_with(web_client, cookie) == 200
    token = form_token(web_client, "/ui/servers")
    out = web_client.post("/ui/logout", data={"csrf_token": token})
    assert out.status_code == 303 and out.headers["location"] == "/ui/login"
    assert _status_with(web_client, cookie) == 303


def test_revoking_the_key_ends_its_sessions(web_client: TestClient, organization: OrganizationHandle) -> None:
    """DELETE /v1/keys/{id} of the key a browser signed in with: that browser is signed out at once."""
    cookie = _sign_in(web_client, organization.key)
    assert _status_with(web_client, cookie) == 200
    from services.orgs import create_api_key

    with unit_of_work() as session:
        other_key = create_api_key(session, organization.id, "admin")
    bearer = {"Authorization": f"Bearer {other_key}"}
    listed = web_client.get("/v1/keys", headers=bearer).json()["items"]
    (signed_in_key,) = [item for item in listed if organization.key.startswith(item["prefix"])]
    assert web_client.delete(f"/v1/keys/{signed_in_key['id']}", headers=bearer).status_code == 204
    assert _status_with(web_client, cookie) == 303


def test_a_forged_or_unknown_cookie_is_refused(web_client: TestClient) -> None:
    """A made-up token signs nobody in."""
    assert _status_with(web_client, "A" * 43) == 303
