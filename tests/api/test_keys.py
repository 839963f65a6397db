"""/v1/keys and /v1/webhook-secret: keys with a name and last use, rotated and revoked; a webhook
secret that a database dump cannot reproduce, rotatable; internal callback URLs refused at submit."""

from __future__ import annotations

from fastapi.testclient import TestClient
from sqlalchemy import text

from store.db import unit_of_work
from tests.api.helpers import assert_problem, corpus_json
from tests.fixtures.service_data import OrganizationHandle


def _bearer(key: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {key}"}


def test_keys_are_created_named_listed_with_last_use_rotated_and_revoked(
    client: TestClient, organization: OrganizationHandle
) -> None:
    """POST gives the key once (201, Location); the list shows name, prefix and last use but never the
    key; rotate gives a new key under the same name and kills the old; DELETE kills a key (204)."""
    created = client.post("/v1/keys", json={"name": "provisioning"}, headers=_bearer(organization.key))
    assert created.status_code == 201, created.text
    body = created.json()
    key, key_id = body["key"], body["id"]
    assert body["name"] == "provisioning" and key.startswith(body["prefix"]) and body["last_used_at"] is None
    assert created.headers["location"] == f"/v1/keys/{key_id}"
    assert client.get("/v1/servers", headers=_bearer(key)).status_code == 200
    listed = client.get("/v1/keys", headers=_bearer(organization.key))
    assert key not in listed.text and "key_hash" not in listed.text
    row = next(item for item in listed.json()["items"] if item["id"] == key_id)
    assert row["name"] == "provisioning" and row["last_used_at"] is not None and row["revoked_at"] is None

    rotated = client.post(f"/v1/keys/{key_id}/rotate", headers=_bearer(organization.key))
    assert rotated.status_code == 201 and rotated.json()["name"] == "provisioning"
    new_key = rotated.json()["key"]
    assert_problem(client.get("/v1/servers", headers=_bearer(key)), 401)
    assert client.get("/v1/servers", headers=_bearer(new_key)).status_code == 200
    assert_problem(client.post(f"/v1/keys/{key_id}/rotate", headers=_bearer(organization.key)), 422)

    assert (
        client.delete(f"/v1/keys/{rotated.json()['id']}", headers=_bearer(organization.key)).status_code
        == 204
    )
    assert_problem(client.get("/v1/servers", headers=_bearer(new_key)), 401)
    with unit_of_work() as session:
        stored = session.execute(text("SELECT key_hash, prefix FROM api_keys")).all()
    assert all(new_key not in (row.key_hash, row.prefix) for row in stored)


def test_another_organisations_key_is_not_found(
    client: TestClient, organization: OrganizationHandle, other_organization: OrganizationHandle
) -> None:
    """Rotating or revoking another organisation's key is a 404 and leaves it working."""
    theirs = client.post("/v1/keys", json={"name": "theirs"}, headers=_bearer(other_organization.key)).json()
    assert_problem(client.delete(f"/v1/keys/{theirs['id']}", headers=_bearer(organization.key)), 404)
    assert_problem(client.post(f"/v1/keys/{theirs['id']}/rotate", headers=_bearer(organization.key)), 404)
    assert client.get("/v1/servers", headers=_bearer(theirs["key"])).status_code == 200
    names = [
        item["name"] for item in client.get("/v1/keys", headers=_bearer(organization.key)).json()["items"]
    ]
    assert "theirs" not in names


def test_the_webhook_secret_is_not_in_the_database_and_rotates(
    client: TestClient, organization: OrganizationHandle
) -> None:
    """GET gives the secret the fixture derived; no column of any organisation holds it (or its
    base64 body); rotating changes it and the old one is not given again."""
    secret = client.get("/v1/webhook-secret", headers=_bearer(organization.key)).json()["secret"]
    assert secret == organization.webhook_secret and secret.startswith("whsec_")
    with unit_of_work() as session:
        dump = repr(session.execute(text("SELECT * FROM organizations")).all())
    assert secret.removeprefix("whsec_")[:20] not in dump
    rotated = client.post("/v1/webhook-secret/rotate", headers=_bearer(organization.key)).json()["secret"]
    assert rotated != secret
    assert client.get("/v1/webhook-secret", headers=_bearer(organization.key)).json()["secret"] == rotated


def test_internal_callback_urls_are_refused_at_submit(
    client: TestClient, organization: OrganizationHandle
) -> None:
    """The cloud metadata address, loopback and a decimal IP are 422 problems naming callback_url."""
    for url in ("http://169.254.169.254/latest/meta-data/", "http://127.0.0.1:6379/", "http://2130706433/"):
        answer = client.post(
            "/v1/analyze",
            json={**corpus_json(), "memory": "24G", "callback_url": url},
            headers=_bearer(organization.key),
        )
        problem = assert_problem(answer, 422)
        assert "callback_url" in problem["detail"], problem
