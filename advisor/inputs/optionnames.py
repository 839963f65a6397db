"""Option names as the server reads them: dashes equal underscores, and the special prefixes.

The server's option parser (`my_getopt`) compares names treating `-` and `_` as the same character.
It first looks the whole name up; only when no option has that name does it try the special prefixes
`skip-`, `disable-`, `enable-`, `maximum-` (MariaDB adds `autoset-`), each followed by `-` or `_`.
`loose-` is stripped before anything else: it turns "unknown option" from an error into a warning.
A value after `skip-`/`disable-`/`enable-` is a double negation when it is exactly `0` (`prefixed_value`).

So `skip-name-resolve` is the real option `skip_name_resolve` (a system variable), while `skip-log-bin`
is `log_bin` with the `skip` prefix. `REAL_PREFIXED_NAMES` lists the options whose own name starts with
a prefix word; a name not listed there has its prefix stripped.
"""

from __future__ import annotations

import re
from typing import Final

from advisor.optioncheck.names import special_value

#: Options and variables whose own name begins with a prefix word (MySQL and MariaDB manuals, option
#: and variable reference). The server finds these by their full name before trying prefixes.
REAL_PREFIXED_NAMES: Final = frozenset(
    {
        "skip_external_locking",
        "skip_grant_tables",
        "skip_host_cache",
        "skip_locking",
        "skip_name_resolve",
        "skip_networking",
        "skip_new",
        "skip_replica_start",
        "skip_show_database",
        "skip_slave_start",
        "skip_thread_priority",
    }
)

#: Prefixes that change what an option line does, with the value they give (None: keep the value).
PREFIX_VALUES: Final[dict[str, str | None]] = {
    "skip": "OFF",
    "disable": "OFF",
    "enable": "ON",
    "maximum": None,
    "autoset": None,
}
_PREFIX_LENGTHS: Final = tuple((word, len(word) + 1) for word in PREFIX_VALUES)

# What an option name may look like in an option file: letters, digits, `_`, `-` and `.` (plugin and
# mysql-test keys use dots). Anything else (spaces, `--`, `=`) is not an option line.
_NAME_RE: Final = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.\-]*\Z")

NameParts = tuple[str, str | None, bool]


def prefixed_value(prefix: str, given: str | None) -> str | None:
    """The value a line with `prefix` gives its option, `given` the value written (None: bare).

    `skip-`/`disable-` give OFF and `enable-` ON, whatever follows, except exactly `0`, which my_getopt
    reads as a double negation (optioncheck.names.special_value): mariadbd 10.11.19 and MySQL 8.0.46 run
    `skip-innodb-doublewrite=0` and `disable-…=0` with innodb_doublewrite ON, `enable-…=0` with it OFF,
    and `skip-…=1`, `=OFF`, `=00`, `enable-…=OFF` as the bare prefix. `maximum-`/`autoset-` keep `given`.
    """
    if PREFIX_VALUES[prefix] is None:
        return given
    return "ON" if special_value([prefix], given) == "1" else "OFF"


_CACHE: dict[str, NameParts | None] = {}
#: Read-only view for hot loops: `name_cache.get(raw)` answers repeated names without a call.
name_cache: Final = _CACHE
_CACHE_LIMIT: Final = 20_000


def normalise(raw: str) -> str:
    """`Innodb-Buffer-Pool-Size` → `innodb_buffer_pool_size` (no prefix handling)."""
    return raw.lower().replace("-", "_")


def _split(raw: str) -> NameParts | None:
    if _NAME_RE.match(raw) is None:
        return None
    name = raw.lower().replace("-", "_")
    loose = name.startswith("loose_")
    if loose:
        name = name[6:]
    if name in REAL_PREFIXED_NAMES:
        return name, None, loose
    for word, length in _PREFIX_LENGTHS:
        if name.startswith(word) and name[length - 1 : length] == "_" and len(name) > length:
            return name[length:], word, loose
    if not name:
        return None
    return name, None, loose


def split_option_name(raw: str) -> NameParts | None:
    """`loose-skip-innodb` → (`innodb`, `skip`, True); None when `raw` cannot be an option name.

    Memoised: a fleet of option files repeats the same few hundred names.
    """
    try:
        return _CACHE[raw]
    except KeyError:
        pass
    if len(_CACHE) >= _CACHE_LIMIT:
        _CACHE.clear()
    found = _CACHE[raw] = _split(raw)
    return found
