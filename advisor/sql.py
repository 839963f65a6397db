"""Values as the server compares and accepts them: normalised comparison and live-apply SQL."""

from __future__ import annotations

import re
from decimal import Decimal
from functools import lru_cache
from typing import Final

from advisor.catalog import Catalog
from advisor.stored_value import settable, stored_form
from advisor.units import format_size, parse_bool, parse_size
from advisor.version import ServerVersion

_NUMERIC_UNITS = frozenset({"bytes", "count", "seconds", "microseconds", "milliseconds", "pages", "percent"})
_DECIMAL = re.compile(r"[+-]?\d+\.\d+")


def _unit(catalog: Catalog, version: ServerVersion, name: str) -> str | None:
    facts = catalog.lookup(name, version)
    return facts.unit if facts is not None else None


def normalise_value(catalog: Catalog, version: ServerVersion, name: str, value: str) -> str:
    """A canonical spelling: sizes in bytes, booleans ON/OFF, enums upper case, quotes stripped."""
    return _canonical(_unit(catalog, version, name), value)


# An audit compares ~140 values, mostly the same few dozen (unit, text) pairs in every audit of a fleet:
# the spelling depends on nothing else, so it is worked out once per process (bounded).
@lru_cache(maxsize=8192)
def _canonical(unit: str | None, value: str) -> str:
    """`value` spelled canonically for a variable of `unit` (None: a name the catalog lacks)."""
    text = value.strip().strip("'\"")
    if unit in _NUMERIC_UNITS or unit is None:
        size = parse_size(text)
        if size is not None:
            return str(size)
        if _DECIMAL.fullmatch(text):  # `2.000000` (SHOW VARIABLES of a double) is 2, `0.500000` is 0.5
            exact = Decimal(text)
            return str(
                exact.quantize(Decimal(1)) if exact == exact.to_integral_value() else exact.normalize()
            )
    if unit in ("bool", None):
        flag = parse_bool(text)
        if flag is not None and (unit == "bool" or text.upper() in ("ON", "OFF")):
            return "ON" if flag else "OFF"
    if unit == "enum":
        return text.upper()
    return text


def numeric_value(catalog: Catalog, version: ServerVersion, name: str, value: str | None) -> int | None:
    """The value as a number (sizes in bytes, counts, seconds) for a numeric variable; else None."""
    unit = _unit(catalog, version, name)
    if value is None or unit not in _NUMERIC_UNITS:
        return None
    normalised = _canonical(unit, value)
    return int(normalised) if normalised.lstrip("-").isdigit() else None


def same_spelling(catalog: Catalog, version: ServerVersion, name: str, current: str, recommended: str) -> str:
    """`current` written the way `recommended` is: `134217728` becomes `128M` beside a `512M`."""
    if _unit(catalog, version, name) != "bytes" or recommended.strip().isdigit():
        return current
    size = numeric_value(catalog, version, name, current)
    return format_size(size) if size is not None and size > 0 else current


def same_value(catalog: Catalog, version: ServerVersion, name: str, left: str, right: str) -> bool:
    """`1G` equals `1073741824`, `on` equals `ON`, `o_direct` equals `O_DIRECT`."""
    unit = _unit(catalog, version, name)
    return _canonical(unit, left) == _canonical(unit, right)


def _sql_literal(catalog: Catalog, version: ServerVersion, name: str, value: str) -> str:
    normalised = normalise_value(catalog, version, name, value)
    if normalised.lstrip("-").isdigit() or normalised in ("ON", "OFF"):
        return normalised
    if _unit(catalog, version, name) in _NUMERIC_UNITS and _DECIMAL.fullmatch(normalised):
        return normalised  # a double: the server refuses '0.5' in quotes (ERROR 1232)
    escaped = normalised.replace("\\", "\\\\").replace("'", "\\'")
    return f"'{escaped}'"


#: Dynamic variables MySQL refuses to persist ("ERROR 1238: Variable 'innodb_doublewrite' is a non persistent
#: variable"): found on the real 8.0.46 by `SET PERSIST x = @@global.x` of every global variable (the others
#: refused are read-only, which get no SQL here). SET GLOBAL applies them; the option file keeps them.
NOT_PERSISTED_MYSQL: Final = frozenset(
    {
        "gtid_purged",
        "innodb_doublewrite",
        "innodb_undo_tablespaces",
        "keyring_operations",
        "log_bin_use_v1_row_events",
    }
)


def apply_sql(catalog: Catalog, version: ServerVersion, name: str, value: str) -> str:
    """`SET PERSIST` on MySQL 8.0+ (survives a restart) unless MySQL refuses to persist the variable, `SET
    GLOBAL` elsewhere; sizes in bytes, rounded down to the variable's block size: the value the server takes
    as given, even under STRICT_ALL_TABLES."""
    literal = _sql_literal(catalog, version, name, settable(catalog, version, name, value))
    persist = not version.is_mariadb and version.as_tuple() >= (8, 0) and name not in NOT_PERSISTED_MYSQL
    return f"{'SET PERSIST' if persist else 'SET GLOBAL'} {name} = {literal};"


def refused_at_runtime(
    catalog: Catalog, version: ServerVersion, name: str, current: str, target: str
) -> bool:
    """A change the server refuses while it runs, though the variable is dynamic: MySQL 8.0.30+ switches
    innodb_doublewrite between ON and the DETECT modes live, but to or from OFF only at a restart (8.0.46:
    "ERROR 1210 ... cannot change doublewrite mode to OFF if doublewrite is enabled. Please shutdown", and
    "... to ON if doublewrite is disabled")."""
    if name != "innodb_doublewrite" or version.is_mariadb:
        return False
    was, wanted = (stored_form(catalog, version, name, text) for text in (current, target))
    return was != wanted and "OFF" in (was, wanted)


def default_text(value: object) -> str | None:
    """A catalog default as the server shows it: `True` is ON (innodb_doublewrite's default is a boolean in
    the catalog though 8.0.30+ made the variable an enum whose words include ON)."""
    if value is None:
        return None
    if isinstance(value, bool):
        return "ON" if value else "OFF"
    return str(value)
