"""Live-apply SQL in an order the server accepts: pairs of variables bound by `low <= high`.

The server checks some variables against others when one is SET: `innodb_io_capacity` may not exceed
`innodb_io_capacity_max` (MySQL clamps it with warning 1210; MariaDB 10.11 warns and moves the maximum
to twice the new value), lowering `innodb_io_capacity_max` below `innodb_io_capacity` drags the latter
down, and `innodb_max_dirty_pages_pct_lwm` above `innodb_max_dirty_pages_pct` is clamped to it (both
checked on the real MariaDB by tests/advisor/test_live_sql.py). So when both sides of such a
pair change, the statement that would break the bound in between carries the other side's SET first.

Each finding's `apply_sql` is then correct on its own, in any order the findings are run or printed
(the CLI, the web page's script and the bench run them in the order shown): a statement may repeat a
SET another finding also prints, which is harmless. A change that the bound makes impossible without a
change of the other side nobody proposes loses its live SQL and says why (the my.cnf edit still holds).

Not here, because they are not dynamic: innodb_buffer_pool_chunk_size (the pool is resized online in
multiples of chunk size × instances, which advisor.derived.pool_sizing already aligns to), and the redo
log size before MySQL 8.0.30.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from msgspec import Struct
from msgspec.structs import replace

from advisor.units import parse_size

if TYPE_CHECKING:
    from advisor.context import AuditContext
    from advisor.findings import Finding


class Bound(Struct, frozen=True):
    """`low` may not exceed `high` at any moment: raise `high` first, lower `low` first."""

    low: str
    high: str
    source: str


BOUNDS: tuple[Bound, ...] = (
    Bound(
        "innodb_io_capacity",
        "innodb_io_capacity_max",
        "MySQL manual innodb_io_capacity_max; MariaDB 10.11 checked live (warning 1210)",
    ),
    Bound(
        "innodb_max_dirty_pages_pct_lwm",
        "innodb_max_dirty_pages_pct",
        "MySQL manual innodb_max_dirty_pages_pct_lwm; MariaDB 10.11 checked live (clamped, warning 1210)",
    ),
    Bound(
        "binlog_cache_size",
        "max_binlog_cache_size",
        "MySQL manual binlog_cache_size: a larger value is set to max_binlog_cache_size with a warning",
    ),
    Bound(
        "binlog_stmt_cache_size",
        "max_binlog_stmt_cache_size",
        "MySQL manual binlog_stmt_cache_size: a larger value is set to max_binlog_stmt_cache_size",
    ),
)


def _live(findings: Sequence[Finding], name: str) -> int | None:
    """Index of the finding that sets `name` live (SET GLOBAL/PERSIST), if any."""
    return next(
        (i for i, f in enumerate(findings) if f.variable == name and f.apply_sql and f.change == "set"),
        None,
    )


def _number(text: str | None) -> float | None:
    if text is None:
        return None
    size = parse_size(text)
    if size is not None:
        return float(size)
    try:
        return float(text)
    except ValueError:
        return None


def _order_pair(ctx: AuditContext, bound: Bound, findings: list[Finding]) -> None:
    """Prefix the statement that needs the other side first, or drop one that cannot hold."""
    low_at, high_at = _live(findings, bound.low), _live(findings, bound.high)
    if low_at is None and high_at is None:
        return
    cur_low, cur_high = _number(ctx.config.text(bound.low)), _number(ctx.config.text(bound.high))
    new_low = _number(findings[low_at].recommended) if low_at is not None else cur_low
    new_high = _number(findings[high_at].recommended) if high_at is not None else cur_high
    if None in (cur_low, cur_high, new_low, new_high):
        return
    assert cur_low is not None and cur_high is not None and new_low is not None and new_high is not None
    if new_low > new_high:
        _drop(findings, low_at if low_at is not None else high_at, bound)
    elif low_at is not None and high_at is not None and new_low > cur_high:
        _prefix(findings, low_at, findings[high_at])
        _not_persisted_before(findings, low_at, bound)
    elif low_at is not None and high_at is not None and new_high < cur_low:
        _prefix(findings, high_at, findings[low_at])


def _prefix(findings: list[Finding], at: int, first: Finding) -> None:
    finding = findings[at]
    note = (
        f"Its live SQL sets {first.variable} first ({first.rule}): the server checks one against the other."
    )
    findings[at] = replace(
        finding, apply_sql=f"{first.apply_sql} {finding.apply_sql}", notes=(*finding.notes, note)
    )


def _not_persisted_before(findings: list[Finding], at: int, bound: Bound) -> None:
    """MySQL 8.0+ applies persisted values at a restart in name order: a persisted `low` that sorts before
    its `high` is set while `high` still has the option files' value, and is clamped (8.0.46 after `SET PERSIST
    innodb_io_capacity_max = 20000; SET PERSIST innodb_io_capacity = 10000` and a restart from the unchanged
    file: "innodb_io_capacity cannot be set higher than innodb_io_capacity_max. Setting innodb_io_capacity to
    2000"). So `low` is set live only; the recommended file carries both lines, which a restart reads first."""
    finding = findings[at]
    sql = finding.apply_sql or ""
    own = f"SET PERSIST {bound.low} ="
    if bound.low > bound.high or own not in sql:
        return
    note = (
        f"{bound.low} is set with SET GLOBAL, not SET PERSIST: at a restart MySQL applies persisted values in "
        f"name order, {bound.low} before {bound.high}, and would clamp it to the option files' {bound.high}; "
        "install the recommended file, which carries both lines."
    )
    findings[at] = replace(
        finding, apply_sql=sql.replace(own, f"SET GLOBAL {bound.low} ="), notes=(*finding.notes, note)
    )


def _drop(findings: list[Finding], at: int | None, bound: Bound) -> None:
    if at is None:
        return
    finding = findings[at]
    note = (
        f"No live SQL: {bound.low} may not exceed {bound.high}, and the result would break that bound "
        f"({bound.source}); apply it through the option file."
    )
    findings[at] = replace(finding, apply_sql=None, notes=(*finding.notes, note))


def order_live_sql(ctx: AuditContext, findings: Sequence[Finding]) -> list[Finding]:
    """The findings with each `apply_sql` made safe to run on its own against the bounds in BOUNDS."""
    ordered = list(findings)
    for bound in BOUNDS:
        _order_pair(ctx, bound, ordered)
    return ordered
