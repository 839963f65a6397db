"""Schema facts from `mysql -B` output: the documented query, or information_schema.TABLES itself."""

from __future__ import annotations

from collections.abc import Iterable
from itertools import compress, pairwise, repeat
from operator import not_

from advisor.errors import InputError
from advisor.inputs.schema_facts import SchemaFacts, SchemaLayout
from advisor.inputs.schema_values import (
    COLUMN_FIELDS,
    NULL_SPELLINGS,
    STORED_TABLE_TYPES,
    SYSTEM_SCHEMAS,
    TABLES_COLUMN_ORDER,
    collect_facts,
    unescape,
)

_HEADER_HINT = (
    "expected the header of the query in docs/schema-facts.md (TABLE_SCHEMA, TABLE_NAME, ...), "
    "an information_schema.TABLES dump, or JSON"
)
_NAME_FIELDS = frozenset({"schema", "table"})
#: Below this many rows the line loop alone is as quick as looking for system schemas first.
_FEW_ROWS = 32
_NOT_SEPARATORS = bytes(byte for byte in range(256) if byte not in b"\t\n")


def parse_schema_tsv(text: str, file: str, *, without_key: bool) -> SchemaFacts:
    """One pass over tab-separated lines: a header (or a header-less TABLES dump), then one row per table.

    Columns are matched by name, case-insensitively; columns InnoTune does not use are ignored.
    """
    lines = text.split("\n")  # not splitlines(): a comment may hold U+2028 and friends
    first = next(index for index, line in enumerate(lines) if line.strip())
    if lines[first].lstrip().startswith("+-"):
        lines = _unboxed(lines, first, file)
        first = next(index for index, line in enumerate(lines) if line.strip())
    header = lines[first].rstrip("\r").split("\t")
    columns, headerless = _columns(header, file, first + 1)
    width = len(header)
    schema_at, type_at = columns["schema"], columns.get("table_type")
    cells = [(field, at, field in _NAME_FIELDS) for field, at in columns.items()]
    lead = max(schema_at, type_at or 0) + 1
    records: list[dict[str, object]] = []
    line_numbers: list[int] = []
    start = first if headerless else first + 1
    for index in _rows_to_read(text, lines, start, width, schema_at):
        line = lines[index].rstrip("\r")
        if not line:
            continue
        found = line.count("\t") + 1
        if found != width:
            message = f"expected {width} tab-separated fields as in the first line, found {found}"
            raise InputError(message, file=file, line=index + 1)
        # Most of a raw TABLES dump is system schemas and views: drop them before looking closer
        # (splitting off only the leading columns that tell).
        fields = line.split("\t", lead)
        if fields[schema_at].lower() in SYSTEM_SCHEMAS:
            continue
        if type_at is not None and fields[type_at].upper() not in STORED_TABLE_TYPES:
            continue
        fields = line.split("\t")
        records.append({field: _cell(fields[at], is_name) for field, at, is_name in cells})
        line_numbers.append(index + 1)
    layout: SchemaLayout = "query" if "has_primary_key" in columns else "tables"
    return collect_facts(file, layout, records, line_numbers.__getitem__, without_key=without_key)


def _rows_to_read(text: str, lines: list[str], start: int, width: int, schema_at: int) -> Iterable[int]:
    """The indexes of the lines the row loop must look at: all from `start`, less those that are plainly
    rows of a system schema when every line is known to be a full row.

    Most of a raw TABLES dump is system schemas, one prefix each (`def<TAB>mysql<TAB>`): when every line
    from `start` holds exactly `width` fields (no blank line, no carriage return: the loop would pass the
    one and strip the other), a line starting with such a prefix is a row the loop would drop, so it is
    left out with one `startswith` pass instead of a split per line. Any other text is read whole.
    """
    rows = range(start, len(lines))
    if schema_at > 1 or len(rows) < _FEW_ROWS or "\r" in text:
        return rows
    body = lines[start:]
    if not body[-1]:
        body.pop()  # the text's last newline
    row_separators = b"\t" * (width - 1) + b"\n"
    separators = "\n".join(body).encode("utf-8", "surrogatepass").translate(None, _NOT_SEPARATORS)
    if separators != row_separators * (len(body) - 1) + row_separators[:-1]:
        return rows
    lead = lines[start].split("\t", 1)[0] + "\t" if schema_at == 1 else ""
    prefixes = tuple(f"{lead}{schema}\t" for schema in SYSTEM_SCHEMAS)
    system = map(str.startswith, body, repeat(prefixes))
    return compress(range(start, start + len(body)), map(not_, system))


def _unboxed(lines: list[str], first: int, file: str) -> list[str]:
    """The mysql client's boxed table (`+---+` borders, `| a | b |` rows) as tab-separated lines, each
    row on its own line number (borders become blank lines). The first border fixes where each cell is
    cut, so cells may hold spaces; a row of another width (a value with a line break) is an error."""
    border = lines[first].rstrip("\r").strip()
    cuts = [index for index, char in enumerate(border) if char == "+"]
    out: list[str] = []
    for number, raw in enumerate(lines, start=1):
        line = raw.rstrip("\r").strip()
        if not line or line.startswith("+"):
            out.append("")
            continue
        if line.startswith(("(", "Empty set")) or line.endswith(" sec)"):
            out.append("")  # the client's `(1.23 sec)` and `N rows in set` trailer
            continue
        if len(line) != len(border) or not line.startswith("|") or not line.endswith("|"):
            raise InputError(
                f"expected a row of the boxed table, {len(border)} characters wide between `|`s as its "
                f"border, found {len(line)}: run the query with `mysql -B` for values with line breaks",
                file=file,
                line=number,
            )
        out.append("\t".join(line[start + 1 : end].strip() for start, end in pairwise(cuts)))
    return out


def _columns(fields: list[str], file: str, line: int) -> tuple[dict[str, int], bool]:
    """TableFacts field → column index, and whether the first line is already data (no header)."""
    columns: dict[str, int] = {}
    for index, name in enumerate(fields):
        field = COLUMN_FIELDS.get(name.strip().lower())
        if field is not None:
            columns.setdefault(field, index)
    if "schema" in columns and "table" in columns:
        return columns, False
    if fields[0] == "def" and len(fields) >= len(TABLES_COLUMN_ORDER):
        # `mysql -BN` of information_schema.TABLES: every version starts with the same 12 columns.
        return {field: index for index, field in enumerate(TABLES_COLUMN_ORDER) if field}, True
    start = fields[0].lstrip()
    if start.startswith("+-"):
        raise InputError(
            "this is the mysql client's boxed table: run the query with `mysql -B`", file=file, line=line
        )
    if start.startswith("***"):
        raise InputError("this is vertical (\\G) output: run the query with `mysql -B`", file=file, line=line)
    raise InputError(f"not schema facts: {_HEADER_HINT}", file=file, line=line)


def _cell(raw: str, is_name: bool) -> str | None:
    """A `mysql -B` cell: NULL or \\N is None, escapes undone; a table may really be named `NULL`."""
    if raw in NULL_SPELLINGS and not is_name:
        return None
    return unescape(raw) if "\\" in raw else raw
