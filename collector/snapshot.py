"""Taking the snapshot: variables, two status samples `interval` seconds apart, InnoDB status, the
schema facts and (MySQL 8.0+) the persisted values, each as the text `innotune audit` reads, with secrets
already stripped."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from functools import cache
from importlib import resources
from typing import Any

from collector.errors import CollectError
from collector.redact import redact_variables, strip_innodb_status
from collector.role import RoleFinding, detect_role
from collector.serverprocess import ServerIdentity
from collector.tsv import to_tsv

NAME_VALUE_HEADER = ("Variable_name", "Value")
#: Rates over a shorter window mean little (one flush, one burst); the evidence grades rates by window.
MIN_INTERVAL_SECONDS = 10
#: ER_SPECIFIC_ACCESS_DENIED_ERROR (needs PROCESS), ER_TABLEACCESS_DENIED_ERROR, ER_DBACCESS_DENIED_ERROR.
_ACCESS_DENIED = {1227, 1142, 1044}


@dataclass(frozen=True)
class Snapshot:
    """What was read from the server, as texts; None for what could not be read (see `notes`)."""

    variables: str
    status: tuple[str, str]
    innodb_status: str | None
    schema: str | None
    server_version: str
    server_hostname: str | None
    datadir: str | None
    #: When the first status sample was taken, UTC, ISO 8601.
    collected_at: str
    #: The interval asked for, and the one measured between the starts of the two status samples.
    interval_seconds: int
    #: Lines removed from the InnoDB status (statements, record dumps).
    innodb_lines_removed: int
    #: Variables whose values were replaced by ********.
    redacted_variables: tuple[str, ...]
    #: What the user should know: a privilege missing, a section not collected.
    notes: tuple[str, ...] = ()
    #: Seconds measured between the starts of the two SHOW GLOBAL STATUS statements.
    measured_interval_seconds: float | None = None
    #: The server's Uptime (seconds) in the second status sample.
    uptime_seconds: int | None = None
    #: The server's place in replication, and how that was decided.
    role: RoleFinding | None = None
    #: port, socket, datadir and pid_file: what finds the server's process on this machine.
    identity: ServerIdentity = field(default_factory=ServerIdentity)
    #: MySQL 8.0+: performance_schema.persisted_variables (mysqld-auto.cnf) as `mysql -B` TSV with its
    #: header (the header alone: nothing persisted); None elsewhere or when it could not be read.
    persisted: str | None = None


@cache
def schema_query() -> str:
    """The schema-facts query of docs/schema-facts.md, without its final semicolon."""
    text = resources.files("collector").joinpath("schema_query.sql").read_text(encoding="utf-8")
    return text.strip().rstrip(";")


def _error_code(exc: Exception) -> int | None:
    code = exc.args[0] if exc.args else None
    return code if isinstance(code, int) else None


def _rows(connection: Any, statement: str) -> tuple[list[str], list[tuple[Any, ...]]]:
    """(column names, rows) of one statement."""
    with connection.cursor() as cursor:
        cursor.execute(statement)
        header = [column[0] for column in cursor.description or ()]
        return header, list(cursor.fetchall())


def _name_values(connection: Any, statement: str) -> list[tuple[str, str]]:
    import pymysql

    try:
        _, rows = _rows(connection, statement)
    except pymysql.err.MySQLError as exc:
        raise CollectError(f"{statement} failed: {exc.args[-1]}") from None
    return [(str(name), "" if value is None else str(value)) for name, value, *_ in rows]


def _innodb_status(connection: Any, notes: list[str]) -> tuple[str | None, int]:
    """The stripped SHOW ENGINE INNODB STATUS text and the number of lines removed."""
    import pymysql

    try:
        _, rows = _rows(connection, "SHOW ENGINE INNODB STATUS")
    except pymysql.err.MySQLError as exc:
        if _error_code(exc) not in _ACCESS_DENIED:
            raise CollectError(f"SHOW ENGINE INNODB STATUS failed: {exc.args[-1]}") from None
        notes.append("InnoDB status not collected: the user lacks the PROCESS privilege")
        return None, 0
    if not rows or rows[0][2] is None:
        notes.append("InnoDB status not collected: the server printed none (InnoDB disabled?)")
        return None, 0
    raw = rows[0][2]
    text = raw.decode("utf-8", errors="replace") if isinstance(raw, bytes | bytearray) else str(raw)
    return strip_innodb_status(text)


def _schema_facts(connection: Any, variables: dict[str, str], notes: list[str]) -> str | None:
    """The schema-facts query's result as `mysql -B` TSV; None when the user may not run it."""
    import pymysql

    if "information_schema_stats_expiry" in variables:
        # MySQL 8.0+ caches table sizes for a day by default; a session setting needs no privilege.
        try:
            _rows(connection, "SET SESSION information_schema_stats_expiry = 0")
        except pymysql.err.MySQLError:
            notes.append("schema facts: table sizes may be up to information_schema_stats_expiry old")
    try:
        header, rows = _rows(connection, schema_query())
    except pymysql.err.MySQLError as exc:
        if _error_code(exc) not in _ACCESS_DENIED:
            raise CollectError(f"the schema-facts query failed: {exc.args[-1]}") from None
        notes.append(f"schema facts not collected: {exc.args[-1]}")
        return None
    if not rows:
        # No file rather than an empty one: the audit would take "no tables" for a tiny dataset.
        notes.append(
            "schema facts not collected: no table is visible to this user (grant SELECT on the schemas)"
        )
        return None
    return to_tsv(header, rows)


