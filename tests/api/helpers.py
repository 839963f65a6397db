"""What the API tests share: tenants with their keys, problem assertions, corpus uploads."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import httpx

from tests.corpus import corpus_file

PROBLEM_JSON = "application/problem+json"
SYSBENCH = "mariadb-10.11-sysbench/s02_load_rw_default"
VARIABLES_FILE = f"{SYSBENCH}.global_variables.tsv"
STATUS_FILES = (f"{SYSBENCH}.global_status.t20s.tsv", f"{SYSBENCH}.global_status.tsv")
INNODB_STATUS_FILE = f"{SYSBENCH}.innodb_status.txt"
#: Debian's default pool on the 24 GiB machine of the sysbench corpus, and a client password.
MYCNF_PATH = "/etc/mysql/my.cnf"
MYCNF_TEXT = "[mysqld]\ninnodb_buffer_pool_size = 128M\n\n[client]\nuser = app\npassword = hunter2\n"
SECRET = "hunter2"
FINDING_FIELDS = {
    "advisor",
    "rule",
    "severity",
    "title",
    "rationale",
    "evidence",
    "variable",
    "current",
    "recommended",
    "restart_required",
    "apply_sql",
    "references",
    "applies_to",
}


@dataclass(frozen=True)
class Tenant:
    """An organisation created for a test module, with its API key."""

    org_id: str
    key: str

    @property
    def headers(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.key}"}


@dataclass(frozen=True)
class Tenants:
    mine: Tenant
    theirs: Tenant


def assert_problem(response: httpx.Response, status: int) -> dict[str, Any]:
    """The response is an RFC 9457 problem with this status; return its body."""
    assert response.status_code == status, response.text
    assert response.headers["content-type"] == PROBLEM_JSON
    body: dict[str, Any] = response.json()
    assert body["status"] == status
    assert body["type"].endswith(f"/{status}") and body["title"] and body["detail"]
    assert "Traceback" not in response.text
    return body


def corpus_bytes(relative: str) -> bytes:
    return corpus_file(relative).read_bytes()


def corpus_upload(mycnf: str = MYCNF_TEXT) -> list[tuple[str, tuple[str, bytes]]]:
    """Multipart files: a my.cnf, the sysbench variables, both status dumps and the InnoDB status."""
    files = [
        ("mycnf", (MYCNF_PATH, mycnf.encode())),
        ("variables", (VARIABLES_FILE.rsplit("/", 1)[1], corpus_bytes(VARIABLES_FILE))),
    ]
    files += [("status", (name.rsplit("/", 1)[1], corpus_bytes(name))) for name in STATUS_FILES]
    files.append(("innodb_status", (INNODB_STATUS_FILE.rsplit("/", 1)[1], corpus_bytes(INNODB_STATUS_FILE))))
    return files


def corpus_json(mycnf: str = MYCNF_TEXT) -> dict[str, Any]:
    """The same inputs as `corpus_upload`, as the JSON body of a snapshot."""
    return {
        "mycnf": {MYCNF_PATH: mycnf},
        "variables": corpus_file(VARIABLES_FILE).read_text(),
        "status": [corpus_file(name).read_text() for name in STATUS_FILES],
        "innodb_status": corpus_file(INNODB_STATUS_FILE).read_text(),
    }
