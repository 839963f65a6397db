"""Live-apply SQL works in the order printed: bound pairs (io_capacity ≤ io_capacity_max) carry their
prerequisite SET, checked offline and on the real MariaDB at 127.0.0.1:3306 (every global restored)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

import pymysql
import pytest

from advisor.audit import AuditInputs, run_audit
from advisor.findings import Finding
from advisor.live_sql import BOUNDS
from tests.fixtures.real_services import IN_CI

HOST = os.environ.get("INNOTUNE_TEST_MARIADB_HOST", "127.0.0.1")
PORT = int(os.environ.get("INNOTUNE_TEST_MARIADB_PORT", "3306"))
BOUND_NAMES = {name for bound in BOUNDS for name in (bound.low, bound.high)}


def _by_variable(inputs: AuditInputs) -> dict[str, Finding]:
    return {f.variable: f for f in run_audit(inputs).findings if f.variable and f.change == "set"}


def test_raising_io_capacity_sets_the_maximum_first() -> None:
    """NVMe on MySQL 8.0 defaults: innodb_io_capacity 10000 over a 2000 maximum; its SQL raises the max first."""
    found = _by_variable(
        AuditInputs(mycnf={"my.cnf": "[mysqld]\n"}, server_version="8.0.36", storage="nvme", memory="64G")
    )
    assert found["innodb_io_capacity"].apply_sql == (
        "SET PERSIST innodb_io_capacity_max = 20000; SET PERSIST innodb_io_capacity = 10000;"
    )
    assert found["innodb_io_capacity_max"].apply_sql == "SET PERSIST innodb_io_capacity_max = 20000;"


def test_lowering_both_sets_the_capacity_first() -> None:
    """A hard disk with io_capacity 4000 / max 8000: lowering to 200 / 2000 lowers the capacity first."""
    found = _by_variable(
        AuditInputs(
            mycnf={"my.cnf": "[mysqld]\ninnodb_io_capacity = 4000\ninnodb_io_capacity_max = 8000\n"},
            server_version="8.0.36",
            storage="hdd",
        )
    )
    assert found["innodb_io_capacity"].apply_sql == "SET PERSIST innodb_io_capacity = 200;"
    assert found["innodb_io_capacity_max"].apply_sql == (
        "SET PERSIST innodb_io_capacity = 200; SET PERSIST innodb_io_capacity_max = 2000;"
    )


def test_printed_order_runs_io_capacity_before_its_maximum() -> None:
    """The findings print flushing.io_capacity before flushing.io_capacity_max: the prefix is needed."""
    result = run_audit(AuditInputs(server_version="10.11.6-MariaDB", storage="nvme", memory="32G"))
    rules = [f.rule for f in result.findings if f.variable in BOUND_NAMES]
    assert rules.index("flushing.io_capacity") < rules.index("flushing.io_capacity_max")


# --- the real server -------------------------------------------------------------------------------


def _connect() -> Any:
    try:
        return pymysql.connect(
            host=HOST, port=PORT, user="root", password="", connect_timeout=5, autocommit=True
        )
    except pymysql.err.OperationalError as exc:
        if IN_CI:
            pytest.fail(f"MariaDB is not reachable on {HOST}:{PORT}: {exc}", pytrace=False)
        pytest.skip(f"MariaDB is not reachable on {HOST}:{PORT}: {exc}")


def _query(connection: Any, sql: str) -> list[tuple[Any, ...]]:
    with connection.cursor() as cursor:
        cursor.execute(sql)
        return list(cursor.fetchall())


@pytest.fixture
def mariadb() -> Iterator[Any]:
    """A connection; every bound variable's global value is put back afterwards."""
    connection = _connect()
    names = sorted(BOUND_NAMES)
    saved = _query(connection, "SELECT " + ", ".join(f"@@GLOBAL.{name}" for name in names))[0]
    try:
        yield connection
    finally:
        # Two passes: a bound may drag its partner along in the first; the second settles every value.
        for _ in range(2):
            for name, value in zip(names, saved, strict=True):
                _query(connection, f"SET GLOBAL {name} = {value}")
        assert _query(connection, "SELECT " + ", ".join(f"@@GLOBAL.{n}" for n in names))[0] == saved
        connection.close()


def _statements(sql: str) -> list[str]:
    return [part.strip() + ";" for part in sql.split(";") if part.strip()]


@pytest.mark.mariadb
def test_the_printed_live_sql_holds_on_mariadb(mariadb: Any) -> None:
    """Audit the live server's own SHOW GLOBAL VARIABLES as NVMe; run each bound finding's apply_sql
    in the printed order: no statement draws a warning, and every value reads back as recommended."""
    _query(mariadb, "SET GLOBAL innodb_io_capacity = 200")
    _query(mariadb, "SET GLOBAL innodb_io_capacity_max = 2000")
    dump = "\n".join(f"{name}\t{value}" for name, value in _query(mariadb, "SHOW GLOBAL VARIABLES"))
    result = run_audit(AuditInputs(variables=dump + "\n", storage="nvme", memory="32G", cpus=8))
    applied = [f for f in result.findings if f.variable in BOUND_NAMES and f.apply_sql]
    assert {f.variable for f in applied} >= {"innodb_io_capacity", "innodb_io_capacity_max"}
    for finding in applied:
        for statement in _statements(finding.apply_sql or ""):
            _query(mariadb, statement)
            assert _query(mariadb, "SHOW WARNINGS") == [], f"{statement} drew a warning"
    for finding in applied:
        value = _query(mariadb, f"SELECT @@GLOBAL.{finding.variable}")[0][0]
        assert float(value) == float(finding.recommended or "nan"), finding.variable


@pytest.mark.mariadb
def test_without_the_prefix_mariadb_warns(mariadb: Any) -> None:
    """The naive order — innodb_io_capacity 10000 while the maximum is 2000 — draws warning 1210."""
    _query(mariadb, "SET GLOBAL innodb_io_capacity = 200")
    _query(mariadb, "SET GLOBAL innodb_io_capacity_max = 2000")
    _query(mariadb, "SET GLOBAL innodb_io_capacity = 10000")
    warnings = _query(mariadb, "SHOW WARNINGS")
    assert warnings and warnings[0][1] == 1210, warnings
