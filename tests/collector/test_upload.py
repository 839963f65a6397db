"""`--upload`: the multipart POST the collector sends, checked against a stub of the service."""

from __future__ import annotations

from dataclasses import replace

import pytest

from collector.errors import CollectError
from collector.files import snapshot_files
from collector.role import RoleFinding
from collector.upload import snapshots_url, upload_snapshot
from tests.collector.snapshots import corpus_snapshot
from tests.collector.stub_service import stub_service

HARDWARE = {"memory": 24 * 1024**3, "cpus": 2, "os": "Debian GNU/Linux 12 (bookworm)"}
API_KEY = "itk_test_key_0123456789"


def test_the_snapshot_goes_as_multipart_fields_with_a_bearer_key() -> None:
    """variables, status twice (oldest first), innodb_status, schema, hardware; the id is returned."""
    snapshot = corpus_snapshot()
    files = snapshot_files(snapshot, HARDWARE)
    with stub_service() as service:
        snapshot_id = upload_snapshot(files, service.url + "/", API_KEY, "srv_42")
    assert snapshot_id == "snap_0123456789abcdef"
    (request,) = service.requests
    assert request.path == "/v1/servers/srv_42/snapshots"
    assert request.headers["authorization"] == f"Bearer {API_KEY}"
    assert request.headers["content-type"].startswith("multipart/form-data; boundary=")
    parts = request.parts()
    assert [(p.field, p.filename) for p in parts] == [
        ("variables", "variables.tsv"),
        ("status", "status-1.tsv"),
        ("status", "status-2.tsv"),
        ("innodb_status", "innodb_status.txt"),
        ("schema", "schema.tsv"),
        ("hardware", "hardware.json"),
    ]
    assert parts[1].data.decode() == snapshot.status[0] and parts[2].data.decode() == snapshot.status[1]
    assert parts[3].data.decode() == snapshot.innodb_status
    assert b'"cpus": 2' in parts[5].data and parts[5].content_type == "application/json"


def test_the_detected_role_goes_as_plain_fields() -> None:
    """`detected_role` and `detected_role_how` are form fields (no filename) beside the files."""
    role = RoleFinding("replica", "replicating from 10.0.0.5 (I/O thread yes, SQL thread yes)")
    with stub_service() as service:
        upload_snapshot(snapshot_files(corpus_snapshot(), None), service.url, API_KEY, "srv_42", role)
    parts = service.requests[0].parts()
    assert [(p.field, p.filename, p.data.decode()) for p in parts[:2]] == [
        ("detected_role", None, "replica"),
        ("detected_role_how", None, role.how),
    ]
    assert [p.field for p in parts[2:]] == ["variables", "status", "status", "innodb_status", "schema"]


def test_parts_not_collected_are_left_out() -> None:
    """No InnoDB status, no schema, no hardware: only variables and the two status samples go."""
    snapshot = corpus_snapshot()
    files = snapshot_files(replace(snapshot, innodb_status=None, schema=None), None)
    with stub_service() as service:
        upload_snapshot(files, service.url, API_KEY, "srv_42")
    assert [p.field for p in service.requests[0].parts()] == ["variables", "status", "status"]


def test_the_server_id_is_escaped_in_the_path() -> None:
    """An id with a slash cannot reach another path."""
    assert snapshots_url("https://innotune.example/api/", "a/b c") == (
        "https://innotune.example/api/v1/servers/a%2Fb%20c/snapshots"
    )


def test_a_problem_answer_is_reported_with_its_detail() -> None:
    """A 422 application/problem+json answer raises CollectError carrying status and detail."""
    problem = {
        "type": "about:blank",
        "title": "Unprocessable",
        "status": 422,
        "detail": "variables.tsv:3: bad",
    }
    with (
        stub_service(status=422, answer=problem, content_type="application/problem+json") as service,
        pytest.raises(CollectError, match=r"upload refused \(422\): variables\.tsv:3: bad"),
    ):
        upload_snapshot(snapshot_files(corpus_snapshot(), None), service.url, API_KEY, "srv_42")


def test_an_answer_without_an_id_is_an_error() -> None:
    """A 201 whose JSON lacks `id` is not taken for success."""
    with (
        stub_service(answer={"ok": True}) as service,
        pytest.raises(CollectError, match="without a snapshot id"),
    ):
        upload_snapshot(snapshot_files(corpus_snapshot(), None), service.url, API_KEY, "srv_42")


def test_an_unreachable_service_is_an_error() -> None:
    """Nothing listening: CollectError naming the URL, not a traceback."""
    with stub_service() as service:
        url = service.url
    with pytest.raises(CollectError, match=r"cannot upload to http://127\.0\.0\.1"):
        upload_snapshot(snapshot_files(corpus_snapshot(), None), url, API_KEY, "srv_42")
