"""The history list and the transactions that hold purge back."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from advisor.advisors.undo_history.common import (
    MARIADB_PURGE,
    PURGE,
    STATUS_SOURCE,
    history_evidence,
    long_transactions,
)
from advisor.findings import Evidence, Severity
from advisor.rules import Proposal, rule

if TYPE_CHECKING:
    from advisor.context import AuditContext
    from advisor.inputs.innodb_transactions import InnodbTransaction


MULTI_VERSIONING = "https://dev.mysql.com/doc/refman/8.0/en/innodb-multi-versioning.html"
INNODB_TRX = "https://dev.mysql.com/doc/refman/8.0/en/information-schema-innodb-trx-table.html"
LARGE_TRANSACTIONS = "https://dev.mysql.com/doc/refman/8.0/en/optimizing-innodb-transaction-management.html"


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


@rule(
    "undo_history.history_list_length",
    Severity.WARNING,
    [PURGE, MULTI_VERSIONING, MARIADB_PURGE],
    needs=("innodb_status",),
)
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
    evidence = history_evidence(ctx)
    if evidence is None:
        return
    length = int(evidence.value)
    limits = ctx.thresholds.undo_history
    if length < limits.history_list_warning:
        return
    oldest = long_transactions(ctx)
    cause = f" The oldest open transaction is {_describe(oldest[0])}." if oldest else ""
    yield Proposal(
        title=f"Purge is {length:,} undo logs behind",
        rationale=f"The history list holds {length:,} undo logs of committed transactions that purge has not "
        "removed; reads walk longer version chains and the undo space grows." + cause + " End or shorten "
        "the transactions that keep old read views open before tuning purge itself.",
        evidence=(evidence,),
        severity=Severity.CRITICAL if length >= limits.history_list_critical else None,
    )


@rule(
    "undo_history.long_transaction",
    Severity.WARNING,
    [INNODB_TRX, MULTI_VERSIONING, PURGE],
    needs=("innodb_status",),
)
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
    found = long_transactions(ctx)
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
        evidence=tuple(Evidence("open transaction", _describe(t), STATUS_SOURCE) for t in shown),
    )


@rule(
    "undo_history.large_transaction",
    Severity.NOTICE,
    [LARGE_TRANSACTIONS, MULTI_VERSIONING],
    needs=("innodb_status",),
)
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
        evidence=tuple(Evidence("large transaction", _describe(t), STATUS_SOURCE) for t in shown),
    )
