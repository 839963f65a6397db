"""Replication: binary logging on the servers that need it, statement-safe formats, server ids, read-only
replicas and binlog retention.

Crash-safe replica settings (relay_log_recovery, relay_log_info_repository, sync_relay_log) belong to
the durability advisor; an unknown or removed option (expire_logs_days on 8.4) to config_validity. The facts
it shares with the durability, isolation and group_commit advisors (binary logging on or off, the
isolation level in effect) live in advisor.derived.replication.
"""

from __future__ import annotations

from collections.abc import Iterator

from advisor.context import AuditContext
from advisor.derived.replication import (
    binlog_enabled,
    binlog_format,
    row_format_change,
    statement_format_refused,
)
from advisor.derived.settings import setting_evidence
from advisor.findings import Evidence, Severity
from advisor.references import (
    MARIADB_BINLOG_FORMATS,
    MARIADB_REPLICATION_VARIABLES,
    MARIADB_SERVER_VARIABLES,
    MYSQL_BINLOG_OPTIONS,
    MYSQL_SERVER_VARIABLES,
)
from advisor.rules import ALL_VERSIONS, Proposal, Rule, Versions, rule
from advisor.units import parse_bool

_DAY_SECONDS = 86_400


def _first_known(ctx: AuditContext, *names: str) -> str:
    """The first of several names (new spelling first) that this version has."""
    return next((name for name in names if ctx.knows(name)), names[-1])


# ---------------------------------------------------------------- rules
@rule(
    "replication.sql_log_bin_global_off",
    Severity.CRITICAL,
    [
        "https://dev.mysql.com/doc/refman/5.6/en/set-sql-log-bin.html",
        "https://dev.mysql.com/worklog/task/?id=10922",
        "https://mariadb.com/kb/en/set-sql_log_bin/",
    ],
    versions=Versions(mysql=((5, 5), (5, 7)), mariadb=((0,), (99,))),
)
def sql_log_bin_global_off(ctx: AuditContext) -> Iterator[Proposal]:
    """What it checks: the global sql_log_bin is OFF in SHOW GLOBAL VARIABLES while binary logging is
    on. MySQL 5.5 and 5.6 accepted SET GLOBAL sql_log_bin until later patch releases made the global
    value read-only (MySQL Bug #67433); 5.7 is read-only and 8.0 has no global value.

    Why it matters: every session opened after the change starts with sql_log_bin=OFF, so its writes
    never reach the binary log: replicas silently miss them and diverge, and point-in-time recovery
    from the binlog has holes.

    What we recommend: SET GLOBAL sql_log_bin = ON at once, then reconnect the applications (sessions
    keep the value they started with) and check the replicas with pt-table-checksum.

    Caveats: only a live variables dump shows the global value (it cannot be set in a my.cnf). Critical
    on a primary; a warning elsewhere, where only point-in-time recovery and downstream replicas suffer.
    """
    setting = ctx.config.get("sql_log_bin")
    if setting is None or setting.source != "live" or parse_bool(setting.value) is not False:
        return
    if binlog_enabled(ctx) is False:
        return
    primary = ctx.role == "primary"
    yield Proposal(
        title="Global sql_log_bin is OFF: new sessions write nothing to the binary log",
        rationale="Each new connection copies the global sql_log_bin=OFF, so its changes are applied "
        "locally but never logged. Replicas silently miss them and drift apart from this server; a "
        "point-in-time restore from the binlog misses them too. Run SET GLOBAL sql_log_bin = ON "
        "(it cannot go in a my.cnf) and reconnect the clients, then compare the replicas' data.",
        evidence=(setting_evidence(setting, "global sql_log_bin"), Evidence("role", ctx.role, "audit input")),
        severity=None if primary else Severity.WARNING,
    )


@rule(
    "replication.binlog_off_on_primary",
    Severity.WARNING,
    [f"{MYSQL_BINLOG_OPTIONS}#sysvar_log_bin", "https://mariadb.com/kb/en/activating-the-binary-log/"],
)
def binlog_off_on_primary(ctx: AuditContext) -> Iterator[Proposal]:
    """What it checks: a server audited as a primary runs without a binary log.

    Why it matters: replicas read the primary's binary log, so none can attach; and without it a
    restore stops at the last backup: point-in-time recovery is impossible.

    What we recommend: enable it (log_bin = binlog, with a unique server_id); where the file turns it
    off (skip-log-bin, disable-log-bin) comment that line out.

    Caveats: needs a restart and costs a write (and with sync_binlog=1 an fsync) per commit group.
    """
    if ctx.role != "primary" or binlog_enabled(ctx) is not False:
        return
    setting = ctx.config.get("log_bin")
    evidence = (setting_evidence(setting),) if setting is not None else ()
    rationale = (
        "This server is a primary but writes no binary log: replicas have nothing to read, and after "
        "a failure data can only be restored to the last backup (no point-in-time recovery)."
    )
    turned_off_in_file = (
        setting is not None
        and setting.file is not None
        and setting.line is not None
        and setting.file_value is not None
        and parse_bool(setting.file_value) is False
    )
    if setting is not None and turned_off_in_file:
        default_on = ctx.catalog.default("log_bin", ctx.version) is True
        extra = "" if default_on else " and add log_bin = binlog"
        yield Proposal(
            title="Binary logging is switched off on a primary",
            rationale=f"{rationale} Comment out the line that disables it{extra}.",
            evidence=evidence,
            variable="log_bin",
            change="comment_out",
            option_file=setting.file,
            option_line=setting.line,
        )
        return
    default_on = ctx.catalog.default("log_bin", ctx.version) is True
    hint = (
        " Binary logging is on by default in this version, so an option outside this file "
        "(--skip-log-bin or --disable-log-bin on the command line) turns it off: remove that too."
        if default_on
        else ""
    )
    yield Proposal(
        title="Binary logging is off on a primary",
        rationale=f"{rationale} Set log_bin to a base name (files binlog.000001, ...) and restart.{hint}",
        evidence=evidence,
        variable="log_bin",
        recommended="binlog",
    )


