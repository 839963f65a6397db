"""Durability: what a crash can lose, judged by profile (production or throwaway CI data) and role.

Production: full durability, each risk stated in seconds or transactions; a replica may relax at the
price of a rebuild (or a re-fetch from the primary). CI: relax what throwaway data does not need.
This advisor owns the crash-safe replica settings (relay_log_recovery, relay_log_info_repository,
sync_relay_log); the replication advisor does not repeat them.
"""

from __future__ import annotations

from collections.abc import Iterator

from advisor.context import AuditContext
from advisor.derived.replication import binlog_enabled
from advisor.derived.settings import setting_evidence
from advisor.derived.workload import commit_rate
from advisor.findings import Evidence, Severity
from advisor.references import (
    MARIADB_INNODB_VARIABLES,
    MARIADB_REPLICATION_VARIABLES,
    MYSQL_BINLOG_OPTIONS,
    MYSQL_INNODB_PARAMETERS,
    MYSQL_REPLICA_OPTIONS,
)
from advisor.rules import Proposal, Rule, mysql_only, rule
from advisor.units import parse_bool

_REPLICA_HALT = "https://dev.mysql.com/doc/refman/8.0/en/replication-solutions-unexpected-replica-halt.html"
_NO_CHECKSUM = frozenset({"none", "strict_none"})


def _relaxed_for_role(ctx: AuditContext) -> Severity | None:
    """A replica may trade durability for speed: its findings drop to notices."""
    return Severity.NOTICE if ctx.role == "replica" else None


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
    if ctx.profile == "ci" or setting is None or setting.value.strip() not in ("0", "2"):
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
        if ctx.role == "replica"
        else ""
    )
    yield Proposal(
        title=f"innodb_flush_log_at_trx_commit={setting.value.strip()}: commits are not durable",
        rationale=f"After {crash} InnoDB loses {loss} that clients were told had succeeded.{binlog}{replica}",
        evidence=tuple(evidence),
        variable="innodb_flush_log_at_trx_commit",
        recommended="1",
        severity=_relaxed_for_role(ctx),
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
    if ctx.profile == "ci" or setting is None or value is None or value == 1 or not binlog_enabled(ctx):
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
        severity=_relaxed_for_role(ctx),
    )


@rule(
    "durability.doublewrite_off",
    Severity.WARNING,
    [
        "https://dev.mysql.com/doc/refman/8.0/en/innodb-doublewrite-buffer.html",
        f"{MARIADB_INNODB_VARIABLES}#innodb_doublewrite",
    ],
)
def doublewrite_off(ctx: AuditContext) -> Iterator[Proposal]:
    """What it checks: production servers with innodb_doublewrite=OFF (or DETECT_ONLY, MySQL 8.0.30+).

    Why it matters: a crash in the middle of a 16 KiB page write leaves a torn page that the redo log
    cannot repair; InnoDB then refuses to start or the table must be restored from backup.

    What we recommend: ON.

    Caveats: storage with atomic 16 KiB writes (ZFS, some NVMe/FusionIO devices) makes it redundant;
    we cannot see the file system. On a replica a torn page means a rebuild (notice). Before MySQL
    8.0.30 and on MariaDB the variable is not dynamic: the change waits for a restart.
    """
    setting = ctx.config.get("innodb_doublewrite")
    if ctx.profile == "ci" or setting is None:
        return
    value = setting.value.strip().upper()
    if parse_bool(value) is not False and value != "DETECT_ONLY":
        return
    yield Proposal(
        title="The doublewrite buffer is off: a torn page cannot be repaired",
        rationale="If the server or machine dies while writing a page, half of it is old and half new; "
        "without the doublewrite copy InnoDB cannot rebuild it and stops with a corruption error. "
        "The table must then be restored from backup (a replica rebuilt).",
        evidence=(setting_evidence(setting),),
        variable="innodb_doublewrite",
        recommended="ON",
        severity=_relaxed_for_role(ctx),
    )


def _checksum_target(ctx: AuditContext) -> str:
    """The algorithm to recommend instead of none: the version's own default family."""
    if ctx.version.is_mariadb and ctx.version.at_least(10, 5):
        return "full_crc32"
    return "crc32"


def _algorithm_off(ctx: AuditContext) -> Proposal | None:
    """innodb_checksum_algorithm none/strict_none, where this version accepts the value at all."""
    setting = ctx.config.get("innodb_checksum_algorithm") if ctx.knows("innodb_checksum_algorithm") else None
    facts = ctx.catalog.lookup("innodb_checksum_algorithm", ctx.version)
    value = setting.value.strip().lower() if setting is not None else ""
    if setting is None or value not in _NO_CHECKSUM or facts is None or value not in (facts.values or ()):
        return None
    return Proposal(
        title="InnoDB page checksums are disabled",
        rationale="Pages are written without a checksum, so a corrupted page is read as valid "
        "and its damage spreads silently into results, replicas and backups.",
        evidence=(setting_evidence(setting),),
        variable="innodb_checksum_algorithm",
        recommended=_checksum_target(ctx),
    )


