"""`innotune collect` against the real MariaDB (a private instance of its own, made by
mariadb-install-db), as an account holding exactly the grants of docs/collector.md: collect, audit
the files, and find the table without a primary key named.

A scratch schema holds a table without a key and one with a primary key; a real deadlock between two
sessions leaves statements and row values in SHOW ENGINE INNODB STATUS, which must not reach the
files or the upload. The account and the schema are dropped afterwards.

Skipped when mariadbd is not installed, except in CI (CI=true), where that fails.
"""

from __future__ import annotations

import json
import os
import re
import secrets
import shlex
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from advisor.inputs.hardware import load_hardware
from advisor.inputs.innodb_status import parse_innodb_status
from tests.collector.stub_service import stub_service
from tests.fixtures.private_mariadb import PrivateMariadb, private_mariadb

pytestmark = pytest.mark.mariadb

ROOT = Path(__file__).resolve().parents[2]
HOST = "127.0.0.1"
DOC = ROOT / "docs" / "collector.md"
SQL_BLOCK = re.compile(r"^```sql\n(.*?)^```", re.DOTALL | re.MULTILINE)
#: The documented account, password and schema, replaced by the test's own.
DOC_ACCOUNT, DOC_PASSWORD, DOC_SCHEMA = "'innotune'@'localhost'", "'choose-a-password'", "`shop`"
SNAPSHOT_FILES = {"variables.tsv", "status-1.tsv", "status-2.tsv", "innodb_status.txt", "schema.tsv"}
TAG = secrets.token_hex(4)
SCRATCH = [
    "CREATE TABLE orders_without_key (customer INT, amount DECIMAL(10,2), note VARCHAR(40)) ENGINE=InnoDB",
    "INSERT INTO orders_without_key VALUES (1, 9.50, 'a'), (2, 12.00, 'b'), (1, 3.25, 'c'), (3, 40.00, 'd')",
    "CREATE TABLE customers (id INT PRIMARY KEY, name VARCHAR(60)) ENGINE=InnoDB",
    "INSERT INTO customers VALUES (1, 'one'), (2, 'two')",
]


def _connect(server: PrivateMariadb, **options: Any) -> Any:
    import pymysql

    return pymysql.connect(
        host=HOST, port=server.port, user="root", password="", connect_timeout=5, **options
    )


def _execute(connection: Any, *statements: str) -> None:
    with connection.cursor() as cursor:
        for statement in statements:
            cursor.execute(statement)


def documented_grants(account: str, password: str, schema: str) -> list[str]:
    """The statements of docs/collector.md's ```sql block, for this account, password and schema."""
    blocks = SQL_BLOCK.findall(DOC.read_text())
    assert len(blocks) == 1, f"{DOC} must hold exactly one ```sql block"
    text = str(blocks[0])
    for placeholder in (DOC_ACCOUNT, DOC_PASSWORD, DOC_SCHEMA):
        assert placeholder in text, f"{placeholder} no longer in the documented grants"
    text = text.replace(DOC_ACCOUNT, account).replace(DOC_PASSWORD, f"'{password}'")
    return [s.strip() for s in text.replace(DOC_SCHEMA, f"`{schema}`").split(";") if s.strip()]


@dataclass(frozen=True)
class Account:
    user: str
    password: str
    password_file: Path
    port: int


@pytest.fixture(scope="module")
def server() -> Iterator[PrivateMariadb]:
    """A private instance: no other test run's deadlock can replace this module's in its InnoDB
    status. skip-name-resolve, so 127.0.0.1 is the host the accounts are made for."""
    with private_mariadb("--skip-name-resolve") as made:
        yield made


@pytest.fixture(scope="module")
def root(server: PrivateMariadb) -> Iterator[Any]:
    connection = _connect(server, autocommit=True)
    yield connection
    connection.close()


@pytest.fixture(scope="module")
def schema(root: Any) -> Iterator[str]:
    name = f"innotune_collect_{TAG}"
    _execute(root, f"CREATE DATABASE `{name}`")
    try:
        _execute(root, f"USE `{name}`", *SCRATCH, "ANALYZE TABLE orders_without_key, customers")
        yield name
    finally:
        _execute(root, f"DROP DATABASE `{name}`")


@contextmanager
def _account(root: Any, tmp_path: Path, grants: Callable[[str, str], list[str]]) -> Iterator[Account]:
    """A fresh account with a random name and password, created by `grants(account, password)`,
    with its password file; dropped at the end."""
    user, password = f"innotune_c_{secrets.token_hex(4)}", f"pw-{secrets.token_urlsafe(12)}"
    account = f"'{user}'@'{HOST}'"
    password_file = tmp_path / "password"
    password_file.write_text(password + "\n")
    password_file.chmod(0o600)
    try:
        _execute(root, *grants(account, password))
        yield Account(user, password, password_file, root.port)
    finally:
        _execute(root, f"DROP USER IF EXISTS {account}")


@pytest.fixture(scope="module")
def collector_account(root: Any, schema: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Account]:
    """An account created by exactly the documented statements."""
    directory = tmp_path_factory.mktemp("account")
    with _account(
        root, directory, lambda account, password: documented_grants(account, password, schema)
    ) as made:
        yield made


