"""Query results written as `mysql -B` prints them, read back by the audit's own parsers."""

from __future__ import annotations

from advisor.inputs.schema import parse_schema
from advisor.inputs.statusvars import parse_variables
from collector.tsv import batch_cell, to_tsv


def test_cells_are_escaped_like_the_client_does() -> None:
    """NULL, tab, newline, NUL and backslash come out as the batch client prints them."""
    assert batch_cell(None) == "NULL"
    assert batch_cell("a\tb\nc\\d\0") == "a\\tb\\nc\\\\d\\0"
    assert batch_cell(b"bytes") == "bytes"
    assert batch_cell(16384) == "16384"


def test_variables_written_as_tsv_parse_back() -> None:
    """A header and name/value lines: parse_variables reads every value back as printed."""
    text = to_tsv(("Variable_name", "Value"), [("innodb_buffer_pool_size", 134217728), ("init_connect", "")])
    dump = parse_variables(text, "variables.tsv")
    assert dump.get("innodb_buffer_pool_size") == "134217728"
    assert dump.get("init_connect") == ""


def test_an_empty_result_keeps_its_header() -> None:
    """Schema facts with no row still parse as the query's layout, with no table."""
    header = ["TABLE_SCHEMA", "TABLE_NAME", "ENGINE", "TABLE_ROWS", "DATA_LENGTH", "INDEX_LENGTH"]
    header += ["has_primary_key", "has_unique_not_null", "primary_key_type"]
    facts = parse_schema(to_tsv(header, []), "schema.tsv")
    assert facts.layout == "query" and facts.tables == ()
