"""Replication topology facts several advisors read: binary logging on or off, its format, the
isolation level in effect (and whether it refuses statement-format logging), and the change to ROW.

Shared by the replication, durability, isolation and group_commit advisors.
"""

from __future__ import annotations

import zlib
from typing import TYPE_CHECKING, Any

from advisor.model import Role
from advisor.units import parse_bool

if TYPE_CHECKING:
    from advisor.context import AuditContext, Setting
    from advisor.inputs.optionfiles import OptionEntry

# Which source wins when both isolation variables are shown: live, then the file, then the default.
SOURCE_RANK = {"live": 0, "persisted": 1, "cnf": 2, "default": 3}
LOOSE_LEVELS = frozenset({"READ-COMMITTED", "READ-UNCOMMITTED"})


def binlog_enabled(ctx: AuditContext) -> bool | None:
    """Is binary logging on? `log_bin = mysql-bin` (a base name) means on; None when unknown."""
    for name in ("skip_log_bin", "disable_log_bin"):
        if ctx.config.flag(name):
            return False
    setting = ctx.config.get("log_bin")
    if setting is None:
        return None
    flag = parse_bool(setting.value) if setting.value.strip() else True
    return True if flag is None else flag


def file_log_bin_line(ctx: AuditContext) -> OptionEntry | None:
    """The option files' last log_bin line in the groups the server reads (`skip-log-bin` is one too)."""
    found = ctx.options.effective(ctx.groups_read).get("log_bin") if ctx.options is not None else None
    return found.entry if found is not None else None


def file_turns_binlog_off(ctx: AuditContext) -> bool:
    """The option files' last log_bin line is `skip-log-bin` or `disable-log-bin`: the only lines that turn
    binary logging off (`log_bin = OFF` names the files OFF.000001 and turns it on)."""
    entry = file_log_bin_line(ctx)
    return entry is not None and entry.prefix in ("skip", "disable")


def server_id_mandatory(ctx: AuditContext) -> bool:
    """Would a restart abort for want of a server_id, were the binary log on? MySQL (and Percona Server)
    5.7.3 to 5.7.x: "You have enabled the binary log, but you haven't provided the mandatory server-id"
    (5.7.42's mysqld --verbose --help aborts so; any server_id option, 0 included, satisfies it). 8.0
    defaults it to 1 and MariaDB starts either way. Only option files count at a restart: with a live
    dump showing a server_id other than the default 0, one was given (on the command line, which we do
    not see), and a restart gives it again."""
    version = ctx.version
    if not version.is_mysql_family or not version.at_least(5, 7, 3) or version.at_least(8, 0):
        return False
    setting = ctx.config.get("server_id")
    if setting is None:
        return True
    return setting.file_value is None and (setting.source != "live" or ctx.config.number("server_id") == 0)


def proposed_server_id(ctx: AuditContext) -> tuple[int, str]:
    """The server_id to write where none (or 0) is given, and why: 1 (what MySQL 8.0 and MariaDB take
    when none is given) — except on a replica, whose primary most likely has 1 already: equal ids stop
    replication (error 1593), so a replica's id is drawn from its host name (the live dump's
    `hostname`), else from its option files, between 2 and 2**31 - 1."""
    if ctx.role != Role.REPLICA:
        return 1, "1 is what MySQL 8.0 and MariaDB take when none is given"
    hostname = ctx.config.text("hostname")
    if hostname:
        basis, what = hostname, f"drawn from the host name {hostname}"
    else:
        files = ctx.options.files if ctx.options is not None else {}
        basis = "".join(option_file.serialise() for option_file in files.values())
        what = (
            "drawn from its option files, as no host name was given — so not made unique: replicas set up "
            "from one file get the same id, and each needs its own"
        )
    number = 2 + zlib.crc32(basis.encode()) % (2**31 - 2)
    return number, f"a replica: not 1, which its primary most likely has; {what}"


def binlog_format(ctx: AuditContext) -> str | None:
    """`ROW`, `STATEMENT` or `MIXED` (upper case), None where the version has no such variable."""
    value = ctx.config.text("binlog_format")
    return value.strip().strip("'\"").upper() if value else None


def isolation_setting(ctx: AuditContext) -> Setting | None:
    """The server's default isolation level, from whichever name this version shows.

    MySQL 5.7.20+ and MariaDB 11.1+ show both `transaction_isolation` and `tx_isolation`; older ones
    only `tx_isolation`, though the option-file name was always `transaction-isolation`. A
    `tx_isolation` line in a file is no setting at all (the server rejects it), so it never counts.
    """
    best: Setting | None = None
    for name in ("transaction_isolation", "tx_isolation"):
        found = ctx.config.get(name)
        if found is None or (name == "tx_isolation" and found.source == "cnf"):
            continue
        if best is None or SOURCE_RANK[found.source] < SOURCE_RANK[best.source]:
            best = found
    return best


def normalise_level(text: str) -> str:
    """`READ-COMMITTED` however it was spelled (`read_committed`, `'READ COMMITTED'`)."""
    return text.strip().strip("'\"").upper().replace("_", "-").replace(" ", "-")


def isolation_level(setting: Setting | None) -> str | None:
    """The normalised level of an isolation setting, None without one."""
    return None if setting is None else normalise_level(setting.value)


def statement_format_refused(ctx: AuditContext) -> bool:
    """READ COMMITTED / READ UNCOMMITTED: InnoDB refuses statement-format logging outright."""
    return isolation_level(isolation_setting(ctx)) in LOOSE_LEVELS


def row_format_change(ctx: AuditContext) -> dict[str, Any]:
    """Proposal fields that switch to row-based logging.

    From MySQL 8.0.34 binlog_format is deprecated and ROW is the default, so a line in a file is
    commented out rather than rewritten; elsewhere the variable is set to ROW.
    """
    setting = ctx.config.get("binlog_format")
    deprecated = ctx.version.is_mysql_family and ctx.version.at_least(8, 0, 34)
    if deprecated and setting is not None and setting.file and setting.line and setting.source == "cnf":
        return {
            "variable": "binlog_format",
            "change": "comment_out",
            "option_file": setting.file,
            "option_line": setting.line,
        }
    return {"variable": "binlog_format", "recommended": "ROW"}
