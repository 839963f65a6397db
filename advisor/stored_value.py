"""Values as the server stores them: what drift compares, and the value a SET GLOBAL for drift offers.

A file's `long_query_time = 2` runs as `2.000000`, `event_scheduler = 1` as `ON`, `UTF8MB4` as `utf8mb4`,
`sql_mode = TRADITIONAL` as its seven modes, `max_allowed_packet = 1000000` as 999424 (a multiple of the
catalog's block_size), `optimizer_switch = 'index_merge=off'` as the whole flag list with that flag off,
`datadir = /var/lib/mysql` as `/var/lib/mysql/`. None of these is drift: each side is brought to the form
the server stores (`stored_form`) before they are compared, and only a different stored value is.

Where the server could not run the file's value — above the catalog's maximum, a table_open_cache lowered
to fit open_files_limit, an open_files_limit the operating system caps — the entry stays drift with a plain
reason and no SQL (advisor.not_running): `SET GLOBAL table_open_cache = 30000` would run the server out of file
descriptors.

Only the drift path (names set in both the file and a live dump) comes here; sql.same_value stays the
cheap comparison of the rule engine.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass
from functools import lru_cache

from advisor.catalog import Catalog, VariableFacts
from advisor.not_running import NotRunning, why_not_running
from advisor.optioncheck import data as option_data
from advisor.optioncheck.model import OptionFacts
from advisor.optioncheck.values import FALSE_WORDS, TRUE_WORDS, find_type
from advisor.stored_numbers import number, round_to_block, unquoted
from advisor.units import parse_bool
from advisor.version import ServerVersion

NUMERIC_UNITS = frozenset({"bytes", "count", "seconds", "microseconds", "milliseconds", "pages", "percent"})
_FLAG = re.compile(r"[A-Za-z_][A-Za-z0-9_]*=[A-Za-z0-9_]+")
#: charsets, collations and storage engines are names the server looks up ignoring case.
_CASELESS = re.compile(r"^(character_set_|collation_)|storage_engine$")

# sql_mode's combination modes and what SET sql_mode = 'X' turns on besides X itself: read back with
# SELECT @@sql_mode on mariadbd 10.11.19, and from `mysqld --sql-mode=X --verbose --help` of MySQL
# 5.7.42 and 8.0.46 (8.0 dropped all but ANSI and TRADITIONAL, and NO_AUTO_CREATE_USER).
_QUOTING = (
    "PIPES_AS_CONCAT",
    "ANSI_QUOTES",
    "IGNORE_SPACE",
    "NO_KEY_OPTIONS",
    "NO_TABLE_OPTIONS",
    "NO_FIELD_OPTIONS",
)
_STRICT = (
    "STRICT_TRANS_TABLES",
    "STRICT_ALL_TABLES",
    "NO_ZERO_IN_DATE",
    "NO_ZERO_DATE",
    "ERROR_FOR_DIVISION_BY_ZERO",
)
_OLD_COMBINATIONS: dict[str, tuple[str, ...]] = {
    "ANSI": ("REAL_AS_FLOAT", "PIPES_AS_CONCAT", "ANSI_QUOTES", "IGNORE_SPACE", "ONLY_FULL_GROUP_BY"),
    "DB2": _QUOTING,
    "MAXDB": (*_QUOTING, "NO_AUTO_CREATE_USER"),
    "MSSQL": _QUOTING,
    "MYSQL323": ("HIGH_NOT_PRECEDENCE",),
    "MYSQL40": ("HIGH_NOT_PRECEDENCE",),
    "ORACLE": (*_QUOTING, "NO_AUTO_CREATE_USER"),
    "POSTGRESQL": _QUOTING,
    "TRADITIONAL": (*_STRICT, "NO_AUTO_CREATE_USER", "NO_ENGINE_SUBSTITUTION"),
}
_MYSQL_8_COMBINATIONS: dict[str, tuple[str, ...]] = {
    "ANSI": _OLD_COMBINATIONS["ANSI"],
    "TRADITIONAL": (*_STRICT, "NO_ENGINE_SUBSTITUTION"),
}
_MARIADB_COMBINATIONS: dict[str, tuple[str, ...]] = {
    **_OLD_COMBINATIONS,
    "ANSI": ("REAL_AS_FLOAT", "PIPES_AS_CONCAT", "ANSI_QUOTES", "IGNORE_SPACE"),
    "ORACLE": (*_QUOTING, "NO_AUTO_CREATE_USER", "SIMULTANEOUS_ASSIGNMENT"),
}


@dataclass(frozen=True, slots=True)
class DriftCheck:
    """Whether the file's value and the live one differ as stored; `reason` when the server could not
    run the file's value (no SET GLOBAL applies it)."""

    differs: bool
    reason: NotRunning | None = None


