"""Binary log retention: logs that are never purged."""

from __future__ import annotations

from collections.abc import Iterator

from advisor.context import AuditContext
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
