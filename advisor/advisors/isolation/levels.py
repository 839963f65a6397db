"""The isolation level in effect: ignored loose lines, SERIALIZABLE, read views held open."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING

from advisor.advisors.isolation.common import LEVELS_DOC, isolation_variable
from advisor.context import AuditContext
from advisor.derived.replication import isolation_level, isolation_setting, normalise_level
from advisor.derived.settings import setting_evidence
from advisor.findings import Evidence, Severity
from advisor.inputs.optionfiles import OptionEntry
from advisor.references import MARIADB_SERVER_VARIABLES, MYSQL_SERVER_VARIABLES
from advisor.rules import Proposal, rule

if TYPE_CHECKING:
    from advisor.inputs.innodb_status import InnodbTransaction


_MARIADB_ISOLATION = "https://mariadb.com/kb/en/set-transaction/"
_ISOLATION_VAR = f"{MYSQL_SERVER_VARIABLES}#sysvar_transaction_isolation"
_LEVELS = frozenset({"READ-UNCOMMITTED", "READ-COMMITTED", "REPEATABLE-READ", "SERIALIZABLE"})


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
    yield Proposal(title, rationale, evidence, isolation_variable(ctx), intended)


@rule(
    "isolation.serializable",
    Severity.NOTICE,
    [LEVELS_DOC, _MARIADB_ISOLATION],
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
        variable=isolation_variable(ctx),
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
    [LEVELS_DOC, "https://dev.mysql.com/doc/refman/8.0/en/innodb-consistent-read.html"],
    needs=("innodb_status",),
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
