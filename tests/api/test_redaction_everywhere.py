"""A secret in any input, in any layout, never reaches the database, the logs or a response.

Hypothesis makes up secrets and puts each into one input kind in one of its layouts: option-file
lines (plain, quoted, `loose-`, commented out, the `password hunter2` line the parser refuses,
abbreviated names such as `passw` or `file_key_management_filek`),
variables and status dumps (TSV, the client's table, `\\G`, columns, CSV, JSON objects, JSON rows,
wrapped JSON) and InnoDB status statement text (ALTER USER … IDENTIFIED BY, SET PASSWORD, CREATE
USER … IDENTIFIED WITH, PASSWORD(), MASTER_PASSWORD). Each example goes through the API (a server
snapshot, read back; a one-shot audit, waited for, with its diff, files and recommended file) and
through the web form (the result page, or the form coming back with its error). Then the secret must
be absent from every response, every log record, and a dump of the whole database.
"""

from __future__ import annotations

import json
import logging
import re
import sqlite3
import string
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.api.helpers import INNODB_STATUS_FILE, STATUS_FILES
from tests.corpus import corpus_file
from tests.web.forms_csrf import form_token

VARIABLES = {
    "version": "10.11.6-MariaDB-log",
    "innodb_buffer_pool_size": "134217728",
    "max_connections": "151",
    "innodb_log_file_size": "100663296",
}
SECRET_VARIABLE = "report_password"
BASE_MYCNF = "[mysqld]\ninnodb_buffer_pool_size = 128M\nmax_connections = 151\n"


def _tsv(rows: dict[str, str]) -> str:
    return "Variable_name\tValue\n" + "".join(f"{name}\t{value}\n" for name, value in rows.items())


def _table(rows: dict[str, str]) -> str:
    width = max(len(name) for name in rows), max(len(value) for value in rows.values())
    border = f"+{'-' * (width[0] + 2)}+{'-' * (width[1] + 2)}+"
    lines = [border, f"| {'Variable_name':<{width[0]}} | {'Value':<{width[1]}} |", border]
    lines += [f"| {name:<{width[0]}} | {value:<{width[1]}} |" for name, value in rows.items()]
    return "\n".join([*lines, border]) + "\n"


def _vertical(rows: dict[str, str]) -> str:
    return "".join(
        f"*************************** {n}. row ***************************\n"
        f"Variable_name: {name}\n        Value: {value}\n"
        for n, (name, value) in enumerate(rows.items(), start=1)
    )


VARIABLE_LAYOUTS: dict[str, Callable[[dict[str, str]], str]] = {
    "tsv": _tsv,
    "table": _table,
    "vertical": _vertical,
    "columns": lambda rows: "".join(f"{name} {value}\n" for name, value in rows.items()),
    "quoted csv": lambda rows: "".join(f'"{name}","{value}"\n' for name, value in rows.items()),
    "plain csv": lambda rows: "".join(f"{name},{value}\n" for name, value in rows.items()),
    "json object": lambda rows: json.dumps(rows, separators=(",", ":")),
    "json rows": lambda rows: json.dumps([{"Value": v, "Variable_name": n} for n, v in rows.items()]),
    "json wrapped": lambda rows: json.dumps({"global": {"global": rows}, "local": None}, indent=4),
}
MYCNF_LAYOUTS: dict[str, str] = {
    "client password": "[client]\npassword = {secret}\n",
    "no spaces": "[client]\npassword={secret}\n",
    "double quotes": '[client]\npassword = "{secret}"\n',
    "loose report password": "[mysqld]\nloose-report-password = '{secret}'\n",
    "ssl passphrase": "[client]\nssl-passphrase = {secret}\n",
    "commented out": "[client]\n# password = {secret}\n",
    "refused line": "[client]\npassword {secret}\n",
    # a group the server reads: the server refuses `password`, the finding must not quote it
    "server refuses password": "[client-server]\npassword = {secret}\n",
    # abbreviations the real programs take for the secret option (a unique option prefix)
    "abbreviated passw": "[client]\npassw = {secret}\n",
    "abbreviated pa": "[mysqladmin]\npa = {secret}\n",
    "abbreviated loose passwor": "[mysqldump]\nloose-passwor = '{secret}'\n",
    "abbreviated report pa": "[mysqld]\nreport-pa = {secret}\n",
    "abbreviated sst auth": "[mysqld]\nwsrep_sst_a = sst:{secret}\n",
    # the key plugin is not loaded: a finding comments the line out, and must not quote it
    "abbreviated filekey": "[mysqld]\nfile_key_management_filek = {secret}\n",
}
STATEMENTS = [
    "ALTER USER 'app'@'%' IDENTIFIED BY '{secret}'",
    "SET PASSWORD FOR 'app'@'10.0.0.%' = '{secret}'",
    "CREATE USER 'etl'@'%' IDENTIFIED WITH mysql_native_password BY '{secret}'",
    "SET PASSWORD = PASSWORD('{secret}')",
    "CHANGE MASTER TO MASTER_HOST='db1', MASTER_USER='repl', MASTER_PASSWORD='{secret}', MASTER_PORT=3306",
]


