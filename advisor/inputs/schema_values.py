"""Column names and value checks shared by the schema-facts readers (TSV and JSON)."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence

from advisor.errors import InputError, InputWarning
from advisor.inputs.schema_facts import SchemaFacts, SchemaLayout, TableFacts
from advisor.units import parse_bool

SYSTEM_SCHEMAS = frozenset({"mysql", "information_schema", "performance_schema", "sys"})
#: TABLE_TYPE values that hold rows on disk. VIEW, SYSTEM VIEW, SEQUENCE (MariaDB) and TEMPORARY
#: (MariaDB 11.2+, the session's own temporary tables) are skipped.
STORED_TABLE_TYPES = frozenset({"BASE TABLE", "SYSTEM VERSIONED"})

#: Lower-case TSV header / JSON key → TableFacts field (plus `table_type`, used only to filter).
COLUMN_FIELDS: Mapping[str, str] = {
    "table_schema": "schema",
    "schema": "schema",
    "table_name": "table",
    "table": "table",
    "engine": "engine",
    "table_rows": "rows",
    "rows": "rows",
    "data_length": "data_length",
    "index_length": "index_length",
    "has_primary_key": "has_primary_key",
    "has_unique_not_null": "has_unique_not_null",
    "max_row_bytes": "max_row_bytes",
    "primary_key_type": "primary_key_type",
    "table_type": "table_type",
}
#: The other information_schema.TABLES columns: a JSON export of that table may carry them.
OTHER_TABLES_COLUMNS = frozenset(
    {
        "table_catalog", "version", "row_format", "avg_row_length", "max_data_length", "data_free",
        "auto_increment", "create_time", "update_time", "check_time", "table_collation", "checksum",
        "create_options", "table_comment", "max_index_length", "temporary",
    }
)  # fmt: skip
#: information_schema.TABLES column order, first 12 columns (the same in MySQL 5.0–9.x and MariaDB).
TABLES_COLUMN_ORDER: tuple[str | None, ...] = (
    None, "schema", "table", "table_type", "engine", None, None, "rows", None, "data_length", None, "index_length",
)  # fmt: skip

_MAX_DIGITS = 20  # an unsigned 64-bit number
_ESCAPE = re.compile(r"\\(.)")
# What `mysql -B` escapes in a value (everything else after a backslash is kept as it is).
_UNESCAPED = {"0": "\0", "t": "\t", "n": "\n", "\\": "\\"}


#: `mysql -B` prints SQL NULL as `NULL`; SELECT ... INTO OUTFILE and mysqldump --tab as `\\N`.
NULL_SPELLINGS = frozenset({"NULL", "\\N"})


def unescape(raw: str) -> str:
    """Undo `mysql -B` escaping of tab, newline, backslash and NUL."""
    if "\\" not in raw:
        return raw
    return _ESCAPE.sub(lambda match: _UNESCAPED.get(match.group(1), match.group(0)), raw)


def _whole_number(value: object, field: str) -> int | None:
    if value is None:
        return None
    if isinstance(value, str) and value.isascii() and value.isdigit() and len(value) <= _MAX_DIGITS:
        return int(value)
    if isinstance(value, float) and value.is_integer() and 0 <= value < 2.0**64:
        return int(value)
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < 2**64:
        return value
    raise ValueError(f"`{field}` must be a whole number ≥ 0, not {value!r}")


def _flag(value: object, field: str) -> bool | None:
    if value is None or isinstance(value, bool):
        return value
    if isinstance(value, int) and value in (0, 1):
        return value == 1
    if isinstance(value, str):
        flag = parse_bool(value)
        if flag is not None:
            return flag
    raise ValueError(f"`{field}` must be 1/0, true/false or yes/no, not {value!r}")


def _text(value: object, field: str) -> str | None:
    if value is None or isinstance(value, str):
        return value
    raise ValueError(f"`{field}` must be text, not {value!r}")


def _name(value: object, field: str) -> str:
    if isinstance(value, str) and value:
        return value
    raise ValueError(f"`{field}` must be a non-empty name, not {value!r}")


def build_table(values: Mapping[str, object], *, without_key: bool) -> TableFacts | None:
    """Check one table's values (ValueError names the bad one); None for a system schema or a view.

    `without_key` fills has_primary_key / has_unique_not_null with False when the input lacks them.
    """
    schema = _name(values.get("schema"), "schema")
    table = _name(values.get("table"), "table")
    table_type = _text(values.get("table_type"), "table_type")
    if schema.lower() in SYSTEM_SCHEMAS or (
        table_type is not None and table_type.upper() not in STORED_TABLE_TYPES
    ):
        return None
    has_primary_key = _flag(values.get("has_primary_key"), "has_primary_key")
    has_unique_not_null = _flag(values.get("has_unique_not_null"), "has_unique_not_null")
    if without_key:
        has_primary_key = False if has_primary_key is None else has_primary_key
        has_unique_not_null = False if has_unique_not_null is None else has_unique_not_null
    return TableFacts(
        schema=schema,
        table=table,
        engine=_text(values.get("engine"), "engine"),
        rows=_whole_number(values.get("rows"), "rows"),
        data_length=_whole_number(values.get("data_length"), "data_length"),
        index_length=_whole_number(values.get("index_length"), "index_length"),
        has_primary_key=has_primary_key,
        has_unique_not_null=has_unique_not_null,
        max_row_bytes=_whole_number(values.get("max_row_bytes"), "max_row_bytes"),
        primary_key_type=_text(values.get("primary_key_type"), "primary_key_type"),
    )


def collect_facts(
    file: str,
    layout: SchemaLayout,
    records: Sequence[Mapping[str, object]],
    line_of: Callable[[int], int | None],
    *,
    without_key: bool,
) -> SchemaFacts:
    """Check every record into TableFacts; `line_of(i)` is asked only to name the line of a problem."""
    tables: dict[tuple[str, str], TableFacts] = {}
    warnings: list[InputWarning] = []
    for index, values in enumerate(records):
        try:
            table = build_table(values, without_key=without_key)
        except ValueError as exc:
            raise InputError(str(exc), file=file, line=line_of(index)) from None
        if table is None:
            continue
        key = (table.schema, table.table)
        if key in tables:
            message = f"{table.schema}.{table.table} is listed twice; the last one counts"
            warnings.append(InputWarning(message, file, line_of(index)))
        tables[key] = table
    if without_key and layout == "tables":
        layout = "without_key"
    elif layout == "tables" and tables:
        message = (
            "information_schema.TABLES alone does not say which tables have a primary key; "
            "the query in docs/schema-facts.md does"
        )
        warnings.append(InputWarning(message, file))
    return SchemaFacts(file, tuple(tables.values()), layout, tuple(warnings))
