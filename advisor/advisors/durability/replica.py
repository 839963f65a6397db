"""Crash-safe replicas: positions kept with the data, relay logs recovered or synced."""

from __future__ import annotations

from collections.abc import Iterator

from advisor.context import AuditContext
from advisor.derived.settings import setting_evidence
from advisor.findings import Evidence, Severity
from advisor.model import Profile, Role
from advisor.references import MARIADB_REPLICATION_VARIABLES, MYSQL_REPLICA_OPTIONS
from advisor.rules import Proposal, mysql_only, rule
from advisor.units import parse_bool

_REPLICA_HALT = "https://dev.mysql.com/doc/refman/8.0/en/replication-solutions-unexpected-replica-halt.html"


def _gtid_auto_position_likely(ctx: AuditContext) -> bool:
    """MySQL 8.0+ with gtid_mode=ON: auto-positioning recovers a replica with the TABLE repository."""
    mode = ctx.config.text("gtid_mode") if ctx.knows("gtid_mode") else None
    return ctx.version.at_least(8, 0) and (mode or "").upper() == "ON"


@rule(
    "durability.crash_safe_replica",
    Severity.WARNING,
    [
        _REPLICA_HALT,
        "https://dev.mysql.com/doc/refman/5.7/en/replication-solutions-unexpected-replica-halt.html",
        f"{MARIADB_REPLICATION_VARIABLES}#relay_log_recovery",
    ],
)
def crash_safe_replica(ctx: AuditContext) -> Iterator[Proposal]:
    """What it checks: a production replica whose applier position is kept in a file
    (relay_log_info_repository=FILE, MySQL 5.6/5.7 default) or without relay_log_recovery=ON.

    Why it matters: after a crash the position in relay-log.info can be behind or ahead of what InnoDB
    committed, and the relay log can be truncated: the replica re-applies or skips transactions
    (duplicate-key stops, silent divergence) and has to be rebuilt.

    What we recommend: relay_log_info_repository=TABLE (the position commits with the data; the
    default from MySQL 8.0.2) and relay_log_recovery=ON (discard the relay log after a crash and
    re-fetch from the primary). On MariaDB relay_log_recovery=ON.

    Caveats: MySQL 8.0+ with gtid_mode=ON and auto-positioning recovers without relay_log_recovery, so
    that part stays quiet there. On MariaDB (a notice) GTID replication with MASTER_USE_GTID and an
    InnoDB mysql.gtid_slave_pos is crash-safe by itself; MariaDB ignores relay_log_info_repository.
    """
    if ctx.profile == Profile.CI or ctx.role != Role.REPLICA:
        return
    repository = ctx.config.get("relay_log_info_repository")
    in_file = repository is not None and repository.value.strip().upper() != "TABLE"
    if (
        repository is not None
        and in_file
        and ctx.version.is_mysql_family
        and ctx.knows("relay_log_info_repository")
    ):
        yield Proposal(
            title="The replica's applier position is kept in a file",
            rationale="relay-log.info is written after each transaction and synced only every "
            "sync_relay_log_info transactions, so after a crash it disagrees with the data: the "
            "replica re-applies or skips transactions. In a table it commits with them.",
            evidence=(setting_evidence(repository),),
            variable="relay_log_info_repository",
            recommended="TABLE",
        )
    recovery = ctx.config.get("relay_log_recovery") if ctx.knows("relay_log_recovery") else None
    if recovery is None or parse_bool(recovery.value) is not False or _gtid_auto_position_likely(ctx):
        return
    yield Proposal(
        title="The replica keeps a possibly damaged relay log after a crash",
        rationale="Without relay_log_recovery the replica resumes from a relay log that may be cut "
        "short or hold half-written events after a crash; replication stops or applies garbage and the "
        "replica must be rebuilt. With it, the relay log is discarded and re-fetched from the primary.",
        evidence=(setting_evidence(recovery),),
        variable="relay_log_recovery",
        recommended="ON",
        severity=Severity.NOTICE if ctx.version.is_mariadb else None,
    )


def _parallel_workers(ctx: AuditContext) -> int:
    name = "replica_parallel_workers" if ctx.knows("replica_parallel_workers") else "slave_parallel_workers"
    return (ctx.config.number(name) or 0) if ctx.knows(name) else 0


def _commit_order_kept(ctx: AuditContext) -> bool:
    for name in ("replica_preserve_commit_order", "slave_preserve_commit_order"):
        if ctx.knows(name):
            return bool(ctx.config.flag(name))
    return False


@rule(
    "durability.sync_relay_log",
    Severity.NOTICE,
    [f"{MYSQL_REPLICA_OPTIONS}#sysvar_sync_relay_log", _REPLICA_HALT],
    versions=mysql_only((5, 6, 3)),
)
def sync_relay_log(ctx: AuditContext) -> Iterator[Proposal]:
    """What it checks: a production MySQL replica applying in parallel without preserved commit order
    and without GTIDs, where sync_relay_log is not 1 and relay_log_recovery cannot fill gaps itself
    (before 8.0.13, or relay_log_recovery=OFF).

    Why it matters: a multi-threaded replica can crash with gaps (later transactions applied, earlier
    ones not); recovery fills them from the relay log. Up to sync_relay_log events (0: whatever the OS
    had not written) are missing after an OS crash, recovery then fails and the replica must be rebuilt.

    What we recommend: sync_relay_log=1, one fsync per received event.

    Caveats: the fsync per event slows the receiver on slow disks. replica_preserve_commit_order=ON
    (the default from 8.0.27) avoids gaps altogether and silences this rule.
    """
    if ctx.profile == Profile.CI or ctx.role != Role.REPLICA:
        return
    workers = _parallel_workers(ctx)
    setting = ctx.config.get("sync_relay_log")
    if setting is None or workers < 1 or _commit_order_kept(ctx) or _gtid_auto_position_likely(ctx):
        return
    recovery = ctx.config.flag("relay_log_recovery")
    if ctx.config.number("sync_relay_log") == 1 or (ctx.version.at_least(8, 0, 13) and recovery):
        return
    yield Proposal(
        title="A multi-threaded replica may not survive a crash with gaps",
        rationale=f"With {workers} parallel workers and commit order not preserved, a crash can leave "
        "gaps that recovery fills from the relay log; relay log events not yet synced are lost with an "
        "OS crash, recovery fails and the replica must be rebuilt.",
        evidence=(
            setting_evidence(setting),
            Evidence("parallel workers", str(workers), "effective configuration"),
        ),
        variable="sync_relay_log",
        recommended="1",
    )