@dataclass
class Placement:
    """Where one example puts its secret: the upload's texts and what to call it."""

    description: str
    mycnf: str = BASE_MYCNF
    variables: str = field(default_factory=lambda: _tsv(VARIABLES))
    status: str | None = None
    innodb_status: str | None = None
    #: the parser refuses the line holding the secret: every submission is a 422 quoting it
    refused: bool = False


def _placements(secret: str) -> list[Placement]:
    with_secret = {**VARIABLES, SECRET_VARIABLE: secret}
    found = [
        Placement(f"variables as {name}", variables=render(with_secret))
        for name, render in VARIABLE_LAYOUTS.items()
    ]
    found += [
        Placement(
            f"my.cnf {name}", mycnf=BASE_MYCNF + layout.format(secret=secret), refused=name == "refused line"
        )
        for name, layout in MYCNF_LAYOUTS.items()
    ]
    status_rows = dict(
        line.split("\t", 1)
        for line in corpus_file(STATUS_FILES[1]).read_text().splitlines()[1:]
        if "\t" in line
    )
    found += [
        Placement(f"status as {name}", status=render({**status_rows, SECRET_VARIABLE: secret}))
        for name, render in VARIABLE_LAYOUTS.items()
        if name in ("tsv", "table", "json object")
    ]
    innodb = corpus_file(INNODB_STATUS_FILE).read_text()
    thread_line = re.search(r"^MariaDB thread id .*$", innodb, re.MULTILINE)
    assert thread_line is not None
    found += [
        Placement(
            f"innodb status {number}: {statement.split(chr(39), 1)[0].strip()}",
            innodb_status=innodb[: thread_line.end()]
            + "\n"
            + statement.format(secret=secret)
            + innodb[thread_line.end() :],
        )
        for number, statement in enumerate(STATEMENTS, start=1)
    ]
    return found


SECRETS = st.text(
    alphabet=string.ascii_letters + string.digits + "-_.!@%^*+/:~", min_size=10, max_size=24
).filter(
    lambda text: any(c.isalpha() for c in text) and any(c.isdigit() for c in text) and text[0] not in "-/"
)
PLACEMENT_COUNT = len(_placements("x1"))


@pytest.fixture
def embedded(use_env: Callable[..., None], tmp_path: Path) -> Iterator[tuple[TestClient, Path]]:
    """The app on a fresh, migrated SQLite file (no broker: audits run in-process), and that file."""
    database = tmp_path / "innotune.db"
    use_env(DATABASE_URL=f"sqlite:///{database}", CELERY_BROKER_URL=None, INNOTUNE_LOG_LEVEL="DEBUG")
    from api.app import create_app
    from migrations.commands import upgrade

    upgrade(f"sqlite:///{database}")
    with TestClient(create_app(), base_url="http://127.0.0.1:8000", follow_redirects=False) as client:
        yield client, database
    from services.jobs.in_process import wait_for_embedded_work

    wait_for_embedded_work()


def _upload_json(placement: Placement) -> dict[str, Any]:
    body: dict[str, Any] = {"mycnf": {"/etc/mysql/my.cnf": placement.mycnf}, "variables": placement.variables}
    if placement.status is not None:
        body["status"] = [placement.status]
    if placement.innodb_status is not None:
        body["innodb_status"] = placement.innodb_status
    return body


