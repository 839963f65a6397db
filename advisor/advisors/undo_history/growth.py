"""History growth: purge falling behind, judged by the trend between two snapshots, not a fixed mark."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

from advisor.advisors.undo_history.common import MARIADB_PURGE, PURGE, STATUS_SOURCE
from advisor.derived.evidence import Grade, cap_severity, graded_window, window_grade
from advisor.findings import Evidence, Severity
from advisor.references import MARIADB_SERVER_VARIABLES, MYSQL_SERVER_VARIABLES
from advisor.rules import Proposal, rule

if TYPE_CHECKING:
    from advisor.context import AuditContext
    from advisor.inputs.innodb_transactions import InnodbTransaction

HISTORY = "Innodb_history_list_length"
MULTI_VERSIONING = "https://dev.mysql.com/doc/refman/8.0/en/innodb-multi-versioning.html"
ISOLATION = f"{MYSQL_SERVER_VARIABLES}#sysvar_transaction_isolation"
MARIADB_ISOLATION = f"{MARIADB_SERVER_VARIABLES}#tx_isolation"


@dataclass(frozen=True, slots=True)
class HistoryGrowth:
    """The history list at both snapshots and its growth per second over the window between them."""

    before: int
    after: int
    window_seconds: float

    @property
    def per_second(self) -> float:
        return (self.after - self.before) / self.window_seconds


def history_growth(ctx: AuditContext) -> HistoryGrowth | None:
    """Growth of Innodb_history_list_length between two snapshots (MariaDB, Percona print it)."""
    status = ctx.status
    if status is None or status.since_startup or status.earlier is None or not status.window_seconds:
        return None
    before, after = status.earlier.number(HISTORY), status.latest.number(HISTORY)
    if before is None or after is None:
        return None
    return HistoryGrowth(before, after, status.window_seconds)


def read_view_holders(ctx: AuditContext) -> list[InnodbTransaction]:
    """Transactions holding a read view for at least the threshold (InnoDB status), oldest first."""
    if ctx.innodb is None:
        return []
    limit = ctx.thresholds.undo_history.read_view_holder_seconds
    found = [t for t in ctx.innodb.transactions if t.read_view and (t.active_seconds or 0) >= limit]
    return sorted(found, key=lambda t: -(t.active_seconds or 0))


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


def _reaches(ctx: AuditContext, growth: HistoryGrowth) -> str:
    mark = ctx.thresholds.undo_history.history_list_warning
    minutes = (mark - growth.after) / growth.per_second / 60
    return f" At this rate it reaches {mark:,} in about {minutes:,.0f} min."


@rule("undo_history.history_growing", Severity.WARNING, [PURGE, MULTI_VERSIONING, MARIADB_PURGE, ISOLATION])
def history_growing(ctx: AuditContext) -> Iterator[Proposal]:
    """What it checks: the history list's growth between two SHOW GLOBAL STATUS snapshots
    (Innodb_history_list_length: MariaDB, Percona Server) — at least 5,000 entries and 1 per second —
    while it is still below the fixed 100,000 mark, and what holds purge back: a transaction in SHOW
    ENGINE INNODB STATUS holding a read view for a minute or more.

    Why it matters: a steadily growing history means purge falls behind; by the time a fixed mark is
    crossed, reads already walk long version chains and the undo space has grown. The usual cause is a
    transaction left idle with its read view open — in REPEATABLE READ the view lives until the
    transaction ends — which no amount of purge threads can get past.

    What we recommend: end the transaction that holds the read view (by its thread id) and fix the code
    path that leaves it open; with no such transaction, see undo_history.purge_threads.

    Caveats: the growth rate is graded by its window (advisor.derived.evidence): from a weak window
    (under a minute between the snapshots, a restart, FLUSH STATUS) it is a notice unless the holding
    transaction is seen. MySQL does not print the history length in SHOW GLOBAL STATUS (only in SHOW
    ENGINE INNODB STATUS, one moment), so there the rule needs a status that has it.
    """
    growth, limits = history_growth(ctx), ctx.thresholds.undo_history
    if growth is None or growth.after >= limits.history_list_warning:
        return  # undo_history.history_list_length reports a backlog past the fixed mark
    if growth.after - growth.before < limits.history_growth_min_entries:
        return
    if growth.per_second < limits.history_growth_min_per_second:
        return
    holders, grade = read_view_holders(ctx), window_grade(ctx)
    cause = _holder_text(ctx, holders[0]) if holders else _no_holder_text(ctx)
    weak = grade is not None and grade.grade is Grade.WEAK and not holders
    severity = cap_severity(Severity.WARNING, grade) if weak else None
    evidence = [
        Evidence(
            "history list length", f"{growth.before:,} → {growth.after:,}", f"SHOW GLOBAL STATUS {HISTORY}"
        ),
        Evidence("growth", f"{growth.per_second:,.1f} entries/s", graded_window(ctx)),
    ]
    evidence += [
        Evidence("read view held", f"{t.active_seconds} s, transaction {t.id}", STATUS_SOURCE)
        for t in holders
    ]
    yield Proposal(
        title=f"Purge is falling behind: the history list grew by {growth.after - growth.before:,}",
        rationale=f"The history list grew from {growth.before:,} to {growth.after:,} in "
        f"{growth.window_seconds:,.0f} s ({growth.per_second:,.1f} per second): purge is not keeping up."
        + _reaches(ctx, growth)
        + cause,
        evidence=tuple(evidence),
        severity=severity,
    )
