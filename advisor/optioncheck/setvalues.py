"""The words of a set option per MySQL version: sql_mode lost NO_AUTO_CREATE_USER and the compatibility
modes in 8.0.11, and a server that meets one of them in an option file refuses to start ("Error while
setting value ... to 'sql_mode'"). The parse itself is MariaDB's (values.check_set); the words are the
version's (data/foreign.json, from the MySQL manual and release notes, and the MariaDB KB for the modes
MariaDB added after 10.2)."""

from __future__ import annotations

from typing import Any

from msgspec.structs import replace

from advisor.optioncheck import data as catalogs
from advisor.optioncheck.model import OptionFacts
from advisor.optioncheck.values import ValueCheck, check_set, find_type

Version = tuple[int, ...]


def _era(name: str, version: Version) -> dict[str, Any] | None:
    eras = catalogs.foreign().set_values["mysql"].get(name, ())
    fitting = [era for era in eras if tuple(int(p) for p in era["from"].split(".")) <= version[:3]]
    return fitting[-1] if fitting else None


def _unknown(item: str, values: tuple[str, ...]) -> bool:
    found = find_type(item, values)
    return found is None or found < 0


def mysql_set(facts: OptionFacts, value: str, version: Version) -> ValueCheck | None:
    """The value against the set words MySQL `version` knows; None where we hold no list for the option."""
    era = _era(facts.name, version)
    if era is None:
        return None
    return _against(replace(facts, values=tuple(era["values"])), value, era.get("removed", {}), era["source"])


def mariadb_set(facts: OptionFacts, value: str, version: Version) -> ValueCheck | None:
    """Before 10.11, the words of 10.11's list (read off the binary) that the target is too old for."""
    added = catalogs.foreign().set_values["mariadb"].get(facts.name)
    if added is None:
        return None
    later = {word for word, since in added["values"].items() if _key(since) > version[:3]}
    if not later:
        return None
    words = replace(facts, values=tuple(word for word in facts.values if word not in later))
    return _against(words, value, {}, added["source"], {word: added["values"][word] for word in later})


def _key(text: str) -> Version:
    return tuple(int(part) for part in text.split("."))


def _against(words: OptionFacts, value: str, removed: dict[str, str], source: str,
             added: dict[str, str] | None = None) -> ValueCheck:  # fmt: skip
    """check_set over these words; a refused word is named with the version that removed (or added) it,
    and the list without it suggested."""
    check = check_set(value, words)
    if check.status != "error" or check.suggested_value is not None:
        return check
    items = value.split(",")
    gone = [item for item in items if item and _unknown(item, words.values)]
    kept = ",".join(item for item in items if item not in gone)
    if not gone or check_set(kept, words).status == "error":
        return check
    added = added or {}
    product = "MariaDB" if added else "MySQL"

    def why(item: str) -> str:
        word = item.upper()
        if word in removed:
            return f"{item} was removed in {product} {removed[word]}"
        if word in added:
            return f"{item} came with {product} {added[word]}"
        return f"{item} is not a mode of this version"

    return ValueCheck("error", f"{'; '.join(why(item) for item in gone)} ({source})", suggested_value=kept)
