"""History growth: purge falling behind, judged by the growth rate and the purge lag, not a fixed mark."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from advisor.advisors.undo_history.common import MARIADB_PURGE, PURGE, STATUS_SOURCE
from advisor.advisors.undo_history.lag import HISTORY, PurgeBehind, describe_lag, purge_behind
from advisor.derived.evidence import Grade, cap_severity, graded_window, window_grade
from advisor.findings import Evidence, Severity
from advisor.references import MARIADB_SERVER_VARIABLES, MYSQL_SERVER_VARIABLES
from advisor.rules import Proposal, rule

if TYPE_CHECKING:
    from advisor.context import AuditContext
    from advisor.inputs.innodb_transactions import InnodbTransaction

MULTI_VERSIONING = "https://dev.mysql.com/doc/refman/8.0/en/innodb-multi-versioning.html"
ISOLATION = f"{MYSQL_SERVER_VARIABLES}#sysvar_transaction_isolation"
MARIADB_ISOLATION = f"{MARIADB_SERVER_VARIABLES}#tx_isolation"


def read_view_holders(ctx: AuditContext) -> list[InnodbTransaction]:
    """Transactions holding a read view for at least the threshold (InnoDB status), oldest first."""
    if ctx.innodb is None:
        return []
    limit = ctx.thresholds.undo_history.read_view_holder_seconds
    found = [t for t in ctx.innodb.transactions if t.read_view and (t.active_seconds or 0) >= limit]
    return sorted(found, key=lambda t: -(t.active_seconds or 0))


def purge_holders(ctx: AuditContext) -> list[InnodbTransaction]:
    """What holds purge back: the read view purge has reached first, then the other old read views."""
    holders = read_view_holders(ctx)
    behind = purge_behind(ctx)
    blocking = behind.lag.blocking if behind is not None and behind.lag is not None else None
    if blocking is not None and blocking in holders:
        holders.remove(blocking)
        holders.insert(0, blocking)
    return holders


def _isolation(ctx: AuditContext) -> str | None:
    for name in ("transaction_isolation", "tx_isolation"):
        value = ctx.config.text(name) if ctx.knows(name) else None
        if value:
            return value.strip().upper().replace("_", "-")
    return None


def _holder_text(ctx: AuditContext, holder: InnodbTransaction) -> str:
    thread = f" (thread {holder.thread_id})" if holder.thread_id is not None else ""
    level = _isolation(ctx)
    why = (
        " In REPEATABLE READ a transaction keeps its read view from its first read until it ends, idle "
        "or not."
        if level == "REPEATABLE-READ"
        else ""
    )
    return (
        f" Transaction {holder.id}{thread} has held a read view for {holder.active_seconds} s: purge cannot "
        f"remove anything newer than it.{why} End it, and fix the code path that leaves it open."
    )


def _no_holder_text(ctx: AuditContext) -> str:
    if ctx.innodb is None:
        return (
            " Give SHOW ENGINE INNODB STATUS to see which transaction holds purge back; with none, purge "
            "itself is too slow for the change rate (see undo_history.purge_threads)."
        )
    return (
        " No transaction in SHOW ENGINE INNODB STATUS holds a read view for long, so purge itself is too "
        "slow for the change rate (see undo_history.purge_threads)."
    )


def _reaches(ctx: AuditContext, behind: PurgeBehind) -> str:
    mark = ctx.thresholds.undo_history.history_list_warning
    if behind.per_second <= 0:
        return ""
    minutes = (mark - behind.history) / behind.per_second / 60
    return f" At this rate it reaches {mark:,} in about {minutes:,.0f} min."


def _measured(behind: PurgeBehind) -> str:
    growth = behind.growth
    if growth is None:
        holder = behind.lag.blocking if behind.lag is not None else None
        age = holder.active_seconds if holder is not None else 0
        return (
            f"The history list holds {behind.history:,} undo logs, and purge has stopped at the read view "
            f"of a transaction open for {age} s: about {behind.per_second:,.1f} per second have piled up "
            "behind it."
        )
    text = (
        f"The history list grew from {growth.before:,} to {growth.after:,} in {growth.window_seconds:,.0f} s "
        f"({growth.per_second:,.1f} per second): purge is not keeping up."
    )
    if behind.stalled and behind.lag is not None:
        text += (
            f" Purge is {describe_lag(behind.lag)} behind, more than the whole window: it made no headway."
        )
    return text


def _evidence(ctx: AuditContext, behind: PurgeBehind, holders: list[InnodbTransaction]) -> list[Evidence]:
    growth, lag = behind.growth, behind.lag
    evidence = []
    if growth is not None:
        evidence += [
            Evidence(
                "history list length",
                f"{growth.before:,} → {growth.after:,}",
                f"SHOW GLOBAL STATUS {HISTORY}",
            ),
            Evidence("growth", f"{growth.per_second:,.1f} entries/s", graded_window(ctx)),
        ]
    else:
        evidence.append(Evidence("history list length", f"{behind.history:,}", STATUS_SOURCE))
    if lag is not None:
        state = f", purge {lag.state}" if lag.state else ""
        evidence.append(
            Evidence("purge lag", describe_lag(lag) + state, f"{STATUS_SOURCE}: Trx id counter − Purge done")
        )
    evidence += [
        Evidence("read view held", f"{t.active_seconds} s, transaction {t.id}", STATUS_SOURCE)
        for t in holders
    ]
    return evidence


@rule("undo_history.history_growing", Severity.WARNING, [PURGE, MULTI_VERSIONING, MARIADB_PURGE, ISOLATION])
def history_growing(ctx: AuditContext) -> Iterator[Proposal]:
    """What it checks: purge falling behind while the history list is still below the fixed 100,000
    mark, from the growth rate and the purge lag: the list's growth between two SHOW GLOBAL STATUS
    snapshots (Innodb_history_list_length: MariaDB, Percona Server) when it is a trend — at least half
    of where it started and more than one purge batch — that reaches 100,000 within an hour at this
    rate; or a purge lag (SHOW ENGINE INNODB STATUS: Trx id counter minus "Purge done for trx's n:o <")
    longer than the whole window, in seconds of transactions (Innodb_max_trx_id's rate); or, from one
    InnoDB status alone, purge stopped at the read view of a transaction open a minute or more, with
    the history piled up since then growing that fast. It names what holds purge back: a transaction
    holding a read view for a minute or more, first the one whose view purge has reached.

    Why it matters: a steadily growing history means purge falls behind; by the time a fixed mark is
    crossed, reads already walk long version chains and the undo space has grown. The usual cause is a
    transaction left idle with its read view open — in REPEATABLE READ the view lives until the
    transaction ends — which no amount of purge threads can get past.

    What we recommend: end the transaction that holds the read view (by its thread id) and fix the code
    path that leaves it open; with no such transaction, see undo_history.purge_threads.

    Caveats: the growth rate is graded by its window (advisor.derived.evidence): from a weak window
    (under a minute between the snapshots, a restart, FLUSH STATUS) it is a notice unless the holding
    transaction is seen or the purge lag shows purge stalled. MySQL prints the history length only in
    SHOW ENGINE INNODB STATUS (one moment), so there only the one-dump evidence applies. A lag counts only
    while the history list is non-zero (with nothing to purge the purge point does not move).
    """
    behind = purge_behind(ctx)
    if behind is None or behind.history >= ctx.thresholds.undo_history.history_list_warning:
        return  # undo_history.history_list_length reports a backlog past the fixed mark
    holders, grade = purge_holders(ctx), window_grade(ctx)
    cause = _holder_text(ctx, holders[0]) if holders else _no_holder_text(ctx)
    weak = not behind.from_one_dump and grade is not None and grade.grade is Grade.WEAK
    severity = cap_severity(Severity.WARNING, grade) if weak and not holders and not behind.stalled else None
    title = (
        f"Purge is falling behind: the history list grew by {behind.growth.grown:,}"
        if behind.growth is not None
        else f"Purge is held back: {behind.history:,} undo logs wait behind one read view"
    )
    yield Proposal(
        title=title,
        rationale=_measured(behind) + _reaches(ctx, behind) + cause,
        evidence=tuple(_evidence(ctx, behind, holders)),
        severity=severity,
    )
