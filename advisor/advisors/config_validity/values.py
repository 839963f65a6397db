"""Would the server read an option value as written? Numbers, size suffixes, booleans and enums.

What the server does with a bad value was checked against `my_getopt` (MySQL and MariaDB mysys) and a
real mariadbd 10.11: an unreadable number or suffix, a decimal point in an integer option, a value
out of 64 bits, a bare numeric option and an unknown enum value stop it at startup; a number out of
range is clamped with a warning; an unknown boolean word is ignored (MariaDB) or read as OFF (MySQL).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Final

from advisor.findings import Severity
from advisor.patterns import lazy

if TYPE_CHECKING:
    from advisor.catalog import VariableFacts
    from advisor.version import ServerVersion

Problem = tuple[Severity, str]

NUMERIC_UNITS: Final = frozenset(
    {"bytes", "count", "pages", "percent", "seconds", "milliseconds", "microseconds"}
)
# Units that include doubles (long_query_time, innodb_max_dirty_pages_pct); which variables are doubles
# the catalog does not say, so a fraction is allowed for all of them.
_FRACTION_UNITS: Final = frozenset({"seconds", "percent"})
_BOOL_WORDS: Final = frozenset({"0", "1", "on", "off", "true", "false"})
# Numeric options that may stand bare (`log-warnings` raises the level by one).
_OPTIONAL_ARGUMENT: Final = frozenset({"log_warnings"})
# Bool variables whose option takes text: `log-bin = /var/log/mysql/mysql-bin` names the log files.
_TEXT_OPTIONS: Final = frozenset({"log_bin"})
# Values real servers accept that the catalog lists under no flavor (Windows, Percona's thread pool).
_EXTRA_ENUM_VALUES: Final = {
    "innodb_flush_method": ("unbuffered", "normal", "async_unbuffered"),
    "thread_handling": ("pool-of-threads",),
}
# strtoll's view of a number: optional sign, digits (none reads as 0), then the suffix character decides.
_NUMBER_RE: Final = lazy(r"([-+]?)([0-9]*)(?:\.([0-9]*))?(.*)\Z", re.S)
_SUFFIX_POWER: Final = {"": 0, "k": 1, "m": 2, "g": 3, "t": 4, "p": 5, "e": 6}
_LIMIT: Final = 2**64


def check_value(version: ServerVersion, value: str | None, name: str, facts: VariableFacts) -> Problem | None:
    """What goes wrong when `name = value` is read at startup, or None when it reads as written."""
    unit = facts.unit
    if value is None:
        if unit in NUMERIC_UNITS and name not in _OPTIONAL_ARGUMENT:
            return (
                Severity.CRITICAL,
                f'{name} needs a value; the server stops at startup ("requires an argument").',
            )
        return None
    text = value.strip()
    if unit == "bool":
        return None if name in _TEXT_OPTIONS else _check_bool(version, text)
    if unit in NUMERIC_UNITS:
        return _check_number(version, text, name, facts)
    if unit == "enum" and facts.values:
        return _check_enum(text, name, facts.values)
    return None


def _check_bool(version: ServerVersion, text: str) -> Problem | None:
    # Before MySQL 5.5.10 only numbers were read; ON/TRUE then meant 0, a different story.
    if text.lower() in _BOOL_WORDS or (version.is_mysql_family and version.before(5, 5, 10)):
        return None
    return Severity.WARNING, (
        f"{text!r} is not a boolean the server reads (ON/OFF, 1/0, TRUE/FALSE): MariaDB ignores the line and "
        "MySQL sets the option OFF, each with only a warning. Write ON or OFF."
    )


def _check_number(version: ServerVersion, text: str, name: str, facts: VariableFacts) -> Problem | None:
    match = _NUMBER_RE().match(text)
    if match is None:  # every text matches the pattern; this only satisfies the type checker
        return None
    sign, digits, fraction, rest = match.groups()
    if fraction is not None:
        if not rest and (facts.unit in _FRACTION_UNITS or _fraction_allowed(version, name)):
            return None
        return Severity.CRITICAL, (
            f"{text!r} has a decimal point, which {name} does not take: the server stops at startup "
            "(\"Unknown suffix '.'\"). Write a whole number, e.g. 1536M instead of 1.5G."
        )
    suffix = rest[:1].lower()
    if suffix not in _SUFFIX_POWER:
        return Severity.CRITICAL, (
            f"{text!r} is not a number the server reads ({rest[:1]!r} is no K/M/G suffix): it stops at startup."
        )
    if suffix in ("t", "p", "e") and version.is_mysql_family and version.before(8, 0, 14):
        return Severity.CRITICAL, (
            f"the {suffix.upper()} suffix is read from MySQL 8.0.14 on; {version.describe()} stops at startup "
            '("Unknown suffix"). Write the size in G.'
        )
    # Like strtoll: no digits read as 0, so `PORT` is 0 with the P (peta) suffix where P is known.
    number = int(digits or "0") * 1024 ** _SUFFIX_POWER[suffix] * (-1 if sign == "-" else 1)
    if abs(number) >= _LIMIT:
        return Severity.CRITICAL, f"{text!r} does not fit in 64 bits: the server stops at startup."
    return _check_range(version, number, text, facts)


def _fraction_allowed(version: ServerVersion, name: str) -> bool:
    """MariaDB 10.6.1 made expire_logs_days a fraction of days (a double)."""
    return name == "expire_logs_days" and version.is_mariadb and version.at_least(10, 6, 1)


def _check_range(version: ServerVersion, number: int, text: str, facts: VariableFacts) -> Problem | None:
    low, high = facts.min, facts.max
    if number < 0 and (low is None or low >= 0) and version.is_mariadb:
        return (
            Severity.CRITICAL,
            f'{text!r} is negative: MariaDB stops at startup ("Incorrect unsigned value").',
        )
    # Clamped, the server runs a value it takes (mariadbd 10.11.19: "unsigned value 1048576 adjusted to
    # 2097152" for innodb_log_buffer_size = 1M, at every start), and the line is rewritten with it. A notice
    # when that is at most twice or half what was written (the intent holds), else a warning (an empty
    # max_connections runs 10; innodb_flush_log_at_trx_commit = 5 runs 2).
    if low is not None and number < low:
        return (
            _clamp_severity(number, low),
            f"{text!r} is below the minimum {_plain(low)}: the server raises it to that with a warning at every "
            "start. The line is rewritten with the value that runs.",
        )
    if high is not None and number > high:
        return (
            _clamp_severity(number, high),
            f"{text!r} is above the maximum {_plain(high)}: the server lowers it to that with a warning at every "
            "start. The line is rewritten with the value that runs.",
        )
    return None


def _clamp_severity(written: int, runs: float) -> Severity:
    small, large = sorted((abs(written), abs(runs)))
    return Severity.NOTICE if written * runs > 0 and large <= 2 * small else Severity.WARNING


def clamped_to(version: ServerVersion, value: str | None, facts: VariableFacts) -> int | None:
    """The value the server runs instead of a readable number out of range (its minimum or maximum), else
    None — also for a negative number MariaDB refuses outright."""
    if value is None or facts.unit not in NUMERIC_UNITS:
        return None
    match = _NUMBER_RE().match(value.strip())
    if match is None or match.group(3) is not None or match.group(4)[:1].lower() not in _SUFFIX_POWER:
        return None
    sign, digits, _, rest = match.groups()
    number = int(digits or "0") * 1024 ** _SUFFIX_POWER[rest[:1].lower()] * (-1 if sign == "-" else 1)
    low, high = facts.min, facts.max
    if number < 0 and (low is None or low >= 0) and version.is_mariadb:
        return None
    if low is not None and number < low:
        return int(low)
    return int(high) if high is not None and number > high and abs(number) < _LIMIT else None


def _plain(number: float) -> str:
    """`100000`, not `1e+05`."""
    return str(int(number)) if float(number).is_integer() else str(number)


def _is_number(text: str) -> bool:
    """ASCII digits only (`str.isdigit` also takes `¹` and other scripts' digits, which the server does not)."""
    return text.isascii() and text.isdigit()


def _check_enum(text: str, name: str, values: tuple[str, ...]) -> Problem | None:
    if all(value.isdigit() for value in values):  # numbers in disguise: clamped like numbers
        highest = max(int(value) for value in values)
        if _is_number(text) and int(text) > highest:
            return (
                Severity.WARNING,
                f"{text} is above the highest value {highest}: the server lowers it to {highest}.",
            )
        return None
    wanted = text.lower()
    known = [value.lower() for value in values] + list(_EXTRA_ENUM_VALUES.get(name, ()))
    if wanted in known or (_is_number(wanted) and int(wanted) < len(values)):
        return None
    if wanted and sum(1 for value in known if value.startswith(wanted)) == 1:
        return None  # the server takes a unique prefix of a value (`MIX` for MIXED)
    return Severity.CRITICAL, (
        f'{text!r} is not one of {", ".join(values)}: the server stops at startup ("Error while setting value").'
    )
