"""The words of a set option per MySQL version: sql_mode lost NO_AUTO_CREATE_USER and the compatibility
modes in 8.0.11, and a server that meets one of them in an option file refuses to start ("Error while
setting value ... to 'sql_mode'"). The parse itself is MariaDB's (values.check_set); the words are the
version's (data/foreign.json, from the MySQL manual and release notes)."""

from __future__ import annotations

from typing import Any

from msgspec.structs import replace

from advisor.optioncheck import data as catalogs
from advisor.optioncheck.model import OptionFacts
from advisor.optioncheck.values import ValueCheck, check_set, find_type

Version = tuple[int, ...]


def _era(name: str, version: Version) -> dict[str, Any] | None:
    eras = catalogs.foreign().mysql_set_values.get(name, ())
    fitting = [era for era in eras if tuple(int(p) for p in era["from"].split(".")) <= version[:3]]
    return fitting[-1] if fitting else None


def _unknown(item: str, values: tuple[str, ...]) -> bool:
    found = find_type(item, values)
    return found is None or found < 0


def mysql_set(facts: OptionFacts, value: str, version: Version) -> ValueCheck | None:
    """The value against the set words MySQL `version` knows; None where we hold no list for the option.
    A refused word is named with the version that removed it, and the list without it suggested."""
    era = _era(facts.name, version)
    if era is None:
        return None
    words = replace(facts, values=tuple(era["values"]))
    check = check_set(value, words)
    if check.status != "error" or check.suggested_value is not None:
        return check
    items = value.split(",")
    gone = [item for item in items if item and _unknown(item, words.values)]
    kept = ",".join(item for item in items if item not in gone)
    if not gone or check_set(kept, words).status == "error":
        return check
    removed = era.get("removed", {})
    why = "; ".join(
        f"{item} was removed in MySQL {removed[item.upper()]}" if item.upper() in removed
        else f"{item} is not an SQL mode of this version" for item in gone
    )  # fmt: skip
    return ValueCheck("error", f"{why} ({era['source']})", suggested_value=kept)
