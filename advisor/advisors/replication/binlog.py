"""Binary logging on the servers that need it, and a statement-safe format."""

from __future__ import annotations

from collections.abc import Iterator

from advisor.context import AuditContext, Setting
from advisor.derived.replication import (
    binlog_enabled,
    binlog_format,
    file_log_bin_line,
    file_turns_binlog_off,
    row_format_change,
    server_id_mandatory,
    statement_format_refused,
)
from advisor.derived.settings import setting_evidence
from advisor.findings import Evidence, Severity
from advisor.model import Role
from advisor.references import MARIADB_BINLOG_FORMATS, MYSQL_BINLOG_OPTIONS
from advisor.rules import Proposal, Versions, rule
from advisor.units import parse_bool


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
    primary = ctx.role == Role.PRIMARY
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
    MySQL 5.7.3 to 5.7.x (and Percona Server) refuse to start with the binary log on and no server_id
    given ("You have enabled the binary log, but you haven't provided the mandatory server-id"); the id
    must be unique in the topology, which we cannot know, so there the file gets no log_bin line until
    the option files set server_id: the finding says to add both.
    """
    if ctx.role != Role.PRIMARY or binlog_enabled(ctx) is not False:
        return
    if server_id_mandatory(ctx):
        yield _server_id_first(ctx)
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
        and file_turns_binlog_off(ctx)
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
    if setting is not None and _enabled_in_file(setting) and not file_turns_binlog_off(ctx):
        yield _enabled_in_file_only(setting, rationale, evidence)
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


def _server_id_first(ctx: AuditContext) -> Proposal:
    evidence = tuple(
        setting_evidence(setting)
        for setting in (ctx.config.get("log_bin"), ctx.config.get("server_id"))
        if setting is not None
    )
    return Proposal(
        title="Binary logging is off on a primary",
        rationale="This server is a primary but writes no binary log: replicas have nothing to read, and "
        "after a failure data can only be restored to the last backup (no point-in-time recovery). "
        f"{ctx.version.product} {ctx.version.number} refuses to start with the binary log on and no server_id in its options "
        '("You have enabled the binary log, but you haven\'t provided the mandatory server-id"), and the '
        "id must differ on every server of the topology, which we cannot know: so the recommended file "
        "does not turn it on. Add server_id = <a number unique among your servers> and log_bin = binlog "
        "together, then restart.",
        evidence=evidence,
    )


def _enabled_in_file(setting: Setting) -> bool:
    """The option file has a log_bin line (`log-bin`, `log-bin = mysql-bin`, even `log_bin = OFF`, a base
    name) while the server runs without it: the file is not in effect yet (the caller rules out
    `skip-log-bin`, which is a log_bin line too)."""
    return setting.source == "live" and setting.file_value is not None


def _enabled_in_file_only(setting: Setting, rationale: str, evidence: tuple[Evidence, ...]) -> Proposal:
    """No edit: the file's base name stays (replicas and backups follow those file names)."""
    where = f" ({setting.file}:{setting.line})" if setting.file and setting.line else ""
    return Proposal(
        title="Binary logging is on in the option file but off on the running server",
        rationale=f"{rationale} The option file already enables it (log_bin = {setting.file_value}{where}), "
        "but the server has not read that yet: restart it to start the binary log. The file keeps "
        "its base name: replicas and backups follow those file names.",
        evidence=(
            *evidence,
            Evidence(
                "log_bin in the option file", setting.file_value or "", f"{setting.file}:{setting.line}"
            ),
        ),
        variable="log_bin",
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
        severity=None if ctx.role == Role.PRIMARY else Severity.NOTICE,
        **row_format_change(ctx),
    )


@rule(
    "replication.log_bin_named_off",
    Severity.WARNING,
    [f"{MYSQL_BINLOG_OPTIONS}#option_mysqld_log-bin", "https://mariadb.com/kb/en/activating-the-binary-log/"],
)
def log_bin_named_off(ctx: AuditContext) -> Iterator[Proposal]:
    """What it checks: an option file line `log_bin = OFF` (or 0, FALSE, NO).

    Why it matters: the value of log_bin is the base name of the binary log's files, not a switch: the
    server turns binary logging ON and writes OFF.000001 (mariadbd 10.11.19 and MySQL 8.0.46 started
    so, `@@log_bin = 1`); MySQL 5.7 then also wants a server_id, or it does not start. Only
    `skip-log-bin` (or `disable-log-bin`) turns it off.

    What we recommend: no change of our own — the line runs the binary log, and turning it off, or
    renaming its files, changes what replicas and backups read. Write `skip-log-bin` instead if off was
    meant, or a real base name (`log_bin = binlog`) if on was.

    Caveats: none.
    """
    entry = file_log_bin_line(ctx)
    if (
        entry is None
        or entry.prefix is not None
        or entry.value is None
        or parse_bool(entry.value) is not False
    ):
        return
    where = f"{entry.file}:{entry.line}"
    yield Proposal(
        title=f"log_bin = {entry.value} turns the binary log on, with files named {entry.value}.000001",
        rationale=f"{where}: the value of log_bin is the base name of the binary log's files, not a switch: "
        f"the server writes its binary log as {entry.value}.000001, {entry.value}.000002 ... Only "
        "skip-log-bin (or disable-log-bin) turns it off. Write skip-log-bin if off was meant, or a real base "
        "name (log_bin = binlog) if on was; we change nothing, as either changes what replicas and backups read.",
        evidence=(Evidence(f"option line in [{entry.group}]", f"log_bin = {entry.value}", where),),
    )