SAME = DriftCheck(False)
DIFFERENT = DriftCheck(True)


def option_facts(version: ServerVersion, name: str) -> OptionFacts | None:
    """The option parser's facts for a name the catalog lacks (advisor.optioncheck: MariaDB 10.11's types, and
    MySQL names with the same-named MariaDB option's parse); None when no list has it."""
    options = option_data.mariadb().options if version.is_mariadb else option_data.mysql().options
    return options.get(name.lower().replace("-", "_"))


def _server_bool(text: str) -> bool | None:
    """A boolean as the server's option parser takes it: ON/OFF, TRUE/FALSE, 1/0 (`yes` is none: MySQL 8.0.46
    warns "boolean value 'yes' was not recognized. Set to OFF")."""
    word = unquoted(text).lower()
    return True if word in TRUE_WORDS else False if word in FALSE_WORDS else None


def _unknown_bools(version: ServerVersion, name: str, file_value: str, live_value: str) -> bool:
    """For a name the catalog lacks: both values read as booleans — the option parser types it bool, or the
    server shows ON/OFF (as it shows every boolean) and the file writes a boolean word."""
    if _server_bool(file_value) is None or _server_bool(live_value) is None:
        return False
    found = option_facts(version, name)
    return (found is not None and found.type == "bool") or unquoted(live_value).upper() in ("ON", "OFF")


def masked(value: str) -> bool:
    """A collector's mask (`********`): it hides the value, so it never differs from anything."""
    text = value.strip()
    return len(text) >= 3 and text.strip("*") == ""


def _option_block(version: ServerVersion, name: str, facts: VariableFacts | None) -> int | None:
    """The option parser's block size for a name the catalog lacks (`query_alloc_block_size`: 1 KiB, so a
    file's 10000 runs as 9216 on MySQL 8.0.46 and MariaDB 10.11 alike)."""
    if facts is not None:
        return None
    found = option_facts(version, name)
    return found.block if found is not None and found.block and found.block > 1 else None


def _combinations(version: ServerVersion) -> Mapping[str, tuple[str, ...]]:
    if version.is_mariadb:
        return _MARIADB_COMBINATIONS
    return _MYSQL_8_COMBINATIONS if version.at_least(8, 0, 11) else _OLD_COMBINATIONS


def _modes(version: ServerVersion, text: str) -> frozenset[str]:
    """sql_mode as the set of modes in force: combination modes expanded into theirs, then left out (the
    server lists `TRADITIONAL` beside its seven, and the seven alone are the same behaviour)."""
    combinations = _combinations(version)
    words = {word.strip().upper() for word in unquoted(text).split(",") if word.strip()}
    for word in list(words):
        words.update(combinations.get(word, ()))
    return frozenset(words - combinations.keys())


def _enum_word(facts: VariableFacts, text: str) -> str | None:
    """The value an enum stores: the word, a unique prefix of one, or its number (catalog order is the
    server's numbering); None when it is none of them."""
    values = facts.values or ()
    bare = unquoted(text)
    if facts.unit == "bool" or not values:
        flag = parse_bool(bare)
        if flag is not None:
            return "ON" if flag else "OFF"
        return bare.upper() if values == () and facts.unit != "bool" else None
    found = find_type(bare, values) if bare else None
    if found is not None and found >= 0:
        return values[found].upper()
    if bare.isdigit() and int(bare) < len(values):
        return values[int(bare)].upper()
    return None


def _path(text: str) -> str:
    collapsed = re.sub(r"/{2,}", "/", text)
    return collapsed.rstrip("/") or "/"


# A fleet's audits compare the same few dozen (name, value) pairs again and again: worked out once (bounded).
@lru_cache(maxsize=8192)
def stored_form(catalog: Catalog, version: ServerVersion, name: str, value: str) -> Hashable:
    """The value as the server stores it, in a form two spellings of one value share; None when it
    cannot be read as a value of this variable (the option checker speaks of those)."""
    facts = catalog.flavor_facts(name, version)
    unit = facts.unit if facts is not None else None
    bare = unquoted(value)
    if name == "sql_mode":
        return _modes(version, bare)
    if unit == "set":
        return _words(bare)
    if unit in NUMERIC_UNITS or (unit is None and number(bare) is not None):
        found = number(bare)
        return (
            round_to_block(facts, found, _option_block(version, name, facts)) if found is not None else None
        )
    if facts is not None and unit in ("bool", "enum"):
        return _enum_word(facts, bare)
    if unit is None and parse_bool(bare) is not None:
        return "ON" if parse_bool(bare) else "OFF"
    if bare.startswith("/"):
        return _path(bare)
    return _caseless_name(bare) if _CASELESS.search(name) else bare


