"""/v1/analyze: a one-shot audit of uploaded corpus files, answered in one call with ?wait."""

from __future__ import annotations

import io
import subprocess
import uuid
import zipfile
from pathlib import Path, PurePosixPath
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.api.helpers import (
    FINDING_FIELDS,
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
from tests.fixtures.worker_process import WorkerProcess

#: the sysbench machine's facts as form fields (corpus README: 24 GiB, 2 cores, SSD-class disk).
FACTS = {"memory": "24G", "cpus": "2", "storage": "ssd", "role": "primary"}


@pytest.fixture
def worker(worker_process: WorkerProcess) -> WorkerProcess:
    return worker_process


def _assert_finished_audit(body: dict[str, Any], role: str = "primary") -> None:
    """A succeeded one-shot: findings with the CLI's fields, a diff and a my.cnf, no secret."""
    assert body["status"] == "succeeded", body
    assert body["server_id"] is None
    assert body["server"] == {"flavor": "mariadb", "version": "10.11.19-MariaDB-0+deb12u1", "role": role}
    assert body["findings"] and all(set(finding) >= FINDING_FIELDS for finding in body["findings"])
    pool = next(f for f in body["findings"] if f["variable"] == "innodb_buffer_pool_size")
    assert pool["severity"] in ("critical", "warning")
    assert body["diff"].startswith(f"--- a{MYCNF_PATH}") or body["diff"].startswith("---")
    assert f"+innodb_buffer_pool_size = {pool['recommended']}" in body["diff"]
    assert f"innodb_buffer_pool_size = {pool['recommended']}" in body["mycnf"]
    assert SECRET not in str(body)


def test_multipart_with_wait_answers_200_with_the_audit(
    client: TestClient, tenants: Tenants, worker: WorkerProcess
) -> None:
    """Corpus files and the server facts in, findings + diff + my.cnf out, in one request."""
    response = client.post(
        "/v1/analyze", params={"wait": 30}, files=corpus_upload(), data=FACTS, headers=tenants.mine.headers
    )
    assert response.status_code == 200, response.text
    _assert_finished_audit(response.json())
    assert response.headers["location"] == f"/v1/audits/{response.json()['id']}"
    assert SECRET not in response.text


def test_json_with_wait_gives_the_same_findings(
    client: TestClient, tenants: Tenants, worker: WorkerProcess
) -> None:
    """The JSON form of the same inputs gives the same findings as multipart."""
    facts = {**FACTS, "cpus": 2}
    as_json = client.post(
        "/v1/analyze", params={"wait": 30}, json={**corpus_json(), **facts}, headers=tenants.mine.headers
    )
    as_form = client.post(
        "/v1/analyze", params={"wait": 30}, files=corpus_upload(), data=FACTS, headers=tenants.mine.headers
    )
    assert as_json.status_code == 200, as_json.text
    _assert_finished_audit(as_json.json())
    assert as_json.json()["findings"] == as_form.json()["findings"]


def test_without_wait_it_is_202_and_the_location_finishes(
    client: TestClient, tenants: Tenants, worker: WorkerProcess
) -> None:
    """No ?wait: 202 + Location at once; the audit's links lead to its one-shot snapshot."""
    response = client.post("/v1/analyze", files=corpus_upload(), data=FACTS, headers=tenants.mine.headers)
    assert response.status_code == 202, response.text
    assert response.json()["status"] in ("queued", "running", "succeeded")
    audit = client.get(response.headers["location"], params={"wait": 30}, headers=tenants.mine.headers).json()
    assert audit["status"] == "succeeded"
    snapshot = client.get(audit["links"]["snapshot"], headers=tenants.mine.headers)
    assert snapshot.status_code == 200 and snapshot.json()["server_id"] is None
    assert "password = [REDACTED]" in snapshot.json()["inputs"]["mycnf"][MYCNF_PATH]
    assert_problem(client.get(audit["links"]["snapshot"], headers=tenants.theirs.headers), 404)
    assert_problem(client.get(response.headers["location"], headers=tenants.theirs.headers), 404)


def test_bad_inputs_and_facts_are_422(client: TestClient, tenants: Tenants) -> None:
    """A broken my.cnf names file and line; a bad size, role or unknown field is refused."""
    broken = [
        ("mycnf", ("/etc/mysql/my.cnf", b"[mysqld]\n{{ templated_thing }}\n")),
        ("variables", ("variables.tsv", corpus_bytes(VARIABLES_FILE))),
    ]
    problem = assert_problem(client.post("/v1/analyze", files=broken, headers=tenants.mine.headers), 422)
    assert (problem["file"], problem["line"]) == ("/etc/mysql/my.cnf", 2)
    for facts in ({"memory": "lots"}, {"role": "leader"}, {"cpus": "two"}, {"colour": "blue"}):
        assert_problem(
            client.post("/v1/analyze", files=corpus_upload(), data=facts, headers=tenants.mine.headers), 422
        )
    assert_problem(
        client.post("/v1/analyze", json={**corpus_json(), "colour": 1}, headers=tenants.mine.headers), 422
    )


def test_idempotency_key_on_analyze(client: TestClient, tenants: Tenants, worker: WorkerProcess) -> None:
    """The same upload with the same key is the same audit; another upload with it is a 409."""
    headers = {**tenants.mine.headers, "Idempotency-Key": f"analyze-{uuid.uuid4()}"}
    first = client.post("/v1/analyze", files=corpus_upload(), data=FACTS, headers=headers)
    again = client.post("/v1/analyze", files=corpus_upload(), data=FACTS, headers=headers)
    assert first.status_code == 202 and again.status_code in (200, 202)
    assert again.json()["id"] == first.json()["id"]
    other = client.post(
        "/v1/analyze", files=corpus_upload(), data={**FACTS, "memory": "32G"}, headers=headers
    )
    assert_problem(other, 409)


TWO_FILES = {
    "/etc/mysql/my.cnf": "[client]\npassword = s3cret\n\n[mysqld]\nmax_connections = 151\n!includedir /etc/mysql/conf.d/\n",
    "/etc/mysql/conf.d/tuning.cnf": "[mysqld]\ninnodb_buffer_pool_size = 8M\ninnodb_flush_method = normal\n",
}


def test_two_files_come_back_with_their_paths_and_the_combined_diff_applies_from_root(
    client: TestClient, tenants: Tenants, worker: WorkerProcess, tmp_path: Path
) -> None:
    """Two option files uploaded with explicit paths: both come back (audit resource, /files, the zip),
    and `patch -p1` of the combined diff in a fake root gives exactly the recommended files."""
    files = [("mycnf", (PurePosixPath(path).name, text.encode())) for path, text in TWO_FILES.items()]
    data = {**FACTS, "server_version": "10.11.6-MariaDB", "mycnf_path": list(TWO_FILES)}
    response = client.post(
        "/v1/analyze", params={"wait": 30}, files=files, data=data, headers=tenants.mine.headers
    )
    assert response.status_code == 200, response.text
    body = response.json()
    assert [file["path"] for file in body["files"]] == list(TWO_FILES)
    assert body["dropin"]["path"] == "/etc/mysql/conf.d/zz-innotune.cnf"
    assert "s3cret" not in response.text and "[REDACTED]" not in body["diff"]
    for path, text in TWO_FILES.items():
        target = tmp_path / path.lstrip("/")
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text.replace("s3cret", "[REDACTED]"))  # what the service stored
    run = subprocess.run(
        ["patch", "-p1", "--batch"], input=body["diff"], text=True, cwd=tmp_path, capture_output=True
    )
    assert run.returncode == 0, run.stdout + run.stderr
    recommended = {file["path"]: file["recommended"] for file in body["files"]}
    tuning = "/etc/mysql/conf.d/tuning.cnf"
    assert (tmp_path / tuning.lstrip("/")).read_text() == recommended[tuning]
    listed = client.get(f"/v1/audits/{body['id']}/files", headers=tenants.mine.headers).json()
    assert [file["path"] for file in listed["files"]] == list(TWO_FILES)
    archive = client.get(f"/v1/audits/{body['id']}/files.zip", headers=tenants.mine.headers)
    assert archive.headers["content-type"] == "application/zip"
    names = zipfile.ZipFile(io.BytesIO(archive.content)).namelist()
    assert {
        "etc/mysql/my.cnf",
        "etc/mysql/conf.d/tuning.cnf",
        "dropin/etc/mysql/conf.d/zz-innotune.cnf",
    } <= set(names)


