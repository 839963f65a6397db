"""An oversized redo log: many times what the pool can hold dirty, so it only lengthens recovery."""

from __future__ import annotations

from collections.abc import Iterator

from advisor.advisors.redo_log.common import RECOVERY_COST, procedure
from advisor.context import AuditContext
from advisor.derived.evidence import Grade, window_grade
from advisor.derived.pool_plan import final_pool_plan
from advisor.derived.redo_sizing import redo_log, write_rate
from advisor.derived.redo_target import RedoBound, RedoTarget, redo_bound, redo_target
from advisor.findings import Evidence, Severity
from advisor.references import MARIADB_CONFIGURE_REDO, MYSQL_INNODB_CHECKPOINTS
from advisor.rules import ALL_VERSIONS, Proposal, rule
from advisor.units import describe_bytes, format_size

REF_MARIADB = "https://mariadb.com/kb/en/innodb-redo-log/"


def _shrink_to(ctx: AuditContext, target: RedoTarget, bound: RedoBound) -> tuple[int, str]:
    """The one redo target when a fair or strong write rate sized it; else the bound (rounded up),
    the most that can buy anything — without a trusted rate we do not cut below it."""
    grade = window_grade(ctx)
    if write_rate(ctx) is not None and grade is not None and grade.grade is not Grade.WEAK:
        return target.total_bytes, f"sized for {target.reason}"
    step = ctx.thresholds.redo_log.size_step_bytes
    rounded = -(-bound.size_bytes // step) * step
    return max(rounded, target.total_bytes), "the most the pool can use, rounded up to a 256 MiB step"


def _pool_unsettled(ctx: AuditContext) -> bool:
    """The pool is not where it is headed, so the bound will grow with it and shrinking the log now
    would be undone: the pool is still the server's default with no memory known to size it, or this
    audit raises it only part of the way (weak evidence moves it at most 2× towards its target)."""
    plan = final_pool_plan(ctx)
    if plan is None:
        return True
    if plan.target is not None:
        return plan.target.size_bytes > plan.planned_bytes
    facts = ctx.catalog.lookup("innodb_buffer_pool_size", ctx.version)
    default = facts.default if facts is not None else None
    return ctx.config.get("innodb_buffer_pool_size") is None or (
        isinstance(default, int) and plan.current_bytes == default
    )


@rule(
    "redo_log.oversized",
    Severity.NOTICE,
    [MYSQL_INNODB_CHECKPOINTS, MARIADB_CONFIGURE_REDO, REF_MARIADB],
    ALL_VERSIONS,
)
def oversized(ctx: AuditContext) -> Iterator[Proposal]:
    """What it checks: the redo capacity against the most redo that can buy anything — twice what the
    pool that will run may hold dirty (innodb_max_dirty_pages_pct of it, or the InnoDB data when
    schema facts show less; the bound every redo rule shares, advisor.derived.redo_target) — and
    against the one redo target; it fires when the log is more than twice both.

    Why it matters: redo only has to cover the changes to pages still dirty in the pool; hot pages
    rewritten while dirty need a few times their bytes (the MySQL manual: "as large as the buffer pool
    or even larger"; MariaDB: "For the maximum capacity in the Redo Log, the Redo Log size should be
    the same as the innodb_buffer_pool_size"), not many times. Beyond that the log buys no throughput
    and costs disk space and crash-recovery time: recovery replays everything since the last
    checkpoint, up to the whole log (measured on MariaDB 10.11: 11.5 GiB beside a 512 MiB pool was no
    faster than 1 GiB and took 15.8 s to recover instead of 3.6 s).

    What we recommend: the redo target when a fair or strong write rate sizes it, else the bound
    itself (rounded up to 256 MiB) — never below what the undersized and checkpoint rules would ask,
    so the redo rules never pull against each other.

    Caveats: a notice: an oversized log slows only recovery. The bound follows the recommended pool
    when buffer_pool advice changes it; while the pool is not where it is headed (the server default
    with no memory size given, or raised only part of the way on weak evidence) the rule stays quiet:
    the bound grows with the pool, and a log shrunk now would have to grow back. innodb_log_file_size is dynamic only on MariaDB 10.9+ and
    innodb_redo_log_capacity on MySQL 8.0.30+; before MySQL 5.6.8 / MariaDB 10.0 the resize needs the
    manual procedure (the rationale gives it).
    """
    redo, bound = redo_log(ctx), redo_bound(ctx)
    if redo is None or bound is None or _pool_unsettled(ctx):
        return
    factor = ctx.thresholds.redo_log.oversized_factor
    target = redo_target(ctx)
    if target is None or redo.capacity_bytes <= max(bound.size_bytes, target.total_bytes) * factor:
        return
    size, why = _shrink_to(ctx, target, bound)
    if size >= redo.capacity_bytes:
        return
    value = redo.setting_for(size)
    how = "" if redo.files == 1 else f" ({redo.files} files of {describe_bytes(value)})"
    ratio = redo.capacity_bytes / bound.size_bytes
    times = f"{ratio:.1f}" if ratio < 10 else f"{ratio:.0f}"
    yield Proposal(
        title=f"The redo log is {times}× the redo the buffer pool can use",
        rationale=f"The {describe_bytes(redo.capacity_bytes)} redo log is {times} times the "
        f"{describe_bytes(bound.size_bytes)} the buffer pool can use ({bound.sentence}): only changes to "
        "pages still dirty in the pool need redo, so the rest of the log buys no throughput. Make it "
        f"{describe_bytes(size)}{how}, {why}. {RECOVERY_COST}{procedure(ctx)}",
        evidence=(
            *redo.evidence,
            *bound.evidence,
            Evidence("most redo the pool can use", describe_bytes(bound.size_bytes), "redo bound"),
        ),
        variable=redo.variable,
        recommended=format_size(value),
    )
