"""Why the server runs another value than the option file's when no SET GLOBAL could change that: a value
above the catalog's range, a table cache lowered to fit open_files_limit, an innodb_open_files above it, an
option MySQL ignores beside another. advisor.stored_value turns such a reason into drift without SQL."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from decimal import Decimal

from advisor.catalog import Catalog, VariableFacts
from advisor.stored_numbers import number, round_to_block
from advisor.version import ServerVersion


@dataclass(frozen=True, slots=True)
class NotRunning:
    """Why the server runs another value than the file's, and whether a restart is part of the remedy:
    True where the operating system's open-files limit held the value back (raise it, then restart), False
    where the file's value can never run (out of range, ignored beside another option): the file changes."""

    text: str
    restart: bool = False


def why_not_running(
    catalog: Catalog,
    version: ServerVersion,
    name: str,
    file_value: str,
    live_value: str,
    live: Callable[[str], str | None],
) -> NotRunning | None:
    """Why the server runs another value than the file's, when it could not run the file's at all."""
    wanted, running = number(file_value), number(live_value)
    if wanted is None or running is None or running == wanted:
        return None
    conflict = _exclusive_conflict(version, name, live) or _one_pool_instance(version, name, running, live)
    if conflict is not None:
        return NotRunning(conflict)
    facts = catalog.flavor_facts(name, version)
    if running < wanted and name in _OPEN_FILES_CLAMPS:
        found = _OPEN_FILES_CLAMPS[name](int(wanted), int(running), live)
        if (
            found is not None
        ):  # either remedy (a higher limit, or a smaller value in the file) takes a restart
            return NotRunning(found, restart=True)
    if running > wanted and name == "open_files_limit":
        return NotRunning(_open_files_raised(int(wanted), int(running)))
    outside = _out_of_range(facts, name, wanted, running)
    return NotRunning(outside) if outside is not None else None


#: MySQL 8.0 pairs of which only one may be nonzero: at startup the first is ignored when both are set
#: ("value of expire_logs_days is ignored", MY-011079), and SET GLOBAL/PERSIST of either while the other is
#: nonzero fails (ERROR 3683, and 4113 the other way round) — both seen on the real 8.0.46.
_EXCLUSIVE_MYSQL_8: dict[str, str] = {"expire_logs_days": "binlog_expire_logs_seconds"}


def _one_pool_instance(
    version: ServerVersion, name: str, running: Decimal, live: Callable[[str], str | None]
) -> str | None:
    """MySQL runs one buffer pool instance for a pool under 1 GiB, whatever innodb_buffer_pool_instances
    says (the MySQL manual: "takes effect only when you set innodb_buffer_pool_size to 1GB or more"; a
    persisted 2 ran 1 beside a 256M pool on the real 8.0.46)."""
    pool = _live_number(live, "innodb_buffer_pool_size")
    if name != "innodb_buffer_pool_instances" or version.is_mariadb or running != 1 or pool is None:
        return None
    if pool >= 1 << 30:
        return None
    return (
        f"MySQL runs one buffer pool instance for a pool under 1 GiB (here {pool >> 20} MiB), whatever "
        "innodb_buffer_pool_instances says; the value takes effect with a pool of 1 GiB or more"
    )


def _exclusive_conflict(version: ServerVersion, name: str, live: Callable[[str], str | None]) -> str | None:
    other = _EXCLUSIVE_MYSQL_8.get(name)
    if other is None or version.is_mariadb or not version.at_least(8, 0, 1):
        return None
    running = _live_number(live, other)
    if not running:
        return None
    return (
        f'MySQL ignores {name} while {other} is set (here {running}): it logs "value of {name} is ignored" at '
        f"startup, and SET refuses it (ERROR 3683); retention is {other}'s, so comment the {name} line out"
    )