def test_status_uploaded_as_variables_is_a_422_naming_it(client: TestClient, tenants: Tenants) -> None:
    """SHOW GLOBAL STATUS in the variables field is refused through the InputError path (it audited
    quietly as a variables dump lacking everything), and a UTF-16 upload is named as such."""
    mixed_up = [("variables", ("status.tsv", corpus_bytes(STATUS_FILES[1])))]
    problem = assert_problem(
        client.post("/v1/analyze", files=mixed_up, data=FACTS, headers=tenants.mine.headers), 422
    )
    assert problem["file"] == "status.tsv" and "SHOW GLOBAL STATUS" in problem["detail"]
    utf16 = corpus_file(VARIABLES_FILE).read_text().encode("utf-16")
    problem = assert_problem(
        client.post(
            "/v1/analyze",
            files=[("variables", ("vars.txt", utf16))],
            data=FACTS,
            headers=tenants.mine.headers,
        ),
        422,
    )
    assert problem["file"] == "vars.txt" and "UTF-16" in problem["detail"]


def test_more_paths_than_files_is_a_clear_422(client: TestClient, tenants: Tenants) -> None:
    """A `mycnf_path` without its file is refused with a problem naming both counts."""
    response = client.post(
        "/v1/analyze",
        files=[("mycnf", ("my.cnf", b"[mysqld]\n"))],
        data={"mycnf_path": ["/etc/my.cnf", "/etc/other.cnf"]},
        headers=tenants.mine.headers,
    )
    assert_problem(response, 422)
    assert "2 `mycnf_path` fields for 1 `mycnf` files" in response.json()["detail"]


