"""Schema facts: the tables information_schema describes, as JSON or the TSV of the documented query.

CONTRACT (fixed; add fields, rename nothing). Errors: `advisor.errors.InputError` only.

Layouts `parse_schema` reads (docs/schema-facts.md has the query and the JSON shape):

* JSON — a list of table objects, or `{"tables": [...]}` (see `advisor.inputs.schema_json`);
* `mysql -B` output of the documented query: a header, then one row per table with
  has_primary_key / has_unique_not_null / primary_key_type;
* a raw `SELECT * FROM information_schema.TABLES` dump, with or without its header (keys unknown);
* a list of tables known to lack a key (`tables_without_pk_or_unique.tsv`): same columns, and every
  table gets has_primary_key False and has_unique_not_null False.

System schemas (mysql, information_schema, performance_schema, sys), views and sequences are skipped
in every layout: the advisors reason about the user's stored tables. `NULL` and `\\N` read as None.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from advisor.errors import InputWarning

#: Where the tables came from: JSON, the documented query, a raw information_schema.TABLES dump,
#: a list of tables without a key, or an empty text.
SchemaLayout = Literal["json", "query", "tables", "without_key", "empty"]

_WITHOUT_KEY_NAME = re.compile(r"without_(?:pk|key)", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class TableFacts:
    schema: str
    table: str
    engine: str | None
    rows: int | None
    data_length: int | None
    index_length: int | None
    #: None when the input does not say (a raw information_schema.TABLES dump).
    has_primary_key: bool | None = None
    has_unique_not_null: bool | None = None
    #: Longest row / largest BLOB-TEXT value in bytes, when known (redo-log BLOB rule).
    max_row_bytes: int | None = None
    #: Data type of a single-column primary key (`char(36)`, `binary(16)`, `bigint`), when known.
    primary_key_type: str | None = None

    @property
    def is_innodb(self) -> bool:
        """Whether the engine is InnoDB (information_schema spells it `InnoDB`; JSON may not)."""
        return self.engine is not None and self.engine.lower() == "innodb"

    @property
    def total_bytes(self) -> int:
        """Data plus index bytes, unknown parts counted as zero."""
        return (self.data_length or 0) + (self.index_length or 0)


@dataclass(frozen=True)
class SchemaFacts:
    file: str
    tables: tuple[TableFacts, ...]
    #: Which input layout the tables came from.
    layout: SchemaLayout = "json"
    warnings: tuple[InputWarning, ...] = ()

    @property
    def innodb_data_and_index_bytes(self) -> int:
        """Bytes of data and indexes in InnoDB tables: what a buffer pool would hold to cache it all."""
        return sum(table.total_bytes for table in self.tables if table.is_innodb)

    def tables_without_key(self) -> tuple[TableFacts, ...]:
        """InnoDB tables with neither a primary key nor a non-null unique key, largest first."""
        keyless = [
            table
            for table in self.tables
            if table.is_innodb and table.has_primary_key is False and table.has_unique_not_null is not True
        ]
        keyless.sort(
            key=lambda t: (-(t.rows if t.rows is not None else -1), -t.total_bytes, t.schema, t.table)
        )
        return tuple(keyless)


def parse_schema(text: str, file: str, *, without_key: bool | None = None) -> SchemaFacts:
    """Read schema facts as JSON or `mysql -B` TSV; the layout is detected from the text.

    `without_key` says the input lists tables lacking a primary and a non-null unique key (their
    missing key columns then read as False); None infers it from a file name containing
    `without_pk` or `without_key`, as in `tables_without_pk_or_unique.tsv`.
    """
    if without_key is None:
        without_key = _WITHOUT_KEY_NAME.search(file.rsplit("/", 1)[-1]) is not None
    body = text.removeprefix("\ufeff")  # editors on Windows write a BOM
    start = body.lstrip()[:1]
    if not start:
        # `mysql -B` prints nothing at all, not even the header, for a query with no rows.
        return SchemaFacts(file, (), "without_key" if without_key else "empty")
    # The readers import TableFacts from here, hence the imports inside; json loads only for JSON.
    if start in ("[", "{"):
        from advisor.inputs.schema_json import parse_schema_json

        return parse_schema_json(body, file, without_key=without_key)
    from advisor.inputs.schema_tsv import parse_schema_tsv

    return parse_schema_tsv(body, file, without_key=without_key)