@pytest.fixture(scope="module")
def deadlock(server: PrivateMariadb, root: Any, schema: str) -> str:
    """Two sessions updating customers 1 and 2 in opposite order: InnoDB reports the deadlock with
    their statements. Returns the marker the statements carry."""
    import pymysql

    marker = f"deadlock-marker-{TAG}"
    first, second = _connect(server, database=schema), _connect(server, database=schema)
    errors: list[Exception] = []

    def run(connection: Any, statement: str) -> None:
        try:
            _execute(connection, statement)
        except pymysql.err.OperationalError as exc:
            errors.append(exc)

    try:
        _execute(first, "BEGIN", f"UPDATE customers SET name = '{marker}-a' WHERE id = 1")
        _execute(second, "BEGIN", f"UPDATE customers SET name = '{marker}-b' WHERE id = 2")
        waiting = threading.Thread(
            target=run, args=(first, f"UPDATE customers SET name = '{marker}-c' WHERE id = 2")
        )
        waiting.start()
        time.sleep(0.5)  # let the first session queue behind the second's lock
        run(second, f"UPDATE customers SET name = '{marker}-d' WHERE id = 1")
        waiting.join(timeout=30)
    finally:
        for connection in (first, second):
            connection.rollback()
            connection.close()
    assert [exc.args[0] for exc in errors] == [1213], errors  # ER_LOCK_DEADLOCK, once
    return marker


def _environment() -> dict[str, str]:
    return {k: v for k, v in os.environ.items() if k not in ("INNOTUNE_COLLECT_PASSWORD", "INNOTUNE_API_KEY")}


