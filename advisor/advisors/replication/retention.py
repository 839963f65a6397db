"""Binary log retention: logs that are never purged."""

from __future__ import annotations

from collections.abc import Iterator

from advisor.context import AuditContext, Setting
from advisor.derived.replication import binlog_enabled
from advisor.derived.settings import setting_evidence
from advisor.findings import Evidence, Severity
from advisor.references import MARIADB_REPLICATION_VARIABLES, MYSQL_BINLOG_OPTIONS
from advisor.rules import ALL_VERSIONS, Proposal, rule

_DAY_SECONDS = 86_400


def _retention_seconds(ctx: AuditContext) -> tuple[float, list[Evidence]]:
    """Binlog retention in seconds from whichever variables this version has (0: never purged)."""
    seconds = 0.0
    evidence: list[Evidence] = []
    for name, scale in (("binlog_expire_logs_seconds", 1), ("expire_logs_days", _DAY_SECONDS)):
        setting = ctx.config.get(name) if ctx.knows(name) else None
        if setting is None:
            continue
        evidence.append(setting_evidence(setting))
        try:
            seconds = max(seconds, float(setting.value) * scale)  # MariaDB 10.6+ allows 0.5 days
        except ValueError:
            continue
    return seconds, evidence


@rule(
    "replication.binlog_retention_unset",
    Severity.NOTICE,
    [
        f"{MYSQL_BINLOG_OPTIONS}#sysvar_binlog_expire_logs_seconds",
        f"{MARIADB_REPLICATION_VARIABLES}#expire_logs_days",
    ],
    versions=ALL_VERSIONS,
)
def binlog_retention_unset(ctx: AuditContext) -> Iterator[Proposal]:
    """What it checks: binary logging is on but no retention is set (expire_logs_days and
    binlog_expire_logs_seconds both 0), so binary logs are never purged.

    Why it matters: the logs grow until the disk is full; then the server stops writing.

    What we recommend: a retention of 7 days: binlog_expire_logs_seconds where the version has it
    (MySQL 8.0.1+, MariaDB 10.6.1+), expire_logs_days before.

    Caveats: keep at least as long as the interval between full backups (point-in-time recovery needs
    every log since the last one) and longer than any replica may lag. MySQL 8.0.11+ keeps 30 days by
    default, so this fires there only when someone set 0. Removed variables (expire_logs_days on 8.2+)
    are config_validity's.
    """
    if not binlog_enabled(ctx):
        return
    seconds, evidence = _retention_seconds(ctx)
    if seconds > 0 or not evidence:
        return
    days = ctx.thresholds.replication.binlog_retention_days
    use_seconds = ctx.knows("binlog_expire_logs_seconds")
    yield Proposal(
        title="Binary logs are never purged",
        rationale=f"With retention 0 every binary log is kept forever and the disk eventually fills, "
        f"which stops all writes. Keep {days} days (longer than your full-backup interval and any "
        "replica lag).",
        evidence=tuple(evidence),
        variable="binlog_expire_logs_seconds" if use_seconds else "expire_logs_days",
        recommended=str(days * _DAY_SECONDS) if use_seconds else str(days),
    )


def _file_evidence(setting: Setting) -> Evidence:
    return Evidence(setting.name, str(setting.file_value), f"{setting.file}:{setting.line}")


def _file_number(ctx: AuditContext, name: str) -> float | None:
    setting = ctx.config.get(name) if ctx.knows(name) else None
    if setting is None or setting.file_value is None:
        return None
    try:
        return float(setting.file_value)
    except ValueError:
        return None


@rule(
    "replication.expire_logs_days_ignored",
    Severity.WARNING,
    [
        f"{MYSQL_BINLOG_OPTIONS}#sysvar_expire_logs_days",
        f"{MYSQL_BINLOG_OPTIONS}#sysvar_binlog_expire_logs_seconds",
    ],
    versions=ALL_VERSIONS,
)
def expire_logs_days_ignored(ctx: AuditContext) -> Iterator[Proposal]:
    """What it checks: on MySQL 8.0 (8.0.1 to 8.1), option files that set both expire_logs_days and
    binlog_expire_logs_seconds to nonzero values.

    Why it matters: MySQL then ignores expire_logs_days ("The option expire_logs_days cannot be used together
    with option binlog_expire_logs_seconds. Therefore, value of expire_logs_days is ignored", MY-011079, seen on
    8.0.46): the retention is binlog_expire_logs_seconds alone, whatever the days line says, and SET of either
    while the other is nonzero fails (ERROR 3683 and 4113).

    What we recommend: comment the expire_logs_days line out, so the file shows the retention in force.

    Caveats: MariaDB keeps the two as one setting (quiet there); a binlog_expire_logs_seconds of 0 leaves
    expire_logs_days in force (quiet too).
    """
    if ctx.version.is_mariadb or not ctx.version.at_least(8, 0, 1):
        return
    days, seconds = _file_number(ctx, "expire_logs_days"), _file_number(ctx, "binlog_expire_logs_seconds")
    setting, other = ctx.config.get("expire_logs_days"), ctx.config.get("binlog_expire_logs_seconds")
    if not days or not seconds or setting is None or other is None or setting.file is None:
        return
    yield Proposal(
        title="expire_logs_days is ignored beside binlog_expire_logs_seconds",
        rationale=f"The file sets expire_logs_days = {setting.file_value} and binlog_expire_logs_seconds = "
        f"{seconds:g}: {ctx.version.describe()} ignores expire_logs_days then (it logs MY-011079 at every start), "
        f"so binary logs are kept {seconds:g} seconds, not {days:g} days. Comment the expire_logs_days line out; "
        "set binlog_expire_logs_seconds to the retention you want.",
        evidence=(_file_evidence(setting), _file_evidence(other)),
        variable="expire_logs_days",
        change="comment_out",
        option_file=setting.file,
        option_line=setting.line,
    )
