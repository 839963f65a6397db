"""Undo history: the purge backlog (history list length), the transactions that hold it back, big
transactions, and the purge settings — from SHOW ENGINE INNODB STATUS and SHOW GLOBAL STATUS."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from advisor.findings import Evidence, Severity
from advisor.references import MARIADB_INNODB_VARIABLES, MYSQL_INNODB_PARAMETERS
from advisor.rules import Proposal, Versions, rule

if TYPE_CHECKING:
    from advisor.context import AuditContext
    from advisor.inputs.innodb_transactions import InnodbTransaction

PURGE = "https://dev.mysql.com/doc/refman/8.0/en/innodb-purge-configuration.html"
MULTI_VERSIONING = "https://dev.mysql.com/doc/refman/8.0/en/innodb-multi-versioning.html"
INNODB_TRX = "https://dev.mysql.com/doc/refman/8.0/en/information-schema-innodb-trx-table.html"
MAX_PURGE_LAG = f"{MYSQL_INNODB_PARAMETERS}#sysvar_innodb_max_purge_lag"
PURGE_THREADS = f"{MYSQL_INNODB_PARAMETERS}#sysvar_innodb_purge_threads"
MARIADB_PURGE = "https://mariadb.com/kb/en/innodb-purge/"
MARIADB_PURGE_THREADS = f"{MARIADB_INNODB_VARIABLES}#innodb_purge_threads"
LARGE_TRANSACTIONS = "https://dev.mysql.com/doc/refman/8.0/en/optimizing-innodb-transaction-management.html"

_STATUS_SOURCE = "SHOW ENGINE INNODB STATUS (TRANSACTIONS)"


def _history(ctx: AuditContext) -> Evidence | None:
    """History list length, from the InnoDB status or else the status variable (MariaDB, Percona)."""
    if ctx.innodb is not None and ctx.innodb.history_list_length is not None:
        return Evidence("history list length", str(ctx.innodb.history_list_length), _STATUS_SOURCE)
    value = ctx.status.value("Innodb_history_list_length") if ctx.status is not None else None
    if value is None:
        return None
    return Evidence("history list length", str(value), "SHOW GLOBAL STATUS Innodb_history_list_length")


def _long_transactions(ctx: AuditContext) -> list[InnodbTransaction]:
    """Transactions open at least the threshold, longest first."""
    if ctx.innodb is None:
        return []
    limit = ctx.thresholds.undo_history.long_transaction_seconds
    found = [t for t in ctx.innodb.transactions if t.active_seconds is not None and t.active_seconds >= limit]
    return sorted(found, key=lambda t: -(t.active_seconds or 0))


def _describe(trx: InnodbTransaction) -> str:
    """`transaction 94892591 (thread 391236): ACTIVE 1254 s, 581344 row locks, 153341 undo entries`."""
    name = f"transaction at {trx.id}" if trx.id_is_address else f"transaction {trx.id}"
    thread = f" (thread {trx.thread_id})" if trx.thread_id is not None else ""
    parts = [
        f"{trx.state or 'ACTIVE'} {trx.active_seconds} s" if trx.active_seconds is not None else trx.state
    ]
    if trx.row_locks is not None:
        parts.append(f"{trx.row_locks} row locks")
    if trx.undo_entries is not None:
        parts.append(f"{trx.undo_entries} undo entries")
    if trx.read_view:
        parts.append("read view open")
    return f"{name}{thread}: {', '.join(p for p in parts if p)}"


@rule("undo_history.history_list_length", Severity.WARNING, [PURGE, MULTI_VERSIONING, MARIADB_PURGE])
def history_list_length(ctx: AuditContext) -> Iterator[Proposal]:
    """What it checks: the history list length — undo logs of committed transactions purge has not
    processed yet — against 100,000 (warning) and 1,000,000 (critical).

    Why it matters: until purge catches up, deleted rows stay in the indexes and every consistent read
    may walk longer version chains; reads slow down, the undo tablespaces (or ibdata1 before undo
    tablespaces) grow, and that space is not handed back by itself.

    What we recommend: find what holds purge back — almost always a long-running transaction or an old
    read view (see undo_history.long_transaction); only when none exists, give purge more threads.

    Caveats: a single snapshot; a list that shrinks between two snapshots is recovering on its own.
    """
    evidence = _history(ctx)
    if evidence is None:
        return
    length = int(evidence.value)
    limits = ctx.thresholds.undo_history
    if length < limits.history_list_warning:
        return
    oldest = _long_transactions(ctx)
    cause = f" The oldest open transaction is {_describe(oldest[0])}." if oldest else ""
    yield Proposal(
        title=f"Purge is {length:,} undo logs behind",
        rationale=f"The history list holds {length:,} undo logs of committed transactions that purge has not "
        "removed; reads walk longer version chains and the undo space grows." + cause + " End or shorten "
        "the transactions that keep old read views open before tuning purge itself.",
        evidence=(evidence,),
        severity=Severity.CRITICAL if length >= limits.history_list_critical else None,
    )


@rule("undo_history.long_transaction", Severity.WARNING, [INNODB_TRX, MULTI_VERSIONING, PURGE])
def long_transaction(ctx: AuditContext) -> Iterator[Proposal]:
    """What it checks: transactions open for 10 minutes or more in SHOW ENGINE INNODB STATUS, named by
    transaction id and thread id with their age, row locks and undo entries (never the query text).

    Why it matters: an open transaction keeps its read view, so purge cannot remove any history newer
    than it; it also holds its row locks, which other sessions queue behind.

    What we recommend: find the session by its thread id (information_schema.INNODB_TRX /
    PROCESSLIST), commit or end it, and fix the application path that leaves transactions open
    (autocommit off, a BEGIN without COMMIT, an idle connection in a pool).

    Caveats: a backup running in a consistent snapshot is a legitimate long transaction; an XA
    transaction in PREPARED state must be ended with XA COMMIT or XA ROLLBACK, not by killing a thread.
    """
    found = _long_transactions(ctx)
    if not found:
        return
    limit = ctx.thresholds.undo_history.long_transaction_seconds
    shown = found[: ctx.thresholds.undo_history.max_transactions_listed]
    more = f" (and {len(found) - len(shown)} more)" if len(found) > len(shown) else ""
    prepared = any("PREPARED" in (t.state or "") for t in shown)
    yield Proposal(
        title=f"{len(found)} transaction(s) open for over {limit // 60} minutes, the oldest {shown[0].active_seconds} s",
        rationale=f"{'; '.join(_describe(t) for t in shown)}{more}. While they stay open purge cannot "
        "remove newer history and their row locks block other sessions. End them through their thread id "
        "and fix the code path that leaves them open."
        + (" A PREPARED (XA) transaction needs XA COMMIT or XA ROLLBACK." if prepared else ""),
        evidence=tuple(Evidence("open transaction", _describe(t), _STATUS_SOURCE) for t in shown),
    )


@rule("undo_history.large_transaction", Severity.NOTICE, [LARGE_TRANSACTIONS, MULTI_VERSIONING])
def large_transaction(ctx: AuditContext) -> Iterator[Proposal]:
    """What it checks: open transactions that have written at least 100,000 undo log records (rows
    changed) according to SHOW ENGINE INNODB STATUS.

    Why it matters: a huge transaction holds all its row locks to the end, grows the undo log, is
    replicated as one event group (replicas lag by its whole duration) and, if it fails or is killed,
    rolls back for about as long as it ran.

    What we recommend: change rows in batches of a few thousand per transaction (a loop over primary
    key ranges with a commit each time).

    Caveats: bulk loads into a new table may be deliberate; the count is for the moment of the snapshot.
    """
    if ctx.innodb is None:
        return
    limit = ctx.thresholds.undo_history.large_transaction_undo_entries
    found = sorted(
        (t for t in ctx.innodb.transactions if t.undo_entries is not None and t.undo_entries >= limit),
        key=lambda t: -(t.undo_entries or 0),
    )
    if not found:
        return
    shown = found[: ctx.thresholds.undo_history.max_transactions_listed]
    yield Proposal(
        title=f"{len(found)} transaction(s) with {limit:,} or more undo entries",
        rationale=f"{'; '.join(_describe(t) for t in shown)}. Each holds its locks until it ends, replicates "
        "as one unit and rolls back as slowly as it ran; batches of a few thousand rows per commit avoid all "
        "three.",
        evidence=tuple(Evidence("large transaction", _describe(t), _STATUS_SOURCE) for t in shown),
    )


@rule(
    "undo_history.purge_threads",
    Severity.NOTICE,
    [PURGE, PURGE_THREADS, MARIADB_PURGE_THREADS],
    versions=Versions(mysql=((5, 6, 5), (99,)), mariadb=((10, 0), (99,))),
)
def purge_threads(ctx: AuditContext) -> Iterator[Proposal]:
    """What it checks: a history list above the warning threshold with no long transaction to explain
    it, while innodb_purge_threads is below 4.

    Why it matters: with nothing holding purge back, a backlog means purge cannot keep up with the rate
    of changes; more purge threads work through more undo logs in parallel.

    What we recommend: innodb_purge_threads = 4 (fewer on a machine with fewer CPUs).

    Caveats: extra purge threads compete with user threads when changes concentrate on a few tables; the
    setting needs a restart where it is not dynamic (MySQL; MariaDB before 10.5.13/10.6.5).
    """
    evidence = _history(ctx)
    if evidence is None or int(evidence.value) < ctx.thresholds.undo_history.history_list_warning:
        return
    if _long_transactions(ctx) or not ctx.knows("innodb_purge_threads"):
        return
    current = ctx.config.number("innodb_purge_threads")
    target = ctx.thresholds.undo_history.purge_threads_target
    if ctx.hardware is not None and ctx.hardware.cpus:
        target = min(target, ctx.hardware.cpus)
    facts = ctx.catalog.lookup("innodb_purge_threads", ctx.version)
    if facts is not None and facts.max is not None:
        target = min(target, int(facts.max))
    if current is None or current >= target:
        return
    setting = ctx.config.get("innodb_purge_threads")
    yield Proposal(
        title=f"Purge runs {current} thread(s) and is falling behind",
        rationale=f"The history list is at {int(evidence.value):,} and no long transaction holds purge back, "
        f"so purge itself is too slow for the change rate. {target} purge threads share the work.",
        evidence=(
            evidence,
            Evidence(
                "innodb_purge_threads",
                str(current),
                setting.where() if setting else "default for this version",
            ),
        ),
        variable="innodb_purge_threads",
        recommended=str(target),
    )


@rule("undo_history.max_purge_lag", Severity.NOTICE, [MAX_PURGE_LAG, PURGE, MARIADB_PURGE])
def max_purge_lag(ctx: AuditContext) -> Iterator[Proposal]:
    """What it checks: innodb_max_purge_lag against the history list: a limit below the current length
    delays every INSERT, UPDATE and DELETE now; no limit (0) with a history above the critical mark
    leaves the backlog unbounded.

    Why it matters: the lag limit trades write latency for bounded history: above it each row change
    sleeps (up to innodb_max_purge_lag_delay), which can look like a sudden slowdown of all writes.

    What we recommend: with a limit in force, remove the cause of the backlog rather than the limit; with
    none and a runaway history, consider innodb_max_purge_lag around 1,000,000 with
    innodb_max_purge_lag_delay capping the sleep — as a safety net, not a fix. Not written to the file.

    Caveats: information only for the unbounded case: throttling all writes is a policy decision.
    """
    evidence = _history(ctx)
    lag = ctx.config.number("innodb_max_purge_lag")
    if evidence is None or lag is None:
        return
    length = int(evidence.value)
    setting = ctx.config.get("innodb_max_purge_lag")
    lag_evidence = Evidence(
        "innodb_max_purge_lag", str(lag), setting.where() if setting else "default for this version"
    )
    if lag and length > lag:
        yield Proposal(
            title="Row changes are being delayed to let purge catch up",
            rationale=f"The history list ({length:,}) is above innodb_max_purge_lag ({lag:,}), so InnoDB "
            "delays every INSERT, UPDATE and DELETE. Remove what holds purge back (a long transaction) rather "
            "than the limit.",
            evidence=(evidence, lag_evidence),
            variable="innodb_max_purge_lag",
        )
    elif not lag and length >= ctx.thresholds.undo_history.history_list_critical:
        cap = (
            " with innodb_max_purge_lag_delay capping each delay"
            if ctx.knows("innodb_max_purge_lag_delay")
            else ""
        )
        yield Proposal(
            title="Nothing bounds the purge backlog",
            rationale=f"The history list is at {length:,} and innodb_max_purge_lag is 0 (no limit). Once the cause "
            f"is fixed, a limit around 1,000,000{cap} keeps a future backlog from growing without bound, at "
            "the price of slower writes while it lasts.",
            evidence=(evidence, lag_evidence),
            variable="innodb_max_purge_lag",
            severity=Severity.INFO,
        )


RULES = (history_list_length, long_transaction, large_transaction, purge_threads, max_purge_lag)
