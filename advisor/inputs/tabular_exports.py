"""Other tools' exports of SHOW GLOBAL VARIABLES / STATUS: JSON and CSV.

JSON: `{name: value}`; a list of `{Variable_name, Value}` rows (also `VARIABLE_NAME`/`VARIABLE_VALUE`,
one document or one per line); a list of `{name: value}` objects is one sample each. An object
whose only non-null member is another object is unwrapped (OtterTune writes
`{"global": {"global": {…}}, "local": null}`). Numbers become their decimal text, true/false
ON/OFF, null the empty value.

CSV: `"name","value"` pairs (MySQLTuner's `INTO OUTFILE` dumps run them together with no line
break and leave quotes inside values unescaped, so a value ends at the quote that is followed by
the next `"NAME",` or the end of the text), or plain `name,value` lines.
"""

from __future__ import annotations

from typing import Any

from advisor.errors import InputError
from advisor.inputs.tabular import HEADER_NAMES, Collector, skip_or_fail
from advisor.patterns import lazy

_CSV_OPENING_RE = lazy(r'"([^"\n]*)"[ \t]*,[ \t]*"')
_WHITESPACE_RE = lazy(r"\s*")
_ROW_NAME_KEYS = frozenset({"variable_name", "name"})
_ROW_VALUE_KEYS = frozenset({"value", "variable_value"})
_SCALARS = (str, int, float, bool, type(None))


def _line_of(text: str, position: int) -> int:
    return text.count("\n", 0, position) + 1


def _put(values: dict[str, str], name: str, value: str, file: str, line: int | None) -> None:
    if not name.isidentifier():
        raise InputError(f"{name[:60]!r} is not a variable name", file=file, line=line)
    values[name.lower()] = value


def read_quoted_csv(text: str, out: Collector) -> None:
    """`"name","value"` pairs, with or without line breaks between them.

    Each `"NAME","` opens a pair; its value runs to the last quote before the next opening.
    """
    openings = list(_CSV_OPENING_RE().finditer(text))
    if not openings or text[: openings[0].start()].strip():
        raise InputError('expected a `"name","value"` pair here', file=out.file, line=1)
    values = out.current
    ends = [opening.start() for opening in openings[1:]] + [len(text)]
    for opening, end in zip(openings, ends, strict=True):
        value = text[opening.end() : end].rstrip()
        if value[-1:] != '"':
            raise InputError(
                'a `"name","value"` pair lacks its closing quote', file=out.file, line=_line_of(text, end)
            )
        name = opening.group(1).strip()
        if not name.isidentifier():  # the line is counted only for the error: counting is O(n)
            _put(values, name, value, out.file, _line_of(text, opening.start()))
        elif name.lower() in HEADER_NAMES:
            values = out.open()
        else:
            values[name.lower()] = value[:-1]


def read_plain_csv(lines: list[str], start: int, out: Collector) -> None:
    """`name,value` lines; a value in double quotes loses them."""
    values = out.current
    for index in range(start, len(lines)):
        name, comma, value = lines[index].partition(",")
        name = name.strip()
        if not comma or not name.isidentifier():
            skip_or_fail(lines[index], index + 1, out, "`name,value`")
            values = out.current
            continue
        value = value.strip()
        if len(value) >= 2 and value[0] == value[-1] == '"':
            value = value[1:-1]
        if name.lower() in HEADER_NAMES:
            values = out.open()
        else:
            values[name.lower()] = value


def _documents(text: str, file: str) -> list[Any]:
    """Every JSON document in the text (one, or one per line)."""
    import json  # only JSON pastes pay for the import

    decoder = json.JSONDecoder()
    documents: list[Any] = []
    position = _WHITESPACE_RE().match(text, 0).end()  # type: ignore[union-attr]
    try:
        while position < len(text):
            document, position = decoder.raw_decode(text, position)
            documents.append(document)
            position = _WHITESPACE_RE().match(text, position).end()  # type: ignore[union-attr]
    except json.JSONDecodeError as error:
        raise InputError(f"not valid JSON: {error.msg}", file=file, line=error.lineno) from None
    except (ValueError, RecursionError) as error:  # digits beyond int limits, nesting too deep
        raise InputError(f"not usable JSON: {error}", file=file, line=_line_of(text, position)) from None
    return documents


def _text(value: Any, name: str, file: str) -> str:
    if isinstance(value, bool):
        return "ON" if value else "OFF"
    if value is None:
        return ""
    if isinstance(value, float) and value.is_integer() and abs(value) < 1e18:
        return str(int(value))
    if isinstance(value, (str, int, float)):
        return str(value)
    raise InputError(f"the value of {name[:60]!r} is not a single value", file=file)


def _unwrap(document: Any) -> Any:
    """Step into `{"only": {...}, "others": null}` wrappers."""
    while isinstance(document, dict):
        nested = [value for value in document.values() if isinstance(value, (dict, list))]
        rest = [
            value for value in document.values() if value is not None and not isinstance(value, (dict, list))
        ]
        if len(nested) != 1 or rest:
            break
        document = nested[0]
    return document


def _row(item: Any) -> tuple[Any, Any] | None:
    """(name, value) when `item` is a `{Variable_name, Value}` row object."""
    if not isinstance(item, dict) or len(item) != 2:
        return None
    keys = {str(key).lower(): value for key, value in item.items()}
    names = [keys[key] for key in _ROW_NAME_KEYS if key in keys]
    found = [keys[key] for key in _ROW_VALUE_KEYS if key in keys]
    if len(names) == 1 and len(found) == 1 and isinstance(names[0], str):
        return names[0], found[0]
    return None


def _read_object(document: dict[Any, Any], out: Collector) -> None:
    values = out.open()
    for name, value in document.items():
        _put(values, str(name), _text(value, str(name), out.file), out.file, None)


def read_json(text: str, out: Collector) -> None:
    """A `{name: value}` object, a list of row objects, or a list of `{name: value}` samples."""
    documents = [_unwrap(document) for document in _documents(text, out.file)]
    items = documents[0] if len(documents) == 1 and isinstance(documents[0], list) else documents
    rows = [row for row in map(_row, items) if row is not None]
    if items and len(rows) == len(items):
        values = out.open()
        for name, value in rows:
            _put(values, name, _text(value, name, out.file), out.file, None)
        return
    for item in items:
        if not isinstance(item, dict) or not all(isinstance(value, _SCALARS) for value in item.values()):
            raise InputError(
                "JSON is neither {name: value} nor a list of {Variable_name, Value} rows",
                file=out.file,
                line=1,
            )
        _read_object(item, out)
