"""What a name/value listing is: a full SHOW GLOBAL VARIABLES, a filtered one, or SHOW GLOBAL STATUS.

A full variables listing is the truth of what exists on its server (advisor.context.LiveExistence), so
it must be told from an excerpt however long: `SHOW GLOBAL VARIABLES LIKE 'innodb%'` is 142 names on
MariaDB 10.11. A full one holds CORE_VARIABLES, names every server's listing has had since MySQL 5.0
and MariaDB 10.0 and that no single LIKE pattern short of `%` matches together (`port` and `sql_mode`
share only an `o`, which `datadir` lacks). `mysqld --verbose --help` lists options, not `version`.

The two listings are also told apart by their names: status counters (`Com_select`, `Handler_read_key`,
`Innodb_buffer_pool_read_requests`, `Uptime`) are no variable's name, and a status listing is at least
45% such counters (the corpus: 0.45 to 0.87), a variables listing none.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Collection

#: In every full SHOW GLOBAL VARIABLES (each real dump of the corpus, MySQL 5.0 to 8.0, MariaDB 5.5 to 10.11).
CORE_VARIABLES = (
    "version",
    "version_comment",
    "datadir",
    "basedir",
    "tmpdir",
    "pid_file",
    "port",
    "max_connections",
    "max_allowed_packet",
    "key_buffer_size",
    "sort_buffer_size",
    "character_set_server",
    "sql_mode",
    "server_id",
    "wait_timeout",
    "thread_cache_size",
    "open_files_limit",
)
#: What `mysqld --verbose --help` lists (options only: no version).
CORE_OPTIONS = tuple(name for name in CORE_VARIABLES if not name.startswith("version"))

# Status counter names no variable shares (checked against the catalog and the corpus dumps).
_STATUS_PREFIXES = (
    "com_",
    "handler_",
    "innodb_buffer_pool_pages_",
    "innodb_buffer_pool_read",
    "innodb_buffer_pool_write",
    "innodb_buffer_pool_bytes_",
    "innodb_data_read",
    "innodb_data_writ",
    "innodb_data_fsyncs",
    "innodb_data_pending_",
    "innodb_rows_",
    "innodb_row_lock_",
    "innodb_os_log_",
    "innodb_pages_",
    "innodb_dblwr_",
    "created_tmp_",
    "bytes_",
    "threads_",
    "qcache_",
    "aborted_",
    "select_full_",
    "select_range",
    "select_scan",
    "sort_merge_",
    "sort_range",
    "sort_rows",
    "sort_scan",
    "key_read",
    "key_write",
    "key_blocks_",
    "opened_",
    "table_locks_",
    "ssl_sessions_",
    "ssl_accept",
    "uptime",
)
_STATUS_NAMES = frozenset(
    {
        "questions",
        "queries",
        "slow_queries",
        "max_used_connections",
        "open_tables",
        "open_files",
        "innodb_log_writes",
        "innodb_log_write_requests",
        "innodb_log_waits",
    }
)


def _name_ranges(prefixes: tuple[str, ...], names: frozenset[str]) -> tuple[tuple[str, str], ...]:
    """Half-open ranges of sorted strings, one per prefix (every string starting with it) and one per
    name (the name alone), none overlapping: a prefix that extends another and a name that starts with
    a prefix are left out, being counted already."""
    kept = [prefix for prefix in prefixes if not any(p != prefix and prefix.startswith(p) for p in prefixes)]
    ranges = [(prefix, prefix[:-1] + chr(ord(prefix[-1]) + 1)) for prefix in kept]
    ranges += [(name, name + "\x00") for name in sorted(names) if not name.startswith(tuple(kept))]
    return tuple(ranges)


# Counted by bisecting the sorted names, not by trying ~650 names one at a time against the prefixes: a
# variables listing is checked on every parse, and its names come sorted (so sorting them is one pass).
_COUNTER_RANGES = _name_ranges(_STATUS_PREFIXES, _STATUS_NAMES)

#: At least this share of a listing's names being status counters makes it SHOW GLOBAL STATUS.
STATUS_SHARE = 0.3
#: A listing with this many CORE_VARIABLES and few counters is SHOW GLOBAL VARIABLES.
VARIABLES_MARKERS = 3


def missing_core(names: Collection[str], *, help_output: bool = False) -> tuple[str, ...]:
    """The core names a listing lacks: empty when it is a full listing of its server."""
    return tuple(name for name in (CORE_OPTIONS if help_output else CORE_VARIABLES) if name not in names)


def _is_counter(name: str) -> bool:
    return name in _STATUS_NAMES or name.startswith(_STATUS_PREFIXES)


def _counter_count(names: Collection[str]) -> int:
    """How many of the names are status counters (a name given twice counts twice)."""
    ordered = sorted(names)
    return sum([bisect_left(ordered, high) - bisect_left(ordered, low) for low, high in _COUNTER_RANGES])


def status_share(names: Collection[str]) -> float:
    """The share of the names that are status counters."""
    return _counter_count(names) / len(names) if names else 0.0


def looks_like_status(names: Collection[str]) -> bool:
    """Mostly status counters: a SHOW GLOBAL STATUS listing, whatever it was given as."""
    return status_share(names) >= STATUS_SHARE


def looks_like_variables(names: Collection[str]) -> bool:
    """Names only SHOW GLOBAL VARIABLES has (`version`, `datadir`, `max_connections`...), few counters."""
    markers = sum(1 for name in CORE_VARIABLES if name in names)
    return markers >= VARIABLES_MARKERS and not looks_like_status(names)


def example_counters(names: Collection[str], count: int = 3) -> str:
    """A few of the counters, for a message: `uptime, com_select, handler_read_key`."""
    found = [name for name in ("uptime", "com_select", "handler_read_key") if name in names]
    found += [name for name in sorted(names) if _is_counter(name) and name not in found]
    return ", ".join(found[:count])