def _evidence(body: dict[str, Any], label: str) -> list[str]:
    """The values of every evidence item with this label."""
    return [
        item["value"]
        for finding in body["findings"]
        for item in finding["evidence"]
        if item["label"] == label
    ]


def test_fields_replace_single_fields_of_the_hardware_file(
    client: TestClient, tenants: Tenants, worker: WorkerProcess
) -> None:
    """As `innotune audit --hardware F --storage ssd`: a hardware file plus memory/storage fields is one
    merged spec (the fields win, the file keeps the rest), never a refusal."""
    hardware = b'{"memory": "16G", "cpus": 2, "storage": "hdd", "fsync_latency_ms": 0.25}'
    files = [*corpus_upload(), ("hardware", ("hardware.json", hardware))]
    both = client.post(
        "/v1/analyze",
        params={"wait": 30},
        files=files,
        data={"memory": "24G", "storage": "ssd"},
        headers=tenants.mine.headers,
    )
    file_only = client.post("/v1/analyze", params={"wait": 30}, files=files, headers=tenants.mine.headers)
    assert both.status_code == 200, both.text
    assert file_only.status_code == 200, file_only.text
    merged, alone = both.json(), file_only.json()
    assert merged["figures"]["usable_memory_bytes"] == 24 * 1024**3
    assert alone["figures"]["usable_memory_bytes"] == 16 * 1024**3
    # the field's ssd: io_capacity and flush_neighbors cite it; the file's hdd alone asks for neither
    assert _evidence(merged, "storage") == ["ssd", "ssd"]
    assert _evidence(alone, "storage") == []
    assert not {"flushing.io_capacity", "flushing.flush_neighbors"} & {f["rule"] for f in alone["findings"]}


def test_a_byte_order_mark_is_critical_and_left_out_of_the_copy_and_the_diff(
    client: TestClient, tenants: Tenants, worker: WorkerProcess, tmp_path: Path
) -> None:
    """A my.cnf saved with a UTF-8 BOM (mariadbd refuses it at line 1): a critical finding says so,
    the recommended copy starts without it, and `patch -p1` of the diff gives that copy."""
    text = "\ufeff[mysqld]\ninnodb_buffer_pool_size = 128M\n"
    data = {**FACTS, "server_version": "10.11.6-MariaDB", "mycnf_path": ["/etc/mysql/my.cnf"]}
    response = client.post(
        "/v1/analyze",
        params={"wait": 30},
        files=[("mycnf", ("my.cnf", text.encode()))],
        data=data,
        headers=tenants.mine.headers,
    )
    assert response.status_code == 200, response.text
    body = response.json()
    found = {finding["rule"]: finding["severity"] for finding in body["findings"]}
    assert found.get("config_validity.byte_order_mark") == "critical"
    copy = body["files"][0]["recommended"]
    assert copy.startswith("[mysqld]\n")
    target = tmp_path / "etc/mysql/my.cnf"
    target.parent.mkdir(parents=True)
    target.write_bytes(text.encode())
    run = subprocess.run(
        ["patch", "-p1", "--batch"], input=body["diff"], text=True, cwd=tmp_path, capture_output=True
    )
    assert run.returncode == 0, run.stdout + run.stderr
    assert target.read_text(encoding="utf-8") == copy