@rule(
    "replication.binlog_format_statement",
    Severity.WARNING,
    [
        "https://dev.mysql.com/doc/refman/8.0/en/replication-sbr-rbr.html",
        f"{MYSQL_BINLOG_OPTIONS}#sysvar_binlog_format",
        MARIADB_BINLOG_FORMATS,
    ],
    versions=Versions(mysql=((5, 1, 5), (99,)), mariadb=((0,), (99,))),
)
def binlog_format_statement(ctx: AuditContext) -> Iterator[Proposal]:
    """What it checks: binary logging is on with binlog_format=STATEMENT.

    Why it matters: statements whose result is not deterministic (UPDATE ... LIMIT without ORDER BY,
    UUID(), SYSDATE(), INSERT ... SELECT in another order, triggers with AUTO_INCREMENT) run differently
    on a replica or a point-in-time replay: the copies silently differ. The server only warns.

    What we recommend: ROW (or MIXED, which is acceptable). From MySQL 8.0.34 binlog_format itself is
    deprecated and ROW is the only future: remove the line instead of rewriting it.

    Caveats: row format logs more bytes for big multi-row changes. With READ COMMITTED or READ
    UNCOMMITTED statement format does not merely diverge, writes fail:
    isolation.read_committed_statement_binlog reports that case and this rule stays quiet. Warning on
    a primary, notice elsewhere.
    """
    if binlog_format(ctx) != "STATEMENT" or not binlog_enabled(ctx) or statement_format_refused(ctx):
        return
    setting = ctx.config.get("binlog_format")
    if setting is None:
        return
    deprecated = ctx.version.is_mysql_family and ctx.version.at_least(8, 0, 34)
    note = " binlog_format is deprecated from MySQL 8.0.34 (ROW is the default)." if deprecated else ""
    yield Proposal(
        title="Statement-based binary logging replicates unsafe statements wrongly",
        rationale="With STATEMENT format a replica re-executes each statement; any statement whose "
        "result depends on row order, time or randomness (LIMIT without ORDER BY, UUID(), SYSDATE()) "
        "then changes different rows there, and the replica silently diverges. ROW logs the changed "
        f"rows themselves.{note}",
        evidence=(setting_evidence(setting), Evidence("log_bin", "ON", "effective configuration")),
        severity=None if ctx.role == "primary" else Severity.NOTICE,
        **row_format_change(ctx),
    )


@rule(
    "replication.server_id_unset",
    Severity.CRITICAL,
    [
        "https://dev.mysql.com/doc/refman/8.0/en/replication-options.html#sysvar_server_id",
        "https://dev.mysql.com/doc/refman/5.7/en/replication-options.html",
        f"{MARIADB_REPLICATION_VARIABLES}#server_id",
    ],
)
def server_id_unset(ctx: AuditContext) -> Iterator[Proposal]:
    """What it checks: server_id is 0 while binary logging is on or the server is a replica; or a replica
    still has the default id 1 from no option file.

    Why it matters: a replica with id 0 refuses to start replicating, a source with id 0 refuses
    replicas (MySQL 5.7 does not even start with log_bin and no server_id). Two servers with the same
    id break replication: the source drops one of them, or events are skipped as the replica's own.

    What we recommend: a unique, explicit server_id on every server of the topology (for example
    derived from the IP address). We cannot pick the number for you.

    Caveats: critical on a primary or replica with id 0, a warning on a standalone server with binary
    logging, a notice for a replica left at the default 1.
    """
    setting = ctx.config.get("server_id")
    if setting is None:
        return
    value = ctx.config.number("server_id")
    binlog = binlog_enabled(ctx)
    replicating = ctx.role in ("primary", "replica")
    if value == 0 and (replicating or binlog):
        yield Proposal(
            title="server_id is 0: replication cannot run",
            rationale="Replication identifies every server by server_id; 0 means unset. A replica "
            "with id 0 will not connect to its source and a source with id 0 refuses replicas "
            "(MySQL 5.7 refuses to start with binary logging and no server_id). Set a unique "
            "number on each server and restart.",
            evidence=(setting_evidence(setting), Evidence("role", ctx.role, "audit input")),
            variable="server_id",
            severity=None if replicating else Severity.WARNING,
        )
    elif value == 1 and ctx.role == "replica" and setting.file_value is None:
        yield Proposal(
            title="Replica runs with the default server_id 1",
            rationale="Every new server gets server_id 1, very often the primary too. Two servers "
            "with one id cannot replicate (the replica's I/O thread stops, or drops the events as its "
            "own). Set an explicit, unique server_id in the option file.",
            evidence=(setting_evidence(setting),),
            variable="server_id",
            severity=Severity.NOTICE,
        )


