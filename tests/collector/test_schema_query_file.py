"""The collector runs the schema-facts query of docs/schema-facts.md: the packaged .sql file is that block."""

from __future__ import annotations

from pathlib import Path

from collector.snapshot import schema_query
from tests.advisor.inputs.test_schema_query_mariadb import documented_query

SQL_FILE = Path(__file__).resolve().parents[2] / "collector" / "schema_query.sql"


def test_the_packaged_query_is_the_documented_one() -> None:
    """collector/schema_query.sql holds exactly the ```sql block of docs/schema-facts.md."""
    assert SQL_FILE.read_text().strip() == documented_query()


def test_the_collector_runs_the_packaged_query_without_its_semicolon() -> None:
    """schema_query() is the file's statement, ready for a driver that refuses a trailing `;`."""
    assert schema_query() == documented_query().rstrip(";")
    assert "information_schema.STATISTICS pk" in schema_query()
