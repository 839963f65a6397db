"""What MySQL 8.0+ keeps in mysqld-auto.cnf (SET PERSIST / SET PERSIST_ONLY): read after the option files
at every start, so these values win over the files' lines.

Two layouts are read:

* a listing of `SELECT VARIABLE_NAME, VARIABLE_VALUE FROM performance_schema.persisted_variables` in any
  layout the variables parser reads (`mysql -B` with or without its header — what `innotune collect`
  writes as `persisted.tsv` — the client's table, `\\G`, JSON rows); a header alone means nothing is
  persisted;
* the file itself, `<datadir>/mysqld-auto.cnf`: a JSON document whose members hold `{"Value": …}` per
  variable (format version 1 of 8.0.11–8.0.x and version 2 of later 8.0 and 8.4 alike).

A SHOW GLOBAL VARIABLES or STATUS listing given here is refused: it would make every variable look
persisted.
"""

from __future__ import annotations

import json
from typing import Any

from msgspec import Struct

from advisor.errors import InputError, InputWarning
from advisor.inputs.listing_kind import looks_like_status, looks_like_variables
from advisor.inputs.statusvars import read_samples
from advisor.inputs.text_encoding import refuse_utf16

#: the header `mysql -B` prints for the persisted_variables query (lower case)
_HEADER = ("variable_name", "variable_value")


class PersistedValues(Struct, frozen=True):
    """Name (lower case) → value as persisted, for the variables mysqld-auto.cnf sets."""

    file: str
    values: dict[str, str]
    warnings: tuple[InputWarning, ...] = ()


def parse_persisted(text: str, file: str) -> PersistedValues:
    """The persisted values of a persisted_variables listing or of mysqld-auto.cnf itself; InputError
    naming the file (and line) when it is neither."""
    refuse_utf16(text, file)
    body = text.removeprefix("\ufeff").strip()
    if not body:
        return PersistedValues(file, {})
    if body.startswith("{") and '"Value"' in body:
        return PersistedValues(file, _auto_cnf(body, file))
    lines = [line for line in body.splitlines() if line.strip()]
    if len(lines) == 1 and tuple(lines[0].strip().lower().split()) == _HEADER:
        return PersistedValues(file, {})  # `mysql -B` of an empty result prints its header alone
    raw = read_samples(text, file)
    values = raw.samples[-1] if raw.samples else {}
    if looks_like_status(values):
        raise InputError(
            "this is SHOW GLOBAL STATUS output, not the persisted values: give SELECT VARIABLE_NAME, "
            "VARIABLE_VALUE FROM performance_schema.persisted_variables (or the datadir's mysqld-auto.cnf)",
            file=file,
        )
    if looks_like_variables(values):
        raise InputError(
            "this is SHOW GLOBAL VARIABLES output, not the persisted values: give SELECT VARIABLE_NAME, "
            "VARIABLE_VALUE FROM performance_schema.persisted_variables (or the datadir's mysqld-auto.cnf)",
            file=file,
        )
    return PersistedValues(
        file, {name.replace("-", "_"): value for name, value in values.items()}, tuple(raw.warnings)
    )


def _auto_cnf(body: str, file: str) -> dict[str, str]:
    try:
        document = json.loads(body)
    except ValueError as exc:
        line = getattr(exc, "lineno", None)
        raise InputError(f"not valid JSON ({getattr(exc, 'msg', exc)})", file=file, line=line) from None
    found: dict[str, str] = {}
    _walk(document, found, file)
    return found


def _walk(node: Any, found: dict[str, str], file: str) -> None:
    """Every `"name": {"Value": v, ...}` member, at any depth (the sections differ between versions)."""
    if not isinstance(node, dict):
        return
    for key, value in node.items():
        if isinstance(value, dict) and "Value" in value:
            shown = value["Value"]
            if not isinstance(shown, str | int | float) or isinstance(shown, bool):
                raise InputError(f"{key}: its Value is not a string or number", file=file)
            found[str(key).lower().replace("-", "_")] = str(shown)
        else:
            _walk(value, found, file)
