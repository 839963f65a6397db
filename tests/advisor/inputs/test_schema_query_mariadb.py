"""The query in docs/schema-facts.md, run on the real MariaDB: its output parses to the right key facts.

A scratch schema holds one table per case (primary key, no key, NOT NULL unique, nullable unique, ...);
the query's rows for it must say which ones InnoDB has to cluster on a hidden row id. The query text is
read from the document, so the document and the test cannot drift apart. The schema is dropped after.

Skipped when MariaDB is not reachable on 127.0.0.1:3306, except in CI (CI=true), where that fails.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from advisor.inputs.schema import SchemaFacts, TableFacts, parse_schema
from tests.fixtures.real_services import missing

pytestmark = pytest.mark.mariadb

HOST = os.environ.get("INNOTUNE_TEST_MARIADB_HOST", "127.0.0.1")
PORT = int(os.environ.get("INNOTUNE_TEST_MARIADB_PORT", "3306"))
USER = "root"
DOC = Path(__file__).resolve().parents[3] / "docs" / "schema-facts.md"
SQL_BLOCK = re.compile(r"^```sql\n(.*?)^```", re.DOTALL | re.MULTILINE)

SCRATCH_TABLES = [
    "CREATE TABLE with_pk (id INT PRIMARY KEY, note VARCHAR(10)) ENGINE=InnoDB",
    "CREATE TABLE no_key (a INT, b INT) ENGINE=InnoDB",
    "CREATE TABLE unique_not_null (a INT NOT NULL, b INT, UNIQUE KEY (a)) ENGINE=InnoDB",
    "CREATE TABLE unique_nullable (a INT NULL, UNIQUE KEY (a)) ENGINE=InnoDB",
    "CREATE TABLE unique_partly_nullable (a INT NOT NULL, b INT NULL, UNIQUE KEY (a, b)) ENGINE=InnoDB",
    "CREATE TABLE unique_on_virtual (a INT NOT NULL, v INT AS (a + 1) VIRTUAL, UNIQUE KEY (v)) ENGINE=InnoDB",
    "CREATE TABLE composite_pk (a INT, b BINARY(16), PRIMARY KEY (a, b)) ENGINE=InnoDB",
    "CREATE TABLE uuid_pk (id CHAR(36) PRIMARY KEY) ENGINE=InnoDB",
    "CREATE TABLE myisam_no_key (a INT) ENGINE=MyISAM",
    "CREATE VIEW a_view AS SELECT id FROM with_pk",
    "CREATE SEQUENCE a_sequence",
    "INSERT INTO with_pk VALUES (1, 'a'), (2, 'b'), (3, 'c')",
    "ANALYZE TABLE with_pk",
]
# table → (has_primary_key, has_unique_not_null, primary_key_type, engine)
EXPECTED: dict[str, tuple[bool, bool, str | None, str]] = {
    "with_pk": (True, False, "int(11)", "InnoDB"),
    "no_key": (False, False, None, "InnoDB"),
    "unique_not_null": (False, True, None, "InnoDB"),
    "unique_nullable": (False, False, None, "InnoDB"),
    "unique_partly_nullable": (False, False, None, "InnoDB"),
    "unique_on_virtual": (False, False, None, "InnoDB"),
    "composite_pk": (True, False, None, "InnoDB"),
    "uuid_pk": (True, False, "char(36)", "InnoDB"),
    "myisam_no_key": (False, False, None, "MyISAM"),
}


def documented_query() -> str:
    """The one ```sql block of docs/schema-facts.md."""
    blocks = SQL_BLOCK.findall(DOC.read_text())
    assert len(blocks) == 1, f"{DOC} must hold exactly one ```sql block, found {len(blocks)}"
    return str(blocks[0]).strip()


@pytest.fixture(scope="module")
def connection() -> Iterator[Any]:
    import pymysql

    try:
        conn = pymysql.connect(
            host=HOST, port=PORT, user=USER, password="", autocommit=True, connect_timeout=5
        )
    except pymysql.err.OperationalError as exc:
        missing(f"MariaDB is not reachable on {HOST}:{PORT} as {USER}: {exc}")
    yield conn
    conn.close()


@pytest.fixture(scope="module")
def scratch_schema(connection: Any) -> Iterator[str]:
    name = f"innotune_scratch_{uuid.uuid4().hex[:12]}"
    with connection.cursor() as cursor:
        cursor.execute(f"CREATE DATABASE `{name}`")
        try:
            cursor.execute(f"USE `{name}`")
            for statement in SCRATCH_TABLES:
                cursor.execute(statement)
                cursor.fetchall()
            yield name
        finally:
            cursor.execute(f"DROP DATABASE `{name}`")


def _as_batch_tsv(cursor: Any) -> str:
    """Write a result the way `mysql -B` does: header, tabs, NULL, backslash escapes."""

    def cell(value: object) -> str:
        if value is None:
            return "NULL"
        text = value.decode() if isinstance(value, bytes) else str(value)
        return text.replace("\\", "\\\\").replace("\t", "\\t").replace("\n", "\\n")

    lines = ["\t".join(column[0] for column in cursor.description)]
    lines += ["\t".join(cell(value) for value in row) for row in cursor.fetchall()]
    return "\n".join(lines) + "\n"


def _scratch_tables(facts: SchemaFacts, schema: str) -> dict[str, TableFacts]:
    return {table.table: table for table in facts.tables if table.schema == schema}


def _check(facts: SchemaFacts, schema: str) -> None:
    assert facts.layout == "query"
    tables = _scratch_tables(facts, schema)
    assert set(tables) == set(EXPECTED), "views and sequences must not be listed"
    got = {
        name: (t.has_primary_key, t.has_unique_not_null, t.primary_key_type, t.engine)
        for name, t in tables.items()
    }
    assert got == EXPECTED
    assert tables["with_pk"].rows == 3
    assert all(t.data_length is not None and t.data_length > 0 for t in tables.values() if t.is_innodb)
    keyless = {t.table for t in facts.tables_without_key() if t.schema == schema}
    assert keyless == {"no_key", "unique_nullable", "unique_partly_nullable", "unique_on_virtual"}


def test_documented_query_reports_keys_right_through_pymysql(connection: Any, scratch_schema: str) -> None:
    """The query's rows for the scratch schema parse to the expected key flags and PK types."""
    with connection.cursor() as cursor:
        cursor.execute(documented_query().rstrip(";"))
        text = _as_batch_tsv(cursor)
    _check(parse_schema(text, "schema.tsv"), scratch_schema)


def test_documented_query_output_of_the_real_client_parses(connection: Any, scratch_schema: str) -> None:
    """`mariadb -B < query` (the documented way to run it) gives a TSV parse_schema reads alike."""
    client = shutil.which("mariadb") or shutil.which("mysql")
    if client is None:
        missing("neither the mariadb nor the mysql client is installed")
    assert client is not None
    run = subprocess.run(
        [client, f"-u{USER}", f"-h{HOST}", f"-P{PORT}", "-B"],
        input=documented_query(),
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert run.returncode == 0, run.stderr
    header = run.stdout.split("\n", 1)[0].split("\t")
    assert header[:6] == ["TABLE_SCHEMA", "TABLE_NAME", "ENGINE", "TABLE_ROWS", "DATA_LENGTH", "INDEX_LENGTH"]
    _check(parse_schema(run.stdout, "schema.tsv"), scratch_schema)
