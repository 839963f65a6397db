"""The buffer pool this audit recommends: one decision, made once.

The buffer_pool rules present it (exceeds_memory, oversized, undersized) and the redo advisor sizes the
redo log against the pool that will run — the recommended one when the pool changes — so pool and redo
advice always agree. Other advisors (e.g. memory) can read `pool_plan(ctx).planned_bytes` for the pool
after the advice.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

from msgspec import Struct

from advisor.derived.budget import effective_pool_bytes, memory_budget
from advisor.derived.cache import once_per_audit
from advisor.derived.evidence import Grade, cap_change
from advisor.derived.pool_pressure import PoolPressure, pool_pressure
from advisor.derived.pool_sizing import PoolTarget, configured_pool, dedicated, pool_target, round_pool_bytes

if TYPE_CHECKING:
    from advisor.context import AuditContext

PoolChange = Literal["exceeds_memory", "oversized", "undersized"]


class PoolPlan(Struct, frozen=True):
    """The pool in effect, the pool we recommend (the same when nothing changes) and why."""

    current_bytes: int
    planned_bytes: int
    change: PoolChange | None
    target: PoolTarget | None
    pressure: PoolPressure | None = None

    @property
    def label(self) -> str:
        """`recommended buffer pool` when the audit changes it, else `buffer pool`."""
        return "recommended buffer pool" if self.change else "buffer pool"


def exceeds_memory(ctx: AuditContext, size: int) -> bool:
    """The pool is at or beyond usable memory."""
    usable = ctx.usable_memory
    return usable is not None and size >= usable and pool_target(ctx) is not None


def oversized(ctx: AuditContext, size: int) -> bool:
    """Above 90% of usable memory, beyond what the budget leaves it, and above the target."""
    usable, target, budget = ctx.usable_memory, pool_target(ctx), memory_budget(ctx)
    if usable is None or target is None or budget is None:
        return False
    if size >= usable or size <= usable * ctx.thresholds.buffer_pool.oversized_fraction_of_memory:
        return False
    return size > budget.pool_room_bytes and target.size_bytes < size


def misconfigured(ctx: AuditContext, size: int) -> bool:
    """A dedicated server whose pool is a sliver of memory (e.g. the 128 MiB default on 24 GiB)."""
    usable = ctx.usable_memory
    share = ctx.thresholds.buffer_pool.misconfigured_fraction_of_memory
    return usable is not None and size < usable * share and dedicated(ctx)[0]


def undersized(ctx: AuditContext, size: int) -> PoolPressure | None:
    """The pressure behind growing the pool, when it is far below the target and no input shows it
    suffices; None otherwise."""
    target = pool_target(ctx)
    if target is None or target.size_bytes <= size:
        return None
    if size >= target.unrounded_bytes * ctx.thresholds.buffer_pool.undersized_fraction_of_target:
        return None
    pressure = pool_pressure(ctx, size)
    return None if pressure.verdict == "enough" else pressure


@once_per_audit
def pool_plan(ctx: AuditContext) -> PoolPlan | None:
    """The pool before and after this audit's advice; None when its size is unknown."""
    configured = configured_pool(ctx)
    if configured is None:
        derived = effective_pool_bytes(ctx)  # innodb_dedicated_server sizes it: no change from us
        return PoolPlan(derived, derived, None, None) if derived else None
    size, target = configured[0], pool_target(ctx)
    if target is None:
        return PoolPlan(size, size, None, None)
    if exceeds_memory(ctx, size):
        return PoolPlan(size, target.size_bytes, "exceeds_memory", target)
    if oversized(ctx, size):
        return PoolPlan(size, target.size_bytes, "oversized", target)
    pressure = undersized(ctx, size)
    if pressure is not None:
        return PoolPlan(size, _grown(ctx, size, target, pressure), "undersized", target, pressure)
    return PoolPlan(size, size, None, target)


def _grown(ctx: AuditContext, size: int, target: PoolTarget, pressure: PoolPressure) -> int:
    """The target, unless only weak evidence says the pool is short: then at most a factor of two."""
    if pressure.grade is not Grade.WEAK or misconfigured(ctx, size):
        return target.size_bytes
    capped = cap_change(size, target.size_bytes, pressure.grade, ctx.thresholds.evidence)
    return min(target.size_bytes, round_pool_bytes(ctx, capped))
