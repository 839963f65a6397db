"""Transaction isolation: levels that break binary logging, the option's spelling, SERIALIZABLE's locking
reads and read views that pin purge at REPEATABLE READ.

Coordination: config_validity owns unknown options in general (it comments out a `tx_isolation` line);
this advisor only re-states the level that line meant under its real name. undo_history owns history
list length and long transactions in general; this advisor only reports the read views an isolation
level keeps open. The fix for binlog_format comes from the replication advisor's helper, and
replication.binlog_format_statement stays quiet when the critical rule here applies.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING

from advisor.context import AuditContext
from advisor.derived.replication import (
    binlog_enabled,
    binlog_format,
    isolation_level,
    isolation_setting,
    normalise_level,
    row_format_change,
)
from advisor.derived.settings import setting_evidence
from advisor.findings import Evidence, Severity
from advisor.inputs.optionfiles import OptionEntry
from advisor.references import MARIADB_BINLOG_FORMATS, MARIADB_SERVER_VARIABLES, MYSQL_SERVER_VARIABLES
from advisor.rules import Proposal, Rule, Versions, mysql_only, rule

if TYPE_CHECKING:
    from advisor.inputs.innodb_status import InnodbTransaction

_LEVELS_DOC = "https://dev.mysql.com/doc/refman/8.0/en/innodb-transaction-isolation-levels.html"
_BINLOG_SETTING = "https://dev.mysql.com/doc/refman/8.0/en/binary-log-setting.html"
_MARIADB_ISOLATION = "https://mariadb.com/kb/en/set-transaction/"
_ISOLATION_VAR = f"{MYSQL_SERVER_VARIABLES}#sysvar_transaction_isolation"
_LOOSE = frozenset({"READ-COMMITTED", "READ-UNCOMMITTED"})
_LEVELS = frozenset({"READ-UNCOMMITTED", "READ-COMMITTED", "REPEATABLE-READ", "SERIALIZABLE"})


def _isolation_variable(ctx: AuditContext) -> str:
    """transaction_isolation where the version has it (MySQL 5.7.20+, MariaDB 11.1+), else tx_isolation."""
    return "transaction_isolation" if ctx.knows("transaction_isolation") else "tx_isolation"


def _statement_conflict(ctx: AuditContext) -> tuple[Evidence, ...] | None:
    """Evidence when the default level is READ COMMITTED/UNCOMMITTED and binlog_format is STATEMENT."""
    level_setting = isolation_setting(ctx)
    format_setting = ctx.config.get("binlog_format")
    if level_setting is None or format_setting is None:
        return None
    if isolation_level(level_setting) not in _LOOSE or binlog_format(ctx) != "STATEMENT":
        return None
    return (setting_evidence(level_setting), setting_evidence(format_setting))


@rule(
    "isolation.read_committed_statement_binlog",
    Severity.CRITICAL,
    [_BINLOG_SETTING, _LEVELS_DOC, MARIADB_BINLOG_FORMATS],
    versions=Versions(mysql=((5, 1, 5), (99,)), mariadb=((0,), (99,))),
)
def read_committed_statement_binlog(ctx: AuditContext) -> Iterator[Proposal]:
    """What it checks: the default isolation level is READ COMMITTED or READ UNCOMMITTED, binary logging
    is on and binlog_format=STATEMENT.

    Why it matters: InnoDB can only be logged row by row at those levels, so every write to an InnoDB
    table fails ("impossible to write to binary log since BINLOG_FORMAT = STATEMENT", error 1665;
    "Binary logging not possible", error 1598, on MySQL 5.1).

    What we recommend: binlog_format=ROW (MIXED also works); on MySQL 8.0.34+, where binlog_format is
    deprecated and ROW is the default, remove the STATEMENT line instead.

    Caveats: sessions that set their own level are not visible here. 5.1 development releases from
    before InnoDB's check (MySQL Bug #23051) replicate such writes wrongly instead of refusing them.
    This rule owns the combination, so replication.binlog_format_statement stays quiet for it.
    """
    evidence = _statement_conflict(ctx)
    if evidence is None or not binlog_enabled(ctx):
        return
    yield Proposal(
        title="READ COMMITTED with statement-based binary logging: InnoDB writes fail",
        rationale="At READ COMMITTED or READ UNCOMMITTED InnoDB refuses statement-format logging, so "
        "every INSERT, UPDATE or DELETE on an InnoDB table returns an error instead of committing. "
        "Row-based logging removes the conflict.",
        evidence=(*evidence, Evidence("log_bin", "ON", "effective configuration")),
        **row_format_change(ctx),
    )


@rule(
    "isolation.read_committed_fails_without_binlog",
    Severity.CRITICAL,
    [
        "https://bugs.mysql.com/bug.php?id=40360",
        "https://dev.mysql.com/doc/refman/5.1/en/binary-log-setting.html",
    ],
    versions=mysql_only((5, 1, 5), (5, 1, 30)),
)
def read_committed_fails_without_binlog(ctx: AuditContext) -> Iterator[Proposal]:
    """What it checks: MySQL 5.1 before 5.1.30 at READ COMMITTED or READ UNCOMMITTED with
    binlog_format=STATEMENT and binary logging off.

    Why it matters: these releases raised the statement-format error even with the binary log off
    (MySQL Bug #40360, fixed in 5.1.30), so InnoDB writes fail although nothing is logged.

    What we recommend: binlog_format=ROW, harmless while the binary log is off; better, upgrade.

    Caveats: the default binlog_format was MIXED from 5.1.12 to 5.1.28, so this needs an explicit
    STATEMENT there. The per-row statement rescan of READ COMMITTED before 5.1.37 is
    isolation.read_committed_statement_rescan.
    """
    evidence = _statement_conflict(ctx)
    if evidence is None or binlog_enabled(ctx) is not False:
        return
    yield Proposal(
        title="READ COMMITTED fails on this 5.1 release even without a binary log",
        rationale="Before 5.1.30 InnoDB checked binlog_format even when binary logging was off (Bug "
        "#40360): at READ COMMITTED every InnoDB write fails with 'Binary logging not possible'. "
        "binlog_format=ROW avoids it; upgrading to a current release is the real fix.",
        evidence=evidence,
        variable="binlog_format",
        recommended="ROW",
    )


@rule(
    "isolation.read_committed_statement_rescan",
    Severity.WARNING,
    [
        "https://dev.mysql.com/doc/refman/5.1/en/set-transaction.html",
        "https://dev.mysql.com/doc/relnotes/mysql/5.1/en/news-5-1-37.html",
    ],
    versions=mysql_only((5, 0), (5, 1, 37)),
)
def read_committed_statement_rescan(ctx: AuditContext) -> Iterator[Proposal]:
    """What it checks: the default isolation level is READ COMMITTED on MySQL 5.0 or 5.1 before 5.1.37.

    Why it matters: in these releases InnoDB, at READ COMMITTED, decided how to lock a duplicate key by
    looking at the statement's text (is it a REPLACE, an INSERT ... ON DUPLICATE KEY UPDATE, an
    UPDATE?) for every row it touched. A big multi-row REPLACE, upsert or UPDATE therefore rescans its
    own statement text once per row: the cost grows with rows × statement length, and bulk loads of
    long multi-row statements crawl.

    What we recommend: REPEATABLE READ (the default), or an upgrade to 5.1.37 or later where the
    statement type is passed to InnoDB instead of being searched for in the text.

    Caveats: the boundary is the one stated for this check by the InnoTune team; we did not find the
    bug number in the release notes, so the references point at the isolation-level page and the
    5.1.37 notes. Applications that rely on READ COMMITTED semantics must be checked before changing
    the default.
    """
    setting = isolation_setting(ctx)
    if setting is None or isolation_level(setting) != "READ-COMMITTED":
        return
    yield Proposal(
        title="READ COMMITTED on this release rescans each statement's text per row",
        rationale=f"On {ctx.version.describe()} InnoDB at READ COMMITTED searches the statement text "
        "for every row a REPLACE, INSERT ... ON DUPLICATE KEY UPDATE or UPDATE touches, so large "
        "multi-row statements slow down with their own length. REPEATABLE READ avoids it; 5.1.37 and "
        "later fix it.",
        evidence=(setting_evidence(setting),),
        variable=_isolation_variable(ctx),
        recommended="REPEATABLE-READ",
    )


def _loose_tx_isolation_entry(ctx: AuditContext) -> OptionEntry | None:
    """The last `loose-tx_isolation` line in the groups the server reads, if any."""
    if ctx.options is None:
        return None
    found = [e for e in ctx.options.entries(ctx.groups_read) if e.name == "tx_isolation" and e.loose]
    return found[-1] if found else None


@rule(
    "isolation.loose_tx_isolation_ignored",
    Severity.WARNING,
    [_ISOLATION_VAR, f"{MARIADB_SERVER_VARIABLES}#tx_isolation"],
)
def loose_tx_isolation_ignored(ctx: AuditContext) -> Iterator[Proposal]:
    """What it checks: an option file sets `loose-tx_isolation = <level>`, nothing sets
    transaction-isolation, and the level in force differs from the one the line names.

    Why it matters: the option has always been called transaction-isolation; tx_isolation is only a
    variable name (removed in MySQL 8.0.3). With loose- the server skips the line with a warning and
    runs at its default, while the file reads as if the level were set: the application gets
    REPEATABLE READ locking and snapshots instead of what it was configured for.

    What we recommend: the same level under the option's real name (transaction_isolation).

    Caveats: config_validity reports unknown and refused option lines; without loose- it already
    comments the line out and sets transaction_isolation in its place, so this rule stays quiet then.
    For loose- lines it only notes that the line has no effect; this rule adds the isolation
    consequence and the fix.
    """
    entry = _loose_tx_isolation_entry(ctx)
    if entry is None or entry.value is None:
        return
    intended = normalise_level(entry.value)
    if intended not in _LEVELS or ctx.config.is_set_in_file("transaction_isolation"):
        return
    if isolation_level(isolation_setting(ctx)) == intended:
        return
    where = f"{entry.file}:{entry.line}"
    title = f"The file means {intended}, but the server ignores loose-tx_isolation"
    rationale = (
        f"{where} sets tx_isolation, which no server accepts as an option; with loose- it is skipped "
        f"with a warning and the server runs at its default level instead of {intended}. Written as "
        "transaction-isolation the file sets what it says."
    )
    evidence = (Evidence("loose-tx_isolation", entry.value, where),)
    yield Proposal(title, rationale, evidence, _isolation_variable(ctx), intended)


@rule(
    "isolation.serializable",
    Severity.NOTICE,
    [_LEVELS_DOC, _MARIADB_ISOLATION],
)
def serializable(ctx: AuditContext) -> Iterator[Proposal]:
    """What it checks: the server-wide default isolation level is SERIALIZABLE.

    Why it matters: inside a transaction (autocommit off, or BEGIN) every plain SELECT becomes a
    locking read (SELECT ... FOR SHARE): readers block writers and each other's updates, and
    deadlocks and lock wait timeouts multiply.

    What we recommend: REPEATABLE READ as the default, with SERIALIZABLE set per session
    (SET TRANSACTION ISOLATION LEVEL SERIALIZABLE) for the few transactions that need it.

    Caveats: a notice: the level can be deliberate. Autocommit SELECTs stay non-locking.
    """
    setting = isolation_setting(ctx)
    if isolation_level(setting) != "SERIALIZABLE" or setting is None:
        return
    yield Proposal(
        title="Default isolation SERIALIZABLE: every SELECT in a transaction locks rows",
        rationale="At SERIALIZABLE InnoDB turns each plain SELECT inside a transaction into a shared-"
        "lock read, so reports block writers, writers wait for readers, and deadlocks rise. Set it per "
        "session where it is really needed.",
        evidence=(setting_evidence(setting),),
        variable=_isolation_variable(ctx),
    )


def _read_only_holders(
    transactions: Iterable[InnodbTransaction], min_seconds: int
) -> list[InnodbTransaction]:
    """Transactions with a read view, no undo (nothing written) and at least `min_seconds` active."""
    found = [
        trx
        for trx in transactions
        if trx.read_view
        and not trx.undo_entries
        and trx.active_seconds is not None
        and trx.active_seconds >= min_seconds
    ]
    return sorted(found, key=lambda trx: -(trx.active_seconds or 0))


@rule(
    "isolation.read_view_held",
    Severity.NOTICE,
    [_LEVELS_DOC, "https://dev.mysql.com/doc/refman/8.0/en/innodb-consistent-read.html"],
)
def read_view_held(ctx: AuditContext) -> Iterator[Proposal]:
    """What it checks: at REPEATABLE READ, read-only transactions (a read view, no undo entries) in SHOW
    ENGINE INNODB STATUS that have been ACTIVE for 120 s or more.

    Why it matters: at REPEATABLE READ a read view lives from the first read to COMMIT, and purge
    cannot remove any row version newer than the oldest view: undo and history grow, and every reader
    walks longer version chains. At READ COMMITTED each statement takes a fresh view and drops it.

    What we recommend: for long read-only work (reports, exports, sessions idle in a transaction)
    SET SESSION TRANSACTION ISOLATION LEVEL READ COMMITTED, or commit (or use autocommit) sooner.

    Caveats: undo_history reports long transactions and history list length in general, writers
    included; this rule only names read-only snapshot holders, where changing the level is the fix.
    The dump does not show session levels: a session already at READ COMMITTED running one very long
    SELECT also holds a view, and only a shorter statement helps there.
    """
    if ctx.innodb is None or isolation_level(isolation_setting(ctx)) != "REPEATABLE-READ":
        return
    limits = ctx.thresholds.isolation
    holders = _read_only_holders(ctx.innodb.transactions, limits.read_view_seconds)
    if not holders:
        return
    source = "SHOW ENGINE INNODB STATUS (TRANSACTIONS)"
    evidence = [
        Evidence(
            f"transaction {trx.id} (thread {trx.thread_id})",
            f"ACTIVE {trx.active_seconds} s, read view, no undo",
            source,
        )
        for trx in holders[: limits.max_transactions_listed]
    ]
    if ctx.innodb.history_list_length is not None:
        evidence.append(Evidence("History list length", str(ctx.innodb.history_list_length), source))
    oldest = holders[0].active_seconds
    yield Proposal(
        title=f"{len(holders)} read-only transaction(s) hold a REPEATABLE READ snapshot, oldest {oldest} s",
        rationale=f"A read view open for {oldest} s stops purge from removing any row version written "
        "since: undo grows and readers follow ever longer version chains. These transactions only "
        "read; at READ COMMITTED they would drop the view after each statement.",
        evidence=tuple(evidence),
    )


RULES: tuple[Rule, ...] = (
    read_committed_statement_binlog,
    read_committed_fails_without_binlog,
    read_committed_statement_rescan,
    loose_tx_isolation_ignored,
    serializable,
    read_view_held,
)
