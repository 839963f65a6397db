"""The persisted values (MySQL 8.0+'s mysqld-auto.cnf) in `innotune collect`: MariaDB has no SET PERSIST and
no performance_schema.persisted_variables, so nothing is collected there and nothing fails; MySQL 8.0's
answer (captured from a real 8.0.46, tests/fixtures/persisted_mysql80) becomes persisted.tsv, which the
audit reads with --persisted."""

from __future__ import annotations

import socket
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from advisor.inputs.persisted import parse_persisted
from collector.files import PERSISTED_FILE, snapshot_files
from collector.output import audit_arguments
from collector.snapshot import PERSISTED_QUERY, take_snapshot
from tests.fixtures.private_mariadb import private_mariadb

CAPTURE = Path(__file__).parents[1] / "fixtures" / "persisted_mysql80"


def _shared_mariadb_answers() -> bool:
    try:
        with socket.create_connection(("127.0.0.1", 3306), timeout=1):
            return True
    except OSError:
        return False


@pytest.fixture
def mariadb_connection() -> Iterator[Any]:
    """The machine's MariaDB on 127.0.0.1:3306 (read-only queries only), else a private instance."""
    import pymysql

    if _shared_mariadb_answers():
        connection = pymysql.connect(host="127.0.0.1", port=3306, user="root", password="", connect_timeout=5)
        try:
            yield connection
        finally:
            connection.close()
        return
    with private_mariadb() as server:
        connection = server.connect()
        try:
            yield connection
        finally:
            connection.close()


@pytest.mark.mariadb
def test_mariadb_yields_no_persisted_file_and_no_error(mariadb_connection: Any) -> None:
    """A whole snapshot of the real MariaDB: no persisted values, no note about them, no persisted.tsv and
    no --persisted in the audit command (the table does not exist there: ERROR 1146)."""
    import pymysql

    snapshot = take_snapshot(mariadb_connection, 10, sleep=lambda _seconds: None)
    assert "mariadb" in snapshot.server_version.lower()
    assert snapshot.persisted is None
    assert not any("persisted" in note for note in snapshot.notes)
    files = snapshot_files(snapshot, None)
    assert PERSISTED_FILE not in {file.name for file in files}
    assert "--persisted" not in audit_arguments(Path("/tmp/out"), files)
    with pytest.raises(pymysql.err.ProgrammingError) as caught, mariadb_connection.cursor() as cursor:
        cursor.execute(PERSISTED_QUERY)  # what a collector asking anyway would meet
    assert caught.value.args[0] == 1146


class _Cursor:
    """A cursor answering SHOW/SELECT with the rows of a captured 8.0.46."""

    def __init__(self, answers: dict[str, tuple[list[str], list[tuple[Any, ...]]]]) -> None:
        self._answers = answers
        self.description: list[tuple[str]] | None = None
        self._rows: list[tuple[Any, ...]] = []

    def __enter__(self) -> _Cursor:
        return self

    def __exit__(self, *exc: object) -> None:
        return None

    def execute(self, statement: str) -> None:
        header, rows = next(
            (answer for key, answer in self._answers.items() if statement.startswith(key)), (["x"], [])
        )
        self.description = [(name,) for name in header]
        self._rows = rows

    def fetchall(self) -> list[tuple[Any, ...]]:
        return self._rows


class _Connection:
    def __init__(self, answers: dict[str, tuple[list[str], list[tuple[Any, ...]]]]) -> None:
        self._answers = answers

    def cursor(self) -> _Cursor:
        return _Cursor(self._answers)


def _captured(text: str) -> tuple[list[str], list[tuple[Any, ...]]]:
    lines = text.splitlines()
    return lines[0].split("\t"), [tuple(line.split("\t", 1)) for line in lines[1:]]


def test_mysql80_persisted_values_become_persisted_tsv() -> None:
    """Given 8.0.46's own answers (SHOW GLOBAL VARIABLES and the persisted_variables query, captured), the
    snapshot holds persisted.tsv as `mysql -B` writes it, the audit command passes it with --persisted,
    and the parser reads the five persisted values back."""
    variables = _captured((CAPTURE / "variables.tsv").read_text())
    persisted = _captured((CAPTURE / "persisted.tsv").read_text())
    connection = _Connection(
        {
            "SHOW GLOBAL VARIABLES": variables,
            "SHOW GLOBAL STATUS": (["Variable_name", "Value"], [("Uptime", "100")]),
            PERSISTED_QUERY: persisted,
        }
    )
    snapshot = take_snapshot(connection, 10, sleep=lambda _seconds: None)
    assert snapshot.persisted == (CAPTURE / "persisted.tsv").read_text()
    files = snapshot_files(snapshot, None)
    arguments = audit_arguments(Path("/out"), files)
    assert arguments[arguments.index("--persisted") + 1] == f"/out/{PERSISTED_FILE}"
    values = parse_persisted(snapshot.persisted or "", PERSISTED_FILE).values
    assert values["max_connections"] == "300" and len(values) == 5