PERSISTED_QUERY = (
    "SELECT VARIABLE_NAME, VARIABLE_VALUE FROM performance_schema.persisted_variables ORDER BY VARIABLE_NAME"
)


def _has_persist(variables: dict[str, str]) -> bool:
    """MySQL (and Percona Server) 8.0+: SET PERSIST exists; MariaDB and MySQL 5.7 have no such table."""
    version = variables.get("version", "")
    if "mariadb" in version.lower() or "mariadb" in variables.get("version_comment", "").lower():
        return False
    major = version.split(".", 1)[0]
    return major.isdigit() and int(major) >= 8


def _persisted(connection: Any, variables: dict[str, str], notes: list[str]) -> str | None:
    """What mysqld-auto.cnf sets (MySQL 8.0+), as TSV with its header; None where there is no such thing."""
    import pymysql

    if not _has_persist(variables):
        return None
    # performance_schema = OFF does not matter: 8.0.46 answers this table (and variables_info) all the same
    try:
        header, rows = _rows(connection, PERSISTED_QUERY)
    except pymysql.err.MySQLError as exc:
        notes.append(f"persisted values not collected: {exc.args[-1]}")
        return None
    redacted = redact_variables([(str(name), "" if value is None else str(value)) for name, value in rows])
    return to_tsv(header, redacted)


def take_snapshot(
    connection: Any,
    interval_seconds: int,
    *,
    sleep: Callable[[float], None] = time.sleep,
    on_wait: Callable[[int], None] | None = None,
) -> Snapshot:
    """Read everything the audit uses. Status is sampled twice, the second sample starting
    `interval_seconds` after the first did; `on_wait` is told before the wait (for a progress line).

    Raises CollectError when the server refuses SHOW GLOBAL VARIABLES or STATUS; a missing PROCESS
    privilege or invisible schemas only leave those parts out (with a note).
    """
    notes: list[str] = []
    variable_rows = _name_values(connection, "SHOW GLOBAL VARIABLES")
    redacted = redact_variables(variable_rows)
    variables = {name.lower(): value for name, value in variable_rows}
    started = time.monotonic()
    collected_at = datetime.now(UTC).isoformat(timespec="seconds")
    first_status = _name_values(connection, "SHOW GLOBAL STATUS")
    if on_wait is not None:
        on_wait(interval_seconds)
    sleep(max(0.0, interval_seconds - (time.monotonic() - started)))
    second_started = time.monotonic()
    second_status = _name_values(connection, "SHOW GLOBAL STATUS")
    innodb_status, removed = _innodb_status(connection, notes)
    schema = _schema_facts(connection, variables, notes)
    persisted = _persisted(connection, variables, notes)
    status = {name.lower(): value for name, value in second_status}
    role = detect_role(connection, variables, status)
    notes += role.notes
    return Snapshot(
        variables=to_tsv(NAME_VALUE_HEADER, redacted),
        status=(to_tsv(NAME_VALUE_HEADER, first_status), to_tsv(NAME_VALUE_HEADER, second_status)),
        innodb_status=innodb_status,
        schema=schema,
        server_version=variables.get("version", "unknown"),
        server_hostname=variables.get("hostname"),
        datadir=variables.get("datadir"),
        collected_at=collected_at,
        interval_seconds=interval_seconds,
        innodb_lines_removed=removed,
        redacted_variables=tuple(
            name for (name, value), (_, shown) in zip(variable_rows, redacted, strict=True) if value != shown
        ),
        notes=tuple(notes),
        measured_interval_seconds=round(second_started - started, 3),
        uptime_seconds=int(status["uptime"]) if status.get("uptime", "").isdigit() else None,
        role=role,
        identity=ServerIdentity.from_variables(variables),
        persisted=persisted,
    )