def _caseless_name(text: str) -> str:
    """A charset, collation or engine name: any case, and `utf8` is `utf8mb3` (MariaDB 10.6 and MySQL 8.0.30
    show the new name for the same character set)."""
    lowered = text.lower()
    return re.sub(r"^utf8(?=_|$)", "utf8mb3", lowered)


def _words(text: str) -> frozenset[str]:
    return frozenset(word.strip().upper() for word in text.split(",") if word.strip())


def _flags(text: str) -> dict[str, str] | None:
    """`index_merge=off,mrr=on` as flag → setting; None when the text is not such a list."""
    if "=" not in text:
        return None
    items = [item.strip() for item in unquoted(text).split(",") if item.strip()]
    if not items or not all(item.lower() == "default" or _FLAG.fullmatch(item) for item in items):
        return None
    pairs = (item.split("=", 1) for item in items if "=" in item)
    return {flag.lower(): setting.lower() for flag, setting in pairs}


def _flags_differ(file_flags: Mapping[str, str], live_flags: Mapping[str, str]) -> bool:
    """The file lists the flags it changes; each must run as written (`default`: whatever is compiled in)."""
    return any(
        setting != "default" and live_flags.get(flag) != setting for flag, setting in file_flags.items()
    )


def compare(
    catalog: Catalog,
    version: ServerVersion,
    name: str,
    file_value: str,
    live_value: str,
    live: Callable[[str], str | None],
) -> DriftCheck:
    """The file's value against the running one (`live` answers other live variables by name)."""
    if file_value == live_value or masked(live_value):
        return SAME
    facts = catalog.flavor_facts(name, version)
    if facts is None and _unknown_bools(version, name, file_value, live_value):
        return DriftCheck(_server_bool(file_value) != _server_bool(live_value))  # `1` is ON
    if facts is None and _kinds_differ(file_value, live_value):
        return SAME  # a name we do not know: `plugin_x = FORCE` is not drift from ON
    loose_bool = (  # FORCE is a plugin-load word, not a boolean written loosely
        _server_bool(file_value) is None
        and parse_bool(file_value) is not None
        and unquoted(file_value).lower() != "force"
    )
    if facts is not None and facts.unit == "bool" and loose_bool:  # `yes`: a boolean to a DBA, not the server
        return _no_boolean(name, file_value, live_value)
    file_flags, live_flags = _flags(file_value), _flags(live_value)
    if file_flags is not None and live_flags is not None:
        return DIFFERENT if _flags_differ(file_flags, live_flags) else SAME
    stored = stored_form(catalog, version, name, file_value)
    if stored is None:  # not a value of this variable (the server refuses `none`): the words decide
        refused_differs = (
            not _kinds_differ(file_value, live_value)
            and unquoted(file_value).lower() != unquoted(live_value).lower()
        )
        return DriftCheck(refused_differs)
    if stored == stored_form(catalog, version, name, live_value):
        return SAME
    reason = why_not_running(catalog, version, name, file_value, live_value, live)
    return DriftCheck(True, reason)


def _no_boolean(name: str, file_value: str, live_value: str) -> DriftCheck:
    """A boolean written as a word the server does not take (`yes`): it warned and kept OFF (or, for a
    plugin's option, its default), so the line never ran and no SET applies it (MySQL 8.0.46: "boolean value
    'yes' was not recognized. Set to OFF"; MariaDB 10.11 alike)."""
    meant = parse_bool(file_value)
    if ("ON" if meant else "OFF") == stored_bool(live_value):
        return SAME
    return DriftCheck(
        True,
        NotRunning(
            f"the server does not read {unquoted(file_value)!r} as a boolean (it takes ON/OFF, TRUE/FALSE, 1/0): "
            f"it ignored the line with a warning and runs {name} = {live_value}; write {name} = "
            f"{'ON' if meant else 'OFF'} in the file"
        ),
    )


def stored_bool(text: str) -> str | None:
    """ON or OFF for a boolean the server shows, else None."""
    flag = _server_bool(text)
    return None if flag is None else "ON" if flag else "OFF"


def _kinds_differ(file_value: str, live_value: str) -> bool:
    if number(file_value) is not None and number(live_value) is not None:
        return False  # 2 against 1 is drift, though 1 reads as ON
    return (parse_bool(file_value) is None) != (parse_bool(live_value) is None)


def settable(catalog: Catalog, version: ServerVersion, name: str, value: str) -> str:
    """The value SET GLOBAL takes as given: a number rounded down to the variable's block size (the server
    refuses 1000000 for max_allowed_packet under STRICT_ALL_TABLES, and truncates it with a warning
    otherwise); anything else as written."""
    facts = catalog.flavor_facts(name, version)
    if facts is None or facts.unit not in NUMERIC_UNITS or facts.block_size is None:
        return value
    found = number(value)
    if found is None or found != found.to_integral_value():
        return value
    rounded = round_to_block(facts, found)
    return value if rounded == found else str(rounded)