def test_an_option_file_with_latin1_comments_is_audited(
    client: TestClient, tenants: Tenants, worker: WorkerProcess
) -> None:
    """A DBA review's file: `# Réglages` saved as Latin-1 was refused as binary (422), though mariadbd
    reads it; its comments now come back in the recommended file."""
    files = corpus_upload()
    files[0] = ("mycnf", (MYCNF_PATH, b"[mysqld]\n# R\xe9glages du serveur\nmax_connections = 100\n"))
    response = client.post(
        "/v1/analyze", params={"wait": 30}, files=files, data=FACTS, headers=tenants.mine.headers
    )
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["status"] == "succeeded"
    assert "# Réglages du serveur" in body["mycnf"]
    files[0] = ("mycnf", (MYCNF_PATH, b"[mysqld]\ndatadir = /var/lib/r\xe9pertoire\n"))
    refused = assert_problem(
        client.post("/v1/analyze", files=files, data=FACTS, headers=tenants.mine.headers), 422
    )
    assert "save the file as UTF-8" in refused["detail"]


def test_a_file_uploaded_without_its_path_comes_back_where_the_include_reads_it(
    client: TestClient, tenants: Tenants, worker: WorkerProcess, tmp_path: Path
) -> None:
    """A DBA review's case: `extra.cnf` uploaded by its name alone, read through `!include
    /etc/mysql/conf.d/extra.cnf`, came back as `extra.cnf` in the files, the zip and the diff —
    `patch -p1` from / then made `/extra.cnf`. It now comes back with the path the server reads."""
    main = "[mysqld]\nmax_connections = 151\n!include /etc/mysql/conf.d/extra.cnf\n"
    extra = "[mysqld]\ninnodb_buffer_pool_size = 8M\n"
    files = [("mycnf", ("my.cnf", main.encode())), ("mycnf", ("extra.cnf", extra.encode()))]
    data = {**FACTS, "server_version": "10.11.6-MariaDB", "mycnf_path": ["/etc/mysql/my.cnf", ""]}
    body = client.post(
        "/v1/analyze", params={"wait": 30}, files=files, data=data, headers=tenants.mine.headers
    ).json()
    assert body["status"] == "succeeded", body
    extra_file = next(file for file in body["files"] if file["path"] == "extra.cnf")
    assert extra_file["installed_path"] == "/etc/mysql/conf.d/extra.cnf"
    assert "--- a/etc/mysql/conf.d/extra.cnf" in body["diff"]
    target = tmp_path / "etc/mysql/conf.d/extra.cnf"
    target.parent.mkdir(parents=True)
    target.write_text(extra)
    (tmp_path / "etc/mysql/my.cnf").write_text(main)
    run = subprocess.run(
        ["patch", "-p1", "--batch"], input=body["diff"], text=True, cwd=tmp_path, capture_output=True
    )
    assert run.returncode == 0, run.stdout + run.stderr
    assert target.read_text() == extra_file["recommended"]
    archive = client.get(f"/v1/audits/{body['id']}/files.zip", headers=tenants.mine.headers)
    assert "etc/mysql/conf.d/extra.cnf" in zipfile.ZipFile(io.BytesIO(archive.content)).namelist()


@pytest.mark.parametrize("path", ["/etc/mysql/", "/etc/mysql/."])
def test_a_folder_given_as_an_option_files_path_is_a_422(
    client: TestClient, tenants: Tenants, path: str
) -> None:
    """`mycnf_path=/etc/mysql/` was accepted and the zip held an entry named like the folder."""
    for request in (
        {"files": corpus_upload(), "data": {**FACTS, "mycnf_path": [path]}},
        {"json": {**corpus_json(), "mycnf": {path: "[mysqld]\nmax_connections = 100\n"}, **FACTS}},
    ):
        problem = assert_problem(client.post("/v1/analyze", headers=tenants.mine.headers, **request), 422)
        assert "not a folder's" in problem["detail"]


@pytest.mark.parametrize(
    ("memory", "words"), [("16", "too little for a database server"), ("0", "more than zero")]
)
def test_a_memory_without_its_unit_is_a_422_naming_the_field(
    client: TestClient, tenants: Tenants, memory: str, words: str
) -> None:
    """`memory=16` was taken as 16 bytes (a critical finding came back); `memory=0` was called a
    `command line: --memory` problem."""
    problem = assert_problem(
        client.post(
            "/v1/analyze",
            files=corpus_upload(),
            data={**FACTS, "memory": memory},
            headers=tenants.mine.headers,
        ),
        422,
    )
    assert words in str(problem) and "command line" not in str(problem)