@rule(
    "durability.checksums_off",
    Severity.WARNING,
    [
        f"{MYSQL_INNODB_PARAMETERS}#sysvar_innodb_checksum_algorithm",
        "https://dev.mysql.com/doc/refman/5.7/en/innodb-parameters.html#sysvar_innodb_checksums",
        f"{MARIADB_INNODB_VARIABLES}#innodb_checksum_algorithm",
    ],
)
def checksums_off(ctx: AuditContext) -> Iterator[Proposal]:
    """What it checks: page checksums switched off (innodb_checksum_algorithm none/strict_none where the
    version accepts it, innodb_checksums=OFF before MySQL 8.0 / MariaDB 10.3) or redo log checksums off
    (innodb_log_checksums=OFF, MySQL 5.7.9+, MariaDB 10.2–10.4).

    Why it matters: without checksums a page damaged by the disk, the controller or a torn write is
    read as if it were good: wrong results and corruption spread silently, including into backups.

    What we recommend: crc32 (full_crc32 on MariaDB 10.5+), innodb_checksums=ON, innodb_log_checksums=ON.

    Caveats: the change applies as pages are rewritten. A value the version rejects (none on MariaDB
    10.6+) is config_validity's finding. Quiet in the ci profile.
    """
    if ctx.profile == "ci":
        return
    algorithm = _algorithm_off(ctx)
    if algorithm is not None:
        yield algorithm
    for name, what in (("innodb_checksums", "page"), ("innodb_log_checksums", "redo log")):
        setting = ctx.config.get(name) if ctx.knows(name) else None
        facts = ctx.catalog.lookup(name, ctx.version)
        if setting is None or (facts is not None and facts.ignored) or parse_bool(setting.value) is not False:
            continue
        yield Proposal(
            title=f"InnoDB {what} checksums are disabled",
            rationale=f"With {name}=OFF a damaged {what} block is not detected: recovery or reads use "
            "corrupt data without an error.",
            evidence=(setting_evidence(setting),),
            variable=name,
            recommended="ON",
        )


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
    if ctx.profile == "ci" or ctx.role != "replica":
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
    if ctx.profile == "ci" or ctx.role != "replica":
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


@rule(
    "durability.ci_relaxations",
    Severity.INFO,
    [
        f"{MYSQL_INNODB_PARAMETERS}#sysvar_innodb_flush_log_at_trx_commit",
        f"{MYSQL_INNODB_PARAMETERS}#sysvar_innodb_doublewrite",
        f"{MYSQL_BINLOG_OPTIONS}#option_mysqld_log-bin",
        f"{MARIADB_INNODB_VARIABLES}#innodb_doublewrite",
    ],
)
def ci_relaxations(ctx: AuditContext) -> Iterator[Proposal]:
    """What it checks: in the ci profile, durability the throwaway data does not need:
    innodb_flush_log_at_trx_commit=1, the doublewrite buffer, sync_binlog, and binary logging itself.

    Why it matters: each costs fsyncs or extra writes per commit that make test suites slower while
    protecting data nobody will recover.

    What we recommend: innodb_flush_log_at_trx_commit=2 (a mysqld crash still loses nothing),
    innodb_doublewrite=OFF, sync_binlog=0, and skip-log-bin (disable-log-bin) unless the tests use
    replication or binlog features (MySQL 8.0 turns the binary log on by default).

    Caveats: information only; never use these settings where the data matters. Only variables the
    target version has are proposed.
    """
    if ctx.profile != "ci":
        return
    trx_commit = ctx.config.get("innodb_flush_log_at_trx_commit")
    if trx_commit is not None and trx_commit.value.strip() in ("1", "3"):
        yield Proposal(
            title="CI: flush the redo log once a second instead of at every commit",
            rationale="Throwaway data does not need an fsync per commit; 2 still survives a mysqld crash.",
            evidence=(setting_evidence(trx_commit),),
            variable="innodb_flush_log_at_trx_commit",
            recommended="2",
        )
    doublewrite = ctx.config.get("innodb_doublewrite")
    if doublewrite is not None and parse_bool(
        doublewrite.value.strip().upper().replace("DETECT_AND_RECOVER", "ON")
    ):
        yield Proposal(
            title="CI: skip the doublewrite buffer",
            rationale="It writes every page twice to survive torn pages on a crash; CI data is rebuilt "
            "instead.",
            evidence=(setting_evidence(doublewrite),),
            variable="innodb_doublewrite",
            recommended="OFF",
        )
    if not binlog_enabled(ctx):
        return
    sync = ctx.config.get("sync_binlog")
    if sync is not None and ctx.config.number("sync_binlog") != 0:
        yield Proposal(
            title="CI: let the OS flush the binary log",
            rationale="sync_binlog=0 saves an fsync per commit group; keep the binlog only if tests need it.",
            evidence=(setting_evidence(sync),),
            variable="sync_binlog",
            recommended="0",
        )
    log_bin = ctx.config.get("log_bin")
    yield Proposal(
        title="CI: run without a binary log",
        rationale="Unless the tests exercise replication or binlog features, add skip-log-bin under "
        "[mysqld] (and remove any log-bin line): no binlog writes or syncs at all.",
        evidence=(setting_evidence(log_bin),) if log_bin is not None else (),
    )


RULES: tuple[Rule, ...] = (
    flush_log_at_trx_commit,
    sync_binlog,
    doublewrite_off,
    checksums_off,
    crash_safe_replica,
    sync_relay_log,
    ci_relaxations,
)
