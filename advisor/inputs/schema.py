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

from advisor.inputs.schema_facts import SchemaFacts, SchemaLayout, TableFacts
from advisor.inputs.text_encoding import refuse_utf16

__all__ = ["SchemaFacts", "SchemaLayout", "TableFacts", "parse_schema"]

_WITHOUT_KEY_NAME = re.compile(r"without_(?:pk|key)", re.IGNORECASE)


def parse_schema(text: str, file: str, *, without_key: bool | None = None) -> SchemaFacts:
    """Read schema facts as JSON or `mysql -B` TSV; the layout is detected from the text.

    `without_key` says the input lists tables lacking a primary and a non-null unique key (their
    missing key columns then read as False); None infers it from a file name containing
    `without_pk` or `without_key`, as in `tables_without_pk_or_unique.tsv`.
    """
    if without_key is None:
        without_key = _WITHOUT_KEY_NAME.search(file.rsplit("/", 1)[-1]) is not None
    refuse_utf16(text, file)
    body = text.removeprefix("\ufeff")  # editors on Windows write a BOM
    start = body.lstrip()[:1]
    if not start:
        # `mysql -B` prints nothing at all, not even the header, for a query with no rows.
        return SchemaFacts(file, (), "without_key" if without_key else "empty")
    # json loads only for JSON.
    if start in ("[", "{"):
        from advisor.inputs.schema_json import parse_schema_json

        return parse_schema_json(body, file, without_key=without_key)
    from advisor.inputs.schema_tsv import parse_schema_tsv

    return parse_schema_tsv(body, file, without_key=without_key)
