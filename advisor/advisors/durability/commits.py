"""Committed transactions that survive a crash: the redo log and binary log flushed at commit."""

from __future__ import annotations

from collections.abc import Iterator

from advisor.advisors.durability.common import relaxed_for_role
from advisor.context import AuditContext
from advisor.derived.replication import binlog_enabled
from advisor.derived.settings import setting_evidence
from advisor.derived.workload import commit_rate
from advisor.findings import Evidence, Severity
from advisor.model import Profile, Role
from advisor.references import (
    MARIADB_INNODB_VARIABLES,
    MARIADB_REPLICATION_VARIABLES,
    MYSQL_BINLOG_OPTIONS,
    MYSQL_INNODB_PARAMETERS,
)
from advisor.rules import Proposal, rule


def _loss_window_seconds(ctx: AuditContext) -> tuple[int, Evidence | None]:
    """Seconds between background redo flushes (innodb_flush_log_at_timeout where it exists)."""
    setting = (
        ctx.config.get("innodb_flush_log_at_timeout") if ctx.knows("innodb_flush_log_at_timeout") else None
    )
    seconds = ctx.config.number("innodb_flush_log_at_timeout") if setting is not None else None
    if setting is None or not seconds:
        return ctx.thresholds.durability.log_flush_interval_seconds, None
    return seconds, setting_evidence(setting)


@rule(
    "durability.flush_log_at_trx_commit",
    Severity.WARNING,
    [
        f"{MYSQL_INNODB_PARAMETERS}#sysvar_innodb_flush_log_at_trx_commit",
        f"{MARIADB_INNODB_VARIABLES}#innodb_flush_log_at_trx_commit",
    ],
)
def flush_log_at_trx_commit(ctx: AuditContext) -> Iterator[Proposal]:
    """What it checks: production servers with innodb_flush_log_at_trx_commit 0 or 2 (MariaDB's 3
    syncs like 1 and is fine).

    Why it matters: with 2 the redo log reaches the disk about once per innodb_flush_log_at_timeout
    (1 s): an OS crash or power loss loses up to that much of committed transactions. With 0 a mysqld
    crash alone loses them too. With binary logging the binlog may then hold transactions InnoDB lost:
    replicas have data the recovered primary does not.

    What we recommend: 1 on primaries and standalone servers.

    Caveats: a replica may run with 2 (notice): after an OS crash it is behind its recorded position;
    with crash-safe replication it re-fetches the lost transactions from the primary, otherwise (or
    when it writes its own binary log) it must be rebuilt. The transaction estimate uses the observed
    commit rate when status is given. CI profiles are judged by durability.ci_relaxations instead.
    """
    setting = ctx.config.get("innodb_flush_log_at_trx_commit")
    if ctx.profile == Profile.CI or setting is None or setting.value.strip() not in ("0", "2"):
        return
    seconds, timeout = _loss_window_seconds(ctx)
    crash = (
        "an OS crash or power loss" if setting.value.strip() == "2" else "any crash, even of mysqld alone,"
    )
    evidence = [setting_evidence(setting), *((timeout,) if timeout is not None else ())]
    loss = f"up to ~{seconds} s of committed transactions"
    rate = commit_rate(ctx)
    if rate is not None:
        loss += f" (~{rate.per_second * seconds:.0f} at the observed {rate.per_second:.0f} commits/s)"
        evidence.append(Evidence("commits per second", f"{rate.per_second:.0f}", rate.source))
    binlog = " The binary log may then hold transactions InnoDB lost." if binlog_enabled(ctx) else ""
    replica = (
        " On a replica this is a common trade-off: with crash-safe replication (relay_log_recovery=ON "
        "and a transactional position) it re-fetches them from the primary; otherwise it must be rebuilt."
        if ctx.role == Role.REPLICA
        else ""
    )
    yield Proposal(
        title=f"innodb_flush_log_at_trx_commit={setting.value.strip()}: commits are not durable",
        rationale=f"After {crash} InnoDB loses {loss} that clients were told had succeeded.{binlog}{replica}",
        evidence=tuple(evidence),
        variable="innodb_flush_log_at_trx_commit",
        recommended="1",
        severity=relaxed_for_role(ctx),
    )


@rule(
    "durability.sync_binlog",
    Severity.WARNING,
    [f"{MYSQL_BINLOG_OPTIONS}#sysvar_sync_binlog", f"{MARIADB_REPLICATION_VARIABLES}#sync_binlog"],
)
def sync_binlog(ctx: AuditContext) -> Iterator[Proposal]:
    """What it checks: production servers with binary logging on and sync_binlog 0 or above 1 (MariaDB's
    default is 0; MySQL's is 1 from 5.7.7).

    Why it matters: with 0 the binlog reaches the disk whenever the OS writes it back (on Linux
    defaults, up to ~30 s later); with N > 1, every N commit groups. An OS crash or power loss loses
    that tail: replicas that already received those transactions diverge from the recovered primary,
    and point-in-time recovery has a gap.

    What we recommend: 1; group commit (see group_commit) keeps its fsync cost shared.

    Caveats: on a replica the binlog only serves its own replicas, backups and a promotion, so a
    notice. CI profiles are judged by durability.ci_relaxations.
    """
    setting = ctx.config.get("sync_binlog")
    value = ctx.config.number("sync_binlog")
    if ctx.profile == Profile.CI or setting is None or value is None or value == 1 or not binlog_enabled(ctx):
        return
    if value == 0:
        loss = "whatever the OS had not yet written back (on Linux defaults up to ~30 s of commits)"
    else:
        loss = f"up to {value} binlog commit groups (each one or more transactions)"
    yield Proposal(
        title=f"sync_binlog={value}: the binary log is not synced at each commit",
        rationale=f"An OS crash or power loss loses {loss} from the binary log. Replicas that had "
        "already received them now hold transactions the primary lost and diverge; a point-in-time "
        "restore misses them.",
        evidence=(setting_evidence(setting), Evidence("log_bin", "ON", "effective configuration")),
        variable="sync_binlog",
        recommended="1",
        severity=relaxed_for_role(ctx),
    )
