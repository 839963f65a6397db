"""Schema facts as JSON: `[{"schema": ..., "table": ..., ...}, ...]` or `{"tables": [...]}`."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping

from advisor.errors import InputError
from advisor.inputs.schema_facts import SchemaFacts
from advisor.inputs.schema_values import COLUMN_FIELDS, OTHER_TABLES_COLUMNS, collect_facts

_TABLES_KEY = re.compile(r'"tables"\s*:\s*\[')
_EXAMPLE = '[{"schema": "shop", "table": "orders", "engine": "InnoDB", "rows": 1200, ...}]'


def parse_schema_json(text: str, file: str, *, without_key: bool) -> SchemaFacts:
    """Read the JSON forms; keys match case-insensitively, also as information_schema names.

    A key that is neither a TableFacts field nor an information_schema.TABLES column is refused, so
    a misspelt `has_primary_keys` does not silently read as unknown.
    """
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise InputError(
            f"not valid JSON: {exc.msg} (column {exc.colno})", file=file, line=exc.lineno
        ) from None
    except (ValueError, RecursionError) as exc:  # a 5,000-digit number, nesting 1,000 deep
        raise InputError(f"not usable JSON: {exc}", file=file) from None
    if isinstance(data, dict):
        data = data.get("tables")
    if not isinstance(data, list):
        raise InputError(f'expected {{"tables": [...]}} or a list such as {_EXAMPLE}', file=file, line=1)

    def line_of(index: int) -> int | None:
        return _element_line(text, index)

    records = [_record(item, index, file, line_of) for index, item in enumerate(data)]
    return collect_facts(file, "json", records, line_of, without_key=without_key)


def _record(
    item: object, index: int, file: str, line_of: Callable[[int], int | None]
) -> Mapping[str, object]:
    """One table object with its keys mapped to TableFacts fields (and table_type)."""
    if not isinstance(item, dict):
        raise InputError(
            f"tables[{index}] must be an object such as {_EXAMPLE[1:-1]}", file=file, line=line_of(index)
        )
    record: dict[str, object] = {}
    for key, value in item.items():
        name = key.lower()
        field = COLUMN_FIELDS.get(name)
        if field is not None:
            record.setdefault(field, value)
        elif name not in OTHER_TABLES_COLUMNS:
            known = ", ".join(sorted(set(COLUMN_FIELDS.values())))
            raise InputError(
                f"tables[{index}]: unknown key `{key}` (known: {known})", file=file, line=line_of(index)
            )
    return record


def _skip_space(text: str, position: int) -> int:
    while position < len(text) and text[position] in " \t\r\n":
        position += 1
    return position


def _element_line(text: str, index: int) -> int | None:
    """The line where the index-th table object starts; asked only when reporting a problem."""
    position = _skip_space(text, 0)
    if text.startswith("{", position):
        found = _TABLES_KEY.search(text)
        if found is None:
            return None
        position = found.end() - 1
    decoder = json.JSONDecoder()
    position = _skip_space(text, position + 1)  # past the [
    try:
        for _ in range(index):
            _, position = decoder.raw_decode(text, position)
            position = _skip_space(text, _skip_space(text, position) + 1)  # past the comma
    except (ValueError, RecursionError):
        return None
    return text.count("\n", 0, position) + 1
