"""/v1/servers/{id}/snapshots: uploads validated by the parsers, limited in size, secrets redacted."""

from __future__ import annotations

import json
import uuid
from typing import Any

from fastapi.testclient import TestClient
from sqlalchemy import select

from tests.api.helpers import (
    MYCNF_PATH,
    SECRET,
    STATUS_FILES,
    VARIABLES_FILE,
    Tenants,
    assert_problem,
    corpus_bytes,
    corpus_json,
    corpus_upload,
)
from tests.corpus import corpus_file

VARIABLES_NAME = VARIABLES_FILE.rsplit("/", 1)[1]


def _server(client: TestClient, headers: dict[str, str]) -> str:
    response = client.post("/v1/servers", json={"name": f"db-{uuid.uuid4().hex[:8]}"}, headers=headers)
    assert response.status_code == 201, response.text
    server_id: str = response.json()["id"]
    return server_id


def _upload(client: TestClient, tenants: Tenants, server_id: str, files: list[Any]) -> Any:
    return client.post(f"/v1/servers/{server_id}/snapshots", files=files, headers=tenants.mine.headers)


def test_multipart_upload_stores_a_snapshot_and_teaches_the_server_its_version(
    client: TestClient, tenants: Tenants
) -> None:
    """The sysbench corpus uploads as multipart; the server learns MariaDB 10.11.19 from the variables."""
    server_id = _server(client, tenants.mine.headers)
    response = _upload(client, tenants, server_id, corpus_upload())
    assert response.status_code == 201, response.text
    snapshot = response.json()
    assert response.headers["location"] == f"/v1/servers/{server_id}/snapshots/{snapshot['id']}"
    assert snapshot["server_id"] == server_id
    assert snapshot["server_version"] == "10.11.19-MariaDB-0+deb12u1"
    assert snapshot["mycnf_paths"] == [MYCNF_PATH]
    assert snapshot["inputs_present"] == ["variables", "status", "innodb_status"]
    server = client.get(f"/v1/servers/{server_id}", headers=tenants.mine.headers).json()
    assert (server["flavor"], server["version"]) == ("mariadb", "10.11.19-MariaDB-0+deb12u1")
    detail = client.get(response.headers["location"], headers=tenants.mine.headers).json()
    assert detail["inputs"]["status"] == [corpus_file(name).read_text() for name in STATUS_FILES]


def test_json_upload_is_the_same_snapshot_as_multipart(client: TestClient, tenants: Tenants) -> None:
    """The same texts sent as JSON give the same content hash as the multipart upload."""
    server_id = _server(client, tenants.mine.headers)
    as_json = client.post(
        f"/v1/servers/{server_id}/snapshots", json=corpus_json(), headers=tenants.mine.headers
    )
    as_form = _upload(client, tenants, server_id, corpus_upload())
    assert as_json.status_code == 201, as_json.text
    assert as_json.json()["server_version"] == as_form.json()["server_version"]
    listed = client.get(f"/v1/servers/{server_id}/snapshots", headers=tenants.mine.headers).json()
    assert [item["id"] for item in listed["items"]] == [as_json.json()["id"], as_form.json()["id"]]


def test_json_upload_with_unknown_members_is_422(client: TestClient, tenants: Tenants) -> None:
    """The JSON form forbids extra members and more than two status dumps."""
    server_id = _server(client, tenants.mine.headers)
    url = f"/v1/servers/{server_id}/snapshots"
    assert_problem(client.post(url, json={**corpus_json(), "extra": 1}, headers=tenants.mine.headers), 422)
    three = {**corpus_json(), "status": ["a\t1\n"] * 3}
    assert_problem(client.post(url, json=three, headers=tenants.mine.headers), 422)


def test_broken_mycnf_is_422_naming_file_and_line(client: TestClient, tenants: Tenants) -> None:
    """A templating line left in a my.cnf is refused with its path and line as problem members."""
    server_id = _server(client, tenants.mine.headers)
    broken = "[mysqld]\nkey_buffer_size = 16M\n{{ templated_thing }}\n"
    files = [
        ("mycnf", ("/etc/mysql/conf.d/broken.cnf", broken.encode())),
        ("variables", (VARIABLES_NAME, corpus_bytes(VARIABLES_FILE))),
    ]
    problem = assert_problem(_upload(client, tenants, server_id, files), 422)
    assert (problem["file"], problem["line"]) == ("/etc/mysql/conf.d/broken.cnf", 3)
    assert "/etc/mysql/conf.d/broken.cnf:3" in problem["detail"]


def test_broken_status_file_is_422_naming_file_and_line(client: TestClient, tenants: Tenants) -> None:
    """A junk line in the corpus status dump is reported at its file name and line 4."""
    server_id = _server(client, tenants.mine.headers)
    lines = corpus_file(STATUS_FILES[1]).read_text().splitlines(keepends=True)
    lines.insert(3, "this line is junk without a tab\n")
    files = [
        ("variables", (VARIABLES_NAME, corpus_bytes(VARIABLES_FILE))),
        ("status", ("status-broken.tsv", "".join(lines).encode())),
    ]
    problem = assert_problem(_upload(client, tenants, server_id, files), 422)
    assert (problem["file"], problem["line"]) == ("status-broken.tsv", 4)