def _out_of_range(facts: VariableFacts | None, name: str, wanted: Decimal, running: Decimal) -> str | None:
    if facts is None:
        return None
    high, low = facts.max, facts.min
    if (
        high is not None
        and wanted > Decimal(str(high))
        and running == round_to_block(facts, Decimal(str(high)))
    ):
        return (
            f"{name} = {wanted} is above the largest value the server takes ({high}): it runs {running}; "
            f"write {running} in the file"
        )
    if low is not None and wanted < Decimal(str(low)) and running == Decimal(str(low)):
        return (
            f"{name} = {wanted} is below the smallest value the server takes ({low}): it runs {running}; "
            f"write {running} in the file"
        )
    return None


def _live_number(live: Callable[[str], str | None], name: str) -> int | None:
    text = live(name)
    found = number(text) if text is not None else None
    return int(found) if found is not None else None


# At startup the server gives each connection a descriptor and each cached table up to two, keeping a few
# for itself, and lowers table_open_cache, then max_connections, to fit open_files_limit ("Changed limits:
# max_open_files: 20000 max_connections: 3000 (was 3000) table_cache: 8485 (was 30000)" on mariadbd
# 10.11.19; MySQL's manual: max_connections falls to open_files_limit - 810 at worst).
_RESERVED_FILES = 10
_FEWEST_CACHED_TABLES_FILES = 800
_RAISE_LIMIT = (
    "raise the server's open-files limit (LimitNOFILE in its systemd unit, or ulimit -n for mysqld_safe) "
    "and restart; no SET GLOBAL gives it more file descriptors"
)


def _table_cache_clamp(wanted: int, running: int, live: Callable[[str], str | None]) -> str | None:
    limit, connections = _live_number(live, "open_files_limit"), _live_number(live, "max_connections")
    if limit is None or connections is None or connections + 2 * wanted + _RESERVED_FILES <= limit:
        return None
    return (
        f"the server lowered table_open_cache from {wanted} to {running} at startup to fit open_files_limit "
        f"{limit} (two files per cached table, one per connection of max_connections {connections}): "
        + _RAISE_LIMIT
    )


def _connections_clamp(wanted: int, running: int, live: Callable[[str], str | None]) -> str | None:
    limit = _live_number(live, "open_files_limit")
    if limit is None or wanted + _RESERVED_FILES + _FEWEST_CACHED_TABLES_FILES <= limit:
        return None
    return (
        f"the server lowered max_connections from {wanted} to {running} at startup to fit open_files_limit "
        f"{limit}: " + _RAISE_LIMIT
    )


def _open_files_clamp(wanted: int, running: int, live: Callable[[str], str | None]) -> str | None:
    return (
        f"the operating system let the server open {running} files, not the {wanted} of the file: "
        + _RAISE_LIMIT
    )


def _open_files_raised(wanted: int, running: int) -> str:
    """Both servers raise the limit they ask the OS for to what their connections and table cache need
    (mariadbd 10.11.19 ran 393 for a file's 100 with max_connections 40 and table_open_cache 20; MySQL's
    manual: the largest of the value given, 10 + max_connections + 2 × table_open_cache, and 5 ×
    max_connections)."""
    return (
        f"the server raised open_files_limit from {wanted} to {running} at startup: it asks the operating "
        "system for at least what max_connections and table_open_cache need (a descriptor per connection, two "
        f"per cached table, a few for itself); write {running} in the file, or remove the line"
    )


def _innodb_open_files_clamp(wanted: int, running: int, live: Callable[[str], str | None]) -> str | None:
    limit = _live_number(live, "open_files_limit")
    if limit is None or wanted <= limit:
        return None
    return (
        f"innodb_open_files {wanted} is above open_files_limit {limit}: InnoDB ignored it at startup "
        '("innodb_open_files should not be greater than the open_files_limit": MySQL 5.7.42, 8.0.46 and '
        f"MariaDB 10.11.19 alike) and runs {running}; write at most {limit} in the file, or raise the "
        "open-files limit"
    )


_OPEN_FILES_CLAMPS: dict[str, Callable[[int, int, Callable[[str], str | None]], str | None]] = {
    "table_open_cache": _table_cache_clamp,
    "table_cache": _table_cache_clamp,
    "max_connections": _connections_clamp,
    "open_files_limit": _open_files_clamp,
    "innodb_open_files": _innodb_open_files_clamp,
}
