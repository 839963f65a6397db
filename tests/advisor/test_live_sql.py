"""Live-apply SQL works in the order printed: bound pairs (io_capacity ≤ io_capacity_max) carry their
prerequisite SET, checked offline and on the real MariaDB at 127.0.0.1:3306 (every global restored)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

import pymysql
import pytest

from advisor.audit import AuditInputs, run_audit
from advisor.catalog import get_catalog
from advisor.findings import Finding
from advisor.live_sql import BOUNDS
from advisor.sql import apply_sql
from advisor.version import parse_version
from tests.fixtures.real_services import IN_CI

HOST = os.environ.get("INNOTUNE_TEST_MARIADB_HOST", "127.0.0.1")
PORT = int(os.environ.get("INNOTUNE_TEST_MARIADB_PORT", "3306"))
BOUND_NAMES = {name for bound in BOUNDS for name in (bound.low, bound.high)}


def _by_variable(inputs: AuditInputs) -> dict[str, Finding]:
    return {f.variable: f for f in run_audit(inputs).findings if f.variable and f.change == "set"}


def test_raising_io_capacity_sets_the_maximum_first() -> None:
    """NVMe on MySQL 8.0 defaults: innodb_io_capacity 10000 over a 2000 maximum; its SQL raises the max first,
    and sets the capacity with SET GLOBAL (persisted, a restart would apply it before its maximum and clamp it)."""
    found = _by_variable(
        AuditInputs(mycnf={"my.cnf": "[mysqld]\n"}, server_version="8.0.36", storage="nvme", memory="64G")
    )
    assert found["innodb_io_capacity"].apply_sql == (
        "SET PERSIST innodb_io_capacity_max = 20000; SET GLOBAL innodb_io_capacity = 10000;"
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


def test_drift_sql_offers_the_value_the_server_stores() -> None:
    """A size off the block is rounded down (the server refuses 1000000 for max_allowed_packet under
    STRICT_ALL_TABLES: ERROR 1231), a double goes unquoted (ERROR 1232 for '0.5'), MySQL 8.0 persists."""
    catalog = get_catalog()
    mariadb, mysql = parse_version("10.11.19-MariaDB"), parse_version("8.0.36")
    assert (
        apply_sql(catalog, mariadb, "max_allowed_packet", "1000000")
        == "SET GLOBAL max_allowed_packet = 999424;"
    )
    assert (
        apply_sql(catalog, mariadb, "join_buffer_size", "300000") == "SET GLOBAL join_buffer_size = 299904;"
    )
    assert (
        apply_sql(catalog, mariadb, "max_allowed_packet", "64M")
        == "SET GLOBAL max_allowed_packet = 67108864;"
    )
    assert apply_sql(catalog, mariadb, "long_query_time", "0.5") == "SET GLOBAL long_query_time = 0.5;"
    assert (
        apply_sql(catalog, mysql, "max_allowed_packet", "1000000")
        == "SET PERSIST max_allowed_packet = 999424;"
    )


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


DRIFT_NAMES = ("max_allowed_packet", "join_buffer_size", "long_query_time", "sort_buffer_size")


@pytest.mark.mariadb
def test_drift_sql_runs_under_strict_all_tables_and_clears_the_drift() -> None:
    """A file whose sizes are off their block, against the live server: each drift entry's SQL runs under
    STRICT_ALL_TABLES without an error or a warning, and a re-audit of the server finds no drift left."""
    connection = _connect()
    saved = _query(connection, "SELECT " + ", ".join(f"@@GLOBAL.{name}" for name in DRIFT_NAMES))[0]
    cnf = "[mysqld]\nmax_allowed_packet = 1000000\njoin_buffer_size = 300000\nlong_query_time = 0.5\nsort_buffer_size = 3000000\n"

    def drift() -> list[Any]:
        dump = "\n".join(f"{name}\t{value}" for name, value in _query(connection, "SHOW GLOBAL VARIABLES"))
        return list(run_audit(AuditInputs(mycnf={"my.cnf": cnf}, variables=dump + "\n")).drift)

    try:
        _query(connection, "SET SESSION sql_mode = 'STRICT_ALL_TABLES'")
        for name, value in zip(DRIFT_NAMES, ("4194304", "262144", "10", "2097152"), strict=True):
            _query(connection, f"SET GLOBAL {name} = {value}")
        entries = drift()
        assert {entry.setting.name for entry in entries} == set(DRIFT_NAMES)
        for entry in entries:
            assert entry.apply_sql is not None, entry.setting.name
            _query(connection, entry.apply_sql)
            assert _query(connection, "SHOW WARNINGS") == [], entry.apply_sql
        assert drift() == []
    finally:
        for name, value in zip(DRIFT_NAMES, saved, strict=True):
            _query(connection, f"SET GLOBAL {name} = {value}")
        connection.close()


def test_drift_sql_is_not_withheld_by_a_finding_that_changes_nothing() -> None:
    """Review 7 (real MySQL 8.0.46): the file's 256M pool against a live 128M, beside buffer_pool.undersized
    held by memory (it recommends nothing): the drift said "restart required" with no SQL, though
    `SET PERSIST innodb_buffer_pool_size = 268435456` applied live and read back. A finding that comments
    the line out or sets another value still withholds it."""
    import json

    from advisor.audit import AuditInputs, run_audit

    live = json.dumps(  # 5000 connections, most of them idle, leave the pool no room in 2 GiB
        {"version": "8.0.46", "innodb_buffer_pool_size": "134217728", "max_connections": "5000",
         "innodb_buffer_pool_chunk_size": "134217728", "innodb_buffer_pool_instances": "1"}
    )  # fmt: skip
    inputs = AuditInputs(
        mycnf={"/etc/mysql/my.cnf": "[mysqld]\ninnodb_buffer_pool_size = 256M\n"},
        variables=live,
        profile="ci",
        memory="64G",
        memory_limit="2G",
        storage="ssd",
    )
    result = run_audit(inputs).to_dict()
    held = [f for f in result["findings"] if f["variable"] == "innodb_buffer_pool_size"]
    assert held and all(f["recommended"] is None for f in held)
    (pool,) = [d for d in result["drift"] if d["name"] == "innodb_buffer_pool_size"]
    assert pool["apply_sql"] == "SET PERSIST innodb_buffer_pool_size = 268435456;"
    assert pool["restart_required"] is False
