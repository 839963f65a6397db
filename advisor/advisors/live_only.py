"""Settings running live that no uploaded option file sets: SET GLOBAL lasts until the next restart.

The effective configuration (advisor.effective) takes a live value over the file's; a tuned setting
whose source is live, with no file value, and whose live value differs from the version's default was
set by SET GLOBAL (or by a file, or a command-line option, we were not given). After a restart the
server comes back with its default: a 12G pool falls to 128M, sync_binlog = 1 to 0 (checked on
MariaDB 10.11.19 with a fresh private instance). A DBA expects the recommended file to keep what runs
well today, so the line goes into the file with the live value (any other rule's advice for the same
variable wins: the proposal is the user's own value, like a respelled line).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Final

from advisor.derived.settings import sized_by_dedicated_server
from advisor.findings import Evidence, Severity
from advisor.references import MARIADB_SERVER_VARIABLES, MYSQL_SERVER_VARIABLES
from advisor.rules import Proposal, rule
from advisor.sql import default_text, same_value
from advisor.units import format_size

if TYPE_CHECKING:
    from advisor.context import AuditContext

MARIADB_SET = "https://mariadb.com/kb/en/set/"
MYSQL_SET_VARIABLE = "https://dev.mysql.com/doc/refman/8.0/en/set-variable.html"

#: Losing these at a restart loses committed transactions in a crash: a warning.
DURABILITY: Final = ("sync_binlog", "innodb_flush_log_at_trx_commit", "innodb_doublewrite")
#: The settings the advisors tune (a live value of any other variable is not ours to keep). Autosized
#: ones (thread_cache_size, table_open_cache, innodb_io_capacity_max) are left out: their catalog
#: default is not what a restart gives.
TUNED: Final = (
    *DURABILITY,
    "innodb_buffer_pool_size",
    "innodb_io_capacity",
    "innodb_flush_neighbors",
    "innodb_log_buffer_size",
    "innodb_adaptive_hash_index",
    "binlog_expire_logs_seconds",
    "expire_logs_days",
    "binlog_commit_wait_count",
    "binlog_commit_wait_usec",
    "binlog_group_commit_sync_delay",
    "max_connections",
    "tmp_table_size",
    "max_heap_table_size",
    "sort_buffer_size",
    "join_buffer_size",
)

#: Byte sizes written with a K/M/G suffix, as a DBA writes them.
_SIZES: Final = frozenset(
    {
        "innodb_buffer_pool_size",
        "innodb_log_buffer_size",
        "tmp_table_size",
        "max_heap_table_size",
        "sort_buffer_size",
        "join_buffer_size",
    }
)


#: Options that set the same value under another name: a file setting one of them sets the variable.
_SAME_SETTING: Final = {
    "binlog_expire_logs_seconds": ("expire_logs_days",),
    "expire_logs_days": ("binlog_expire_logs_seconds",),
}


def _set_in_file(ctx: AuditContext, name: str) -> bool:
    setting = ctx.config.get(name)
    return setting is not None and setting.file_value is not None


def _written(name: str, value: str) -> str:
    """`12G`, not 12884901888, for a size; other values as the server prints them."""
    return format_size(int(value)) if name in _SIZES and value.isdigit() else value


# MySQL 8.0+ keeps SET PERSIST values in mysqld-auto.cnf (the data directory), read after the option files:
# such a value does come back at a restart, and overrides the file's line. SHOW GLOBAL VARIABLES cannot tell;
# the persisted values (`innotune collect` takes them, `--persisted`) can: a persisted setting is quiet here.
_PERSISTED = (
    " On MySQL 8.0+ a value set with SET PERSIST is kept in mysqld-auto.cnf and read after the option files, "
    "so it does come back (and wins over the file): SELECT VARIABLE_NAME FROM "
    "performance_schema.variables_info WHERE VARIABLE_SOURCE = 'PERSISTED' lists them (give the persisted "
    "values to the audit, `--persisted`, and it tells them apart); RESET PERSIST name leaves the setting to "
    "the file."
)
_NOT_PERSISTED = " The persisted values given (mysqld-auto.cnf) do not set it either."


@rule(
    "live_only.lost_at_restart",
    Severity.NOTICE,
    [MARIADB_SET, MYSQL_SET_VARIABLE, MARIADB_SERVER_VARIABLES, MYSQL_SERVER_VARIABLES],
)
def lost_at_restart(ctx: AuditContext) -> Iterator[Proposal]:
    """What it checks: tuned settings (buffer pool, durability, I/O capacity, binary log expiry,
    connection and buffer sizes) whose live value (SHOW GLOBAL VARIABLES) differs from the version's
    default while no uploaded option file sets them.

    Why it matters: SET GLOBAL lasts until the server stops; at the next restart the default comes back
    (MariaDB 10.11: a 12G pool returns to 128M, sync_binlog = 1 to 0, binary logs are kept forever).
    Losing a durability setting loses committed transactions in the next crash: a warning; the others a
    notice.

    What we recommend: the live value written into the recommended file, in the [mysqld] group, so the
    server restarts as it runs today; another rule's advice for the same variable takes precedence.

    Caveats: only option files uploaded are seen: a file not uploaded (a conf.d drop-in) or a
    command-line option may already set the value; then the line is redundant, not wrong. On MySQL 8.0+
    a value kept by SET PERSIST (mysqld-auto.cnf) comes back: given the persisted values (`--persisted`,
    collected by `innotune collect`), a persisted setting is not reported; without them the finding says
    how to check. Quiet without any uploaded file or SHOW GLOBAL VARIABLES.
    """
    if ctx.options is None or not ctx.options.entries():
        return
    for name in TUNED:
        setting = ctx.config.get(name)
        if setting is None or setting.source != "live" or setting.file_value is not None:
            continue
        if setting.persisted_value is not None:
            continue  # mysqld-auto.cnf brings it back (a live value departing from it is drift)
        if setting.live_source != "SHOW GLOBAL VARIABLES" or sized_by_dedicated_server(ctx, setting):
            continue
        if name == "expire_logs_days" and ctx.knows("binlog_expire_logs_seconds"):
            continue  # the two are one setting where both exist: binlog_expire_logs_seconds is kept
        if any(_set_in_file(ctx, other) for other in _SAME_SETTING.get(name, ())):
            continue  # Debian's `expire_logs_days = 10` sets binlog_expire_logs_seconds = 864000
        default = default_text(ctx.catalog.default(name, ctx.version))
        if default is None or same_value(ctx.catalog, ctx.version, name, setting.value, default):
            continue
        durable = name in DURABILITY
        value = _written(name, setting.value)
        yield Proposal(
            title=f"{name} = {value} runs live but no uploaded file sets it",
            rationale=f"The server runs with {name} = {setting.value}, but no option file we were given "
            f"sets it: it was set with SET GLOBAL (or by a file or option we did not see), and at the next "
            f"restart it returns to the default {default}"
            + (", which weakens what survives a crash" if durable else "")
            + ". The recommended file keeps the running value, unless another finding here recommends a "
            "different one for it. If a file not uploaded already sets it, the line is redundant."
            + _persisted_hint(ctx),
            evidence=(
                Evidence(name, setting.value, "SHOW GLOBAL VARIABLES"),
                Evidence("default for this version", default, "version catalog"),
                Evidence("uploaded option files", "do not set it", "my.cnf and its includes"),
            ),
            variable=name,
            recommended=value,
            severity=Severity.WARNING if durable else None,
            correction=True,
        )


def _persisted_hint(ctx: AuditContext) -> str:
    if not (ctx.version.is_mysql_family and ctx.version.at_least(8, 0)):
        return ""
    return _PERSISTED if ctx.config.persisted is None else _NOT_PERSISTED


RULES = (lost_at_restart,)