def _form_fields(placement: Placement, token: str) -> dict[str, str]:
    fields = {
        "csrf_token": token,
        "mycnf_path": "/etc/mysql/my.cnf",
        "mycnf_text": placement.mycnf,
        "variables_text": placement.variables,
        "memory": "24G",
    }
    if placement.status is not None:
        fields["status1_text"] = placement.status
    if placement.innodb_status is not None:
        fields["innodb_status_text"] = placement.innodb_status
    return fields


def _exchange(client: TestClient, placement: Placement, key: str, server_id: str) -> list[httpx.Response]:
    """Every request of one example; the responses, all of which get checked."""
    bearer = {"Authorization": f"Bearer {key}"}
    seen: list[httpx.Response] = []
    snapshot = client.post(f"/v1/servers/{server_id}/snapshots", json=_upload_json(placement), headers=bearer)
    seen.append(snapshot)
    if snapshot.status_code == 201:
        seen.append(client.get(f"/v1/snapshots/{snapshot.json()['id']}", headers=bearer))
    analyze = client.post(
        "/v1/analyze", params={"wait": 30}, json={**_upload_json(placement), "memory": "24G"}, headers=bearer
    )
    seen.append(analyze)
    if analyze.status_code in (200, 202):
        audit = analyze.json()["id"]
        for path in ("", "/diff", "/mycnf", "/files"):
            seen.append(client.get(f"/v1/audits/{audit}{path}", headers=bearer))
    form = client.post("/ui/audits", data=_form_fields(placement, form_token(client)))
    seen.append(form)
    if form.status_code == 303:
        seen.append(client.get(form.headers["location"]))
    return seen


def _database_dump(database: Path) -> str:
    connection = sqlite3.connect(database)
    try:
        return "\n".join(connection.iterdump())
    finally:
        connection.close()


def _log_text(records: list[logging.LogRecord]) -> str:
    return "\n".join(f"{record.getMessage()} {record.__dict__!r}" for record in records)


@pytest.mark.parametrize("which", range(PLACEMENT_COUNT), ids=[p.description for p in _placements("x1")])
@settings(
    max_examples=4,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(secret=SECRETS)
def test_a_secret_in_any_layout_is_in_no_response_log_or_database_row(
    embedded: tuple[TestClient, Path], caplog: pytest.LogCaptureFixture, secret: str, which: int
) -> None:
    """One secret, one placement: API and form round trips, then responses, logs and the dump are clean."""
    client, database = embedded
    placement = _placements(secret)[which]
    if secret in " ".join(str(text) for text in vars(_placements("")[which]).values()):
        return  # the secret happens to be a word of the unchanged input: nothing to prove
    from services.orgs import issue_api_key, local_organization
    from store.db import unit_of_work

    with unit_of_work() as session:
        key = issue_api_key(session, local_organization(session).id, "redaction test").key
    server = client.post(
        "/v1/servers", json={"name": f"db-{secret[:6]}-{which}"}, headers={"Authorization": f"Bearer {key}"}
    )
    server_id = (
        server.json()["id"]
        if server.status_code == 201
        else client.get(
            "/v1/servers", params={"limit": 200}, headers={"Authorization": f"Bearer {key}"}
        ).json()["items"][0]["id"]
    )
    caplog.clear()
    with caplog.at_level(logging.DEBUG):
        responses = _exchange(client, placement, key, server_id)
        from services.jobs.in_process import wait_for_embedded_work

        wait_for_embedded_work()
    statuses = [response.status_code for response in responses]
    if placement.refused:  # the error quotes the line, the form comes back with the text: redacted
        assert statuses == [422, 422, 422], (placement.description, statuses)
        assert "password [REDACTED]" in responses[-1].text and "[REDACTED]" in responses[0].text
    else:
        assert 201 in statuses and 303 in statuses, (placement.description, statuses, responses[0].text[:300])
    for response in responses:
        shown = response.text + repr(dict(response.headers))
        assert secret not in shown, (placement.description, response.request.url, response.status_code)
        if response.request.url.path.endswith(("/mycnf", "/files")):  # files we hand back: no placeholder
            assert "[REDACTED]" not in response.text, (placement.description, response.request.url)
    assert secret not in _log_text(caplog.records), placement.description
    dump = _database_dump(database)
    assert secret not in dump, placement.description
    assert placement.refused or "[REDACTED]" in dump