def test_a_3_mib_file_is_413(client: TestClient, tenants: Tenants) -> None:
    """One file over 2 MiB is refused whole, naming the file."""
    server_id = _server(client, tenants.mine.headers)
    huge = b"# padding\n" * (3 * 1024 * 1024 // 10)
    problem = assert_problem(_upload(client, tenants, server_id, [("mycnf", ("/etc/my.cnf", huge))]), 413)
    assert problem["file"] == "/etc/my.cnf"
    as_json = {"mycnf": {"/etc/my.cnf": huge.decode()}}
    assert_problem(
        client.post(f"/v1/servers/{server_id}/snapshots", json=as_json, headers=tenants.mine.headers), 413
    )


def test_17_files_is_413(client: TestClient, tenants: Tenants) -> None:
    """Sixteen files is the limit: a seventeenth option file makes the upload a 413."""
    server_id = _server(client, tenants.mine.headers)
    files = [("mycnf", (f"/etc/mysql/conf.d/{index}.cnf", b"[mysqld]\n")) for index in range(16)]
    files.append(("variables", (VARIABLES_NAME, corpus_bytes(VARIABLES_FILE))))
    assert "17" in assert_problem(_upload(client, tenants, server_id, files), 413)["detail"]
    assert _upload(client, tenants, server_id, files[1:]).status_code == 201


def test_unknown_multipart_field_and_repeated_single_field_are_422(
    client: TestClient, tenants: Tenants
) -> None:
    """Only the documented fields are read; `variables` may come once."""
    server_id = _server(client, tenants.mine.headers)
    variables = ("variables", (VARIABLES_NAME, corpus_bytes(VARIABLES_FILE)))
    assert_problem(_upload(client, tenants, server_id, [variables, ("notes", ("n.txt", b"x"))]), 422)
    assert_problem(_upload(client, tenants, server_id, [variables, variables]), 422)


def test_secrets_are_redacted_in_every_response_and_stored_row(client: TestClient, tenants: Tenants) -> None:
    """`password = hunter2` appears in no response and in no snapshot row: it is [REDACTED]."""
    from store.db import unit_of_work
    from store.models import Snapshot

    server_id = _server(client, tenants.mine.headers)
    created = _upload(client, tenants, server_id, corpus_upload())
    url = f"/v1/servers/{server_id}/snapshots"
    as_json = client.post(url, json=corpus_json(), headers=tenants.mine.headers)
    responses = [
        created,
        as_json,
        client.get(url, headers=tenants.mine.headers),
        client.get(f"{url}/{created.json()['id']}", headers=tenants.mine.headers),
    ]
    for response in responses:
        assert response.status_code in (200, 201), response.text
        assert SECRET not in response.text
    stored_mycnf = responses[-1].json()["inputs"]["mycnf"][MYCNF_PATH]
    assert "password = [REDACTED]" in stored_mycnf
    with unit_of_work() as session:
        rows = session.scalars(select(Snapshot).where(Snapshot.server_id == server_id)).all()
        assert len(rows) == 2
        assert all(SECRET not in json.dumps(row.inputs) for row in rows)


def test_a_secret_on_a_broken_line_is_not_echoed_in_the_422(client: TestClient, tenants: Tenants) -> None:
    """The error for a bad option file quotes no password."""
    server_id = _server(client, tenants.mine.headers)
    broken = f"[client]\npassword = {SECRET}\n{{{{ templated_thing }}}} password={SECRET}\n"
    files = [
        ("mycnf", ("/etc/my.cnf", broken.encode())),
        ("variables", (VARIABLES_NAME, corpus_bytes(VARIABLES_FILE))),
    ]
    response = _upload(client, tenants, server_id, files)
    assert_problem(response, 422)
    assert SECRET not in response.text


def test_another_organisations_server_and_snapshot_are_404(client: TestClient, tenants: Tenants) -> None:
    """Uploading to, listing and reading their server's snapshots are all 404 for me."""
    their_server = _server(client, tenants.theirs.headers)
    url = f"/v1/servers/{their_server}/snapshots"
    theirs = client.post(url, files=corpus_upload(), headers=tenants.theirs.headers)
    assert theirs.status_code == 201
    assert_problem(client.post(url, files=corpus_upload(), headers=tenants.mine.headers), 404)
    assert_problem(client.post(url, json=corpus_json(), headers=tenants.mine.headers), 404)
    assert_problem(client.get(url, headers=tenants.mine.headers), 404)
    assert_problem(client.get(f"{url}/{theirs.json()['id']}", headers=tenants.mine.headers), 404)
    # Their snapshot under my own server's path is no way in either.
    mine = _server(client, tenants.mine.headers)
    assert_problem(
        client.get(f"/v1/servers/{mine}/snapshots/{theirs.json()['id']}", headers=tenants.mine.headers), 404
    )


def test_snapshot_list_paginates(client: TestClient, tenants: Tenants) -> None:
    """Three snapshots page as 2+1 with limit=2, in upload order."""
    server_id = _server(client, tenants.mine.headers)
    ids = [_upload(client, tenants, server_id, corpus_upload()).json()["id"] for _ in range(3)]
    url = f"/v1/servers/{server_id}/snapshots"
    first = client.get(url, params={"limit": 2}, headers=tenants.mine.headers).json()
    second = client.get(
        url, params={"limit": 2, "cursor": first["next_cursor"]}, headers=tenants.mine.headers
    ).json()
    assert [item["id"] for item in first["items"] + second["items"]] == ids
    assert second["next_cursor"] is None


def test_a_number_beyond_64_bits_in_the_innodb_status_is_stored_not_a_500(
    client: TestClient, tenants: Tenants
) -> None:
    """Two numbers of a paste run together (a 29-digit log sequence number): the parsers read it, the
    prepared form cannot hold it, and the snapshot is stored without one (review 3 saw a 500)."""
    server_id = _server(client, tenants.mine.headers)
    body = corpus_json()
    body["innodb_status"] = body["innodb_status"].replace(
        "Log sequence number ", "Log sequence number 99999999999999999999", 1
    )
    response = client.post(f"/v1/servers/{server_id}/snapshots", json=body, headers=tenants.mine.headers)
    assert response.status_code == 201, response.text
