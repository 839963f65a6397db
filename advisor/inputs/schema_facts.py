"""The types schema facts are read into (`advisor.inputs.schema` parses them; the readers fill them)."""

from __future__ import annotations

from functools import cached_property
from typing import Literal

from msgspec import Struct

from advisor.errors import InputWarning

#: Where the tables came from: JSON, the documented query, a raw information_schema.TABLES dump,
#: a list of tables without a key, or an empty text.
SchemaLayout = Literal["json", "query", "tables", "without_key", "empty"]


class TableFacts(Struct, frozen=True):
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


class SchemaFacts(Struct, frozen=True, dict=True):  # dict: room for the cached sum below
    file: str
    tables: tuple[TableFacts, ...]
    #: Which input layout the tables came from.
    layout: SchemaLayout = "json"
    warnings: tuple[InputWarning, ...] = ()

    @cached_property
    def innodb_data_and_index_bytes(self) -> int:
        """Bytes of data and indexes in InnoDB tables: what a buffer pool would hold to cache it all.
        Several sizing rules ask; the tables never change, so it is summed once."""
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