@rule(
    "replication.replica_updates_off",
    Severity.INFO,
    [
        f"{MYSQL_BINLOG_OPTIONS}#sysvar_log_replica_updates",
        f"{MARIADB_REPLICATION_VARIABLES}#log_slave_updates",
    ],
)
def replica_updates_off(ctx: AuditContext) -> Iterator[Proposal]:
    """What it checks: a replica does not write the changes it applies to its own binary log
    (log_replica_updates from MySQL 8.0.26, log_slave_updates before and on MariaDB).

    Why it matters: if this replica is ever promoted, the other replicas cannot continue from it and
    its binary log lacks everything it applied: no point-in-time recovery across the switch.

    What we recommend: ON on replicas that may be promoted (with binary logging on).

    Caveats: information only: a replica used purely for reads or backups does not need it, and it
    costs binlog writes. MySQL 8.0 turns it on by default.
    """
    if ctx.role != "replica":
        return
    name = _first_known(ctx, "log_replica_updates", "log_slave_updates")
    setting = ctx.config.get(name)
    if setting is None or parse_bool(setting.value) is not False:
        return
    binlog = binlog_enabled(ctx)
    extra = " Binary logging is off here too: enable log_bin as well." if binlog is False else ""
    yield Proposal(
        title=f"Replica does not log what it applies ({name}=OFF)",
        rationale="If this replica is promoted to primary, the remaining replicas cannot follow it "
        "and its own binary log holds none of the data it replicated, so point-in-time recovery "
        f"across the promotion is impossible.{extra}",
        evidence=(setting_evidence(setting),),
        variable=name,
        recommended="ON",
    )


@rule(
    "replication.replica_writable",
    Severity.WARNING,
    [
        f"{MYSQL_SERVER_VARIABLES}#sysvar_super_read_only",
        f"{MARIADB_SERVER_VARIABLES}#read_only",
    ],
)
def replica_writable(ctx: AuditContext) -> Iterator[Proposal]:
    """What it checks: a replica accepts writes from clients (read_only=OFF), or, on MySQL 5.7.8+,
    accounts with SUPER / CONNECTION_ADMIN still can (super_read_only=OFF).

    Why it matters: a stray write on a replica (a mis-pointed application, a manual fix) makes it
    differ from the primary; replication later stops on a duplicate key or silently keeps the drift.

    What we recommend: super_read_only=ON where it exists (it implies read_only), read_only=ON
    elsewhere (MariaDB has no super_read_only).

    Caveats: replication threads are never blocked. Warning when anyone can write; a notice when only
    privileged accounts can. On MariaDB accounts with READ_ONLY ADMIN (SUPER in older releases) still
    write through read_only.
    """
    if ctx.role != "replica":
        return
    read_only = ctx.config.get("read_only")
    if read_only is None:
        return
    has_super = ctx.knows("super_read_only")
    super_setting = ctx.config.get("super_read_only") if has_super else None
    variable = "super_read_only" if has_super else "read_only"
    if parse_bool(read_only.value) is False:
        yield Proposal(
            title="Replica accepts writes (read_only=OFF)",
            rationale="Any client that connects here by mistake can change data the primary does not "
            "have; replication then stops on a conflict or keeps the difference silently.",
            evidence=(setting_evidence(read_only),),
            variable=variable,
            recommended="ON",
        )
    elif super_setting is not None and parse_bool(super_setting.value) is False:
        yield Proposal(
            title="Replica is read-only except for privileged accounts",
            rationale="read_only does not stop accounts with SUPER (or CONNECTION_ADMIN): an admin "
            "script or tool run here still writes. super_read_only closes that gap.",
            evidence=(setting_evidence(read_only), setting_evidence(super_setting)),
            variable="super_read_only",
            recommended="ON",
            severity=Severity.NOTICE,
        )


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


RULES: tuple[Rule, ...] = (
    sql_log_bin_global_off,
    binlog_off_on_primary,
    binlog_format_statement,
    server_id_unset,
    replica_updates_off,
    replica_writable,
    binlog_retention_unset,
)