def _start(account: Account, *destination: str) -> subprocess.Popen[str]:
    """Start `innotune collect` (the shortest --interval it takes, 10 s); runs overlap to save time."""
    argv = [sys.executable, "-m", "cli.main", "collect", "--host", HOST, "--port", str(account.port)]
    argv += ["--user", account.user, "--password-file", str(account.password_file), "--interval", "10"]
    return subprocess.Popen(
        [*argv, *destination],
        cwd=ROOT,
        env=_environment(),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def _finish(process: subprocess.Popen[str]) -> subprocess.CompletedProcess[str]:
    try:
        stdout, stderr = process.communicate(timeout=120)
    finally:
        if process.poll() is None:
            process.kill()
    return subprocess.CompletedProcess(process.args, process.returncode, stdout, stderr)


def _select_only(schema: str) -> Callable[[str, str], list[str]]:
    def grants(account: str, password: str) -> list[str]:
        return [
            f"CREATE USER {account} IDENTIFIED BY '{password}'",
            f"GRANT SELECT ON `{schema}`.* TO {account}",
        ]

    return grants


@dataclass(frozen=True)
class Collected:
    directory: Path
    run: subprocess.CompletedProcess[str]


@dataclass(frozen=True)
class Runs:
    """Every collector run of this module, started together and finished together."""

    collected: Collected
    upload: subprocess.CompletedProcess[str]
    upload_requests: list[Any]
    refused: subprocess.CompletedProcess[str]
    limited: Collected


@pytest.fixture(scope="module")
def runs(
    root: Any,
    schema: str,
    collector_account: Account,
    deadlock: str,
    tmp_path_factory: pytest.TempPathFactory,
) -> Runs:
    directory, limited_directory = tmp_path_factory.mktemp("snapshot"), tmp_path_factory.mktemp("limited")
    problem = {"title": "Not Found", "status": 404, "detail": "No server srv_gone in this organisation."}
    with (
        _account(root, tmp_path_factory.mktemp("limited-account"), _select_only(schema)) as limited,
        stub_service() as service,
        stub_service(status=404, answer=problem, content_type="application/problem+json") as refusing,
    ):
        started = [
            # the probe would write into the shared server's datadir: it is tested on private instances
            _start(collector_account, "--output", str(directory), "--no-probe-storage"),
            _start(
                collector_account,
                "--upload",
                service.url,
                "--api-key",
                "itk_key",
                "--server",
                "srv_1",
                "--no-probe-storage",
            ),
            # the documented account may open 2 connections: the refused upload logs in as another one
            _start(
                limited,
                "--upload",
                refusing.url,
                "--api-key",
                "itk_key",
                "--server",
                "srv_gone",
                "--no-local-facts",
            ),
            _start(limited, "--output", str(limited_directory), "--no-local-facts"),
        ]
        done = [_finish(process) for process in started]
        requests = list(service.requests)
    return Runs(
        Collected(directory, done[0]), done[1], requests, done[2], Collected(limited_directory, done[3])
    )


@pytest.fixture(scope="module")
def collected(runs: Runs) -> Collected:
    assert runs.collected.run.returncode == 0, runs.collected.run.stderr
    return runs.collected


def _audit(command_line: str) -> dict[str, Any]:
    """Run the printed `innotune audit ...` line (as `python -m cli.main audit ...`) with JSON out."""
    argv = shlex.split(command_line)
    assert argv[:2] == ["innotune", "audit"]
    run = subprocess.run(
        [sys.executable, "-m", "cli.main", *argv[1:], "--format", "json"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert run.returncode in (0, 1), run.stderr  # 1: a critical finding, still a finished audit
    result: dict[str, Any] = json.loads(run.stdout)
    return result


def test_the_audit_of_the_collected_files_names_the_table_without_a_key(
    collected: Collected, schema: str
) -> None:
    """A primary_keys finding names orders_without_key, and not customers (it has a primary key)."""
    command = collected.run.stdout.strip().splitlines()[-1]
    result = _audit(command)
    keyed = [f for f in result["findings"] if f["rule"].startswith("primary_keys.")]
    mentioned = " ".join(f["rationale"] + " ".join(e["label"] for e in f["evidence"]) for f in keyed)
    assert f"{schema}.orders_without_key" in mentioned
    assert f"{schema}.customers" not in mentioned
    assert result["server"]["flavor"] == "mariadb"


def test_every_file_is_written_and_read_by_the_parsers(collected: Collected, root: Any) -> None:
    """Variables, two status samples, InnoDB status (PROCESS was granted), schema, hardware, manifest."""
    names = {path.name for path in collected.directory.iterdir()}
    assert names == SNAPSHOT_FILES | {"hardware.json", "manifest.json"}
    manifest = json.loads((collected.directory / "manifest.json").read_text())
    with root.cursor() as cursor:
        cursor.execute("SELECT VERSION()")
        (version,) = cursor.fetchone()
    assert manifest["server_version"] == version
    assert manifest["interval_seconds"] == 10
    assert 10 <= manifest["measured_interval_seconds"] < 12
    assert manifest["uptime_seconds"] > 0
    assert manifest["role"]["role"] in ("primary", "standalone")
    status = parse_innodb_status((collected.directory / "innodb_status.txt").read_text(), "innodb_status.txt")
    assert status.missing_sections == () and status.has_deadlock
    hardware = load_hardware((collected.directory / "hardware.json").read_text(), "hardware.json")
    assert hardware.memory and hardware.cpus


def test_no_statement_row_value_or_password_is_written(
    collected: Collected, collector_account: Account, deadlock: str, root: Any
) -> None:
    """The server's own dump quotes the deadlocked statements and row values; the files do not."""
    with root.cursor() as cursor:
        cursor.execute("SHOW ENGINE INNODB STATUS")
        raw = cursor.fetchone()[2]
    # The test would prove nothing unless the server quoted a statement and dumped a row value
    # (the rows hold the first updates' values, -a and -b, when the -c and -d statements collide).
    assert f"SET name = '{deadlock}-d' WHERE id = 1" in raw and f"asc {deadlock}-a;;" in raw
    written = "".join(path.read_text() for path in collected.directory.iterdir())
    assert "LATEST DETECTED DEADLOCK" in written
    for secret in (deadlock, collector_account.password):
        assert secret not in written
    assert collector_account.password not in collected.run.stdout + collected.run.stderr


def test_upload_posts_the_snapshot_to_the_service(
    runs: Runs, collector_account: Account, deadlock: str
) -> None:
    """--upload: one multipart POST with every field and the bearer key; the id is printed."""
    run = runs.upload
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == "snap_0123456789abcdef"
    (request,) = runs.upload_requests
    assert request.path == "/v1/servers/srv_1/snapshots"
    assert request.headers["authorization"] == "Bearer itk_key"
    parts = request.parts()
    fields = [part.field for part in parts]
    assert fields == [
        "detected_role",
        "detected_role_how",
        "variables",
        "status",
        "status",
        "innodb_status",
        "schema",
        "hardware",
    ]
    # the role the collector detected goes with the files (the service's audit runs as it)
    assert parts[0].data.decode() in ("primary", "replica", "standalone") and parts[1].data
    body = request.body.decode("utf-8", errors="replace")
    for secret in (collector_account.password, deadlock):
        assert secret not in body


def test_a_refused_upload_exits_1_with_the_problem_detail(runs: Runs) -> None:
    """The service's problem+json detail is printed, and the exit status is 1."""
    assert runs.refused.returncode == 1
    assert "upload refused (404): No server srv_gone in this organisation." in runs.refused.stderr


def test_without_process_the_innodb_status_is_left_out(runs: Runs, schema: str) -> None:
    """An account with SELECT only: a note (also in the manifest), no innodb_status.txt, and the rest
    still audits."""
    run, directory = runs.limited.run, runs.limited.directory
    assert run.returncode == 0, run.stderr
    assert "lacks the PROCESS privilege" in run.stderr
    names = {path.name for path in directory.iterdir()}
    assert names == (SNAPSHOT_FILES - {"innodb_status.txt"}) | {"manifest.json"}
    notes = json.loads((directory / "manifest.json").read_text())["notes"]
    assert any("lacks the PROCESS privilege" in note for note in notes)
    # without SLAVE MONITOR the role comes from the status counters, and the note says what to grant
    assert any("grant SLAVE MONITOR" in note for note in notes)
    result = _audit(run.stdout.strip().splitlines()[-1])
    assert any(f"{schema}.orders_without_key" in f["rationale"] for f in result["findings"])
