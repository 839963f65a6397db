"""The buffer pool this audit recommends: one decision, made once.

The buffer_pool rules present it (exceeds_memory, oversized, undersized) and the redo advisor sizes the
redo log against the pool that will run — the recommended one when the pool changes — so pool and redo
advice always agree. Other advisors (redo_log, memory) read `final_pool_plan(ctx).planned_bytes` for the pool
after the advice: with drift between the file and the running server, the file's plan when it speaks
(advisor.after_restart lets the file's verdict win). The pool never grows past what the memory budget
leaves it: when the other buffers hold it back, the plan says so (`held_by_memory`) and grows it only
as far as the budget allows — not at all when they already overcommit memory. The budget is the one at
the max_connections this audit recommends (advisor.derived.connection_plan.planned_budget): when
connections.near_limit raises it, the pool grows only into what every connection of the new limit
leaves, so the file we hand back never overcommits its own budget.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

from msgspec import Struct

from advisor.derived.budget import POOL_STEP_BYTES, effective_pool_bytes
from advisor.derived.cache import once_per_audit
from advisor.derived.connection_plan import planned_budget
from advisor.derived.evidence import Grade, cap_change
from advisor.derived.pool_pressure import PoolPressure, pool_pressure
from advisor.derived.pool_sizing import PoolTarget, configured_pool, dedicated, pool_target, round_pool_bytes
from advisor.derived.restart import restart_context

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
    #: The size the pool would grow to, when the memory budget holds it below that (at `planned_bytes`,
    #: the most the budget leaves it, which may be the pool it has: then `change` is None).
    held_by_memory: int | None = None

    @property
    def speaks(self) -> bool:
        """The plan has something to say about the pool: a change, or a growth memory holds back."""
        return self.change is not None or self.held_by_memory is not None

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
    usable, target, budget = ctx.usable_memory, pool_target(ctx), planned_budget(ctx)
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
    if pressure is None:
        return PoolPlan(size, size, None, target)
    grown = _grown(ctx, size, target, pressure)
    room = _room(ctx)
    if room is None or grown <= room:
        return PoolPlan(size, grown, "undersized", target, pressure)
    # The other buffers leave the pool no room to grow this far: never raise it past the budget (a
    # larger pool would only deepen the overcommit memory.overcommitted reports).
    if room > size:
        return PoolPlan(size, room, "undersized", target, pressure, held_by_memory=grown)
    return PoolPlan(size, size, None, target, pressure, held_by_memory=grown)


def _room(ctx: AuditContext) -> int | None:
    """The largest tidy pool the memory budget leaves room for at its realistic peak (0: none)."""
    budget = planned_budget(ctx)
    if budget is None:
        return None
    room = budget.pool_room_bytes
    return round_pool_bytes(ctx, room) if room >= POOL_STEP_BYTES else 0


@once_per_audit
def final_pool_plan(ctx: AuditContext) -> PoolPlan | None:
    """The plan whose pool the audit ends up recommending, for every other advisor to size against.

    When the option file departs from the running server, the rules that read a drifted setting run
    again over the file's values, and where the file's run says something about a variable the live
    run changes, the file's verdict wins (advisor.after_restart): the pool in the file we hand back is
    then the file's plan. So the redo log, the memory budget's "after the advice" and the rest cite the
    one pool size the buffer_pool finding recommends."""
    plan = pool_plan(ctx)
    restarted = restart_context(ctx)
    if restarted is None:
        return plan
    at_restart = pool_plan(restarted)
    return at_restart if at_restart is not None and at_restart.speaks else plan


def _grown(ctx: AuditContext, size: int, target: PoolTarget, pressure: PoolPressure) -> int:
    """The target, unless only weak evidence says the pool is short: then at most a factor of two."""
    if pressure.grade is not Grade.WEAK or misconfigured(ctx, size):
        return target.size_bytes
    capped = cap_change(size, target.size_bytes, pressure.grade, ctx.thresholds.evidence)
    return min(target.size_bytes, round_pool_bytes(ctx, capped))
