"""The max_connections this audit recommends, and the memory budget the buffer pool is sized against.

connections.near_limit raises max_connections when the peak came close to it or clients were refused;
buffer_pool sizes the pool from the room the memory budget leaves. Each fitting memory alone is not
enough: a pool grown into the room left at 1000 connections and a limit raised to 1310 against the old,
smaller pool add up to more than the limit, and the file we hand back overcommits memory. So the two
decisions are made in order, once:

1. Connections first. A server at its connection limit turns clients away — errors at the busiest
   moment — while a pool short of memory makes the same queries slower; a DBA keeps the connections
   and gives the pool what is left. The raise goes only as far as every allowed connection fits with
   the pool the server has now (a pool is never shrunk to make room for connections: that trade is
   the DBA's, with the miss rate in hand).
2. The pool then grows only into what the budget leaves at the raised limit (`planned_budget`): every
   allowed connection is counted, not Max_used_connections × 1.5 — the peak reached the limit, so it is
   censored by it and cannot show the demand above; the raise is made for that unseen demand.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from msgspec import Struct
from msgspec.structs import replace

from advisor.derived.budget import MemoryBudget, memory_budget
from advisor.derived.cache import once_per_audit
from advisor.derived.evidence import high_water_too_short

if TYPE_CHECKING:
    from advisor.context import AuditContext

NEAR_LIMIT = "connections.near_limit"


class ConnectionPlan(Struct, frozen=True):
    """max_connections now and after the advice, and why it stops where it does."""

    limit: int
    peak: int | None
    #: connections refused at the limit in the status window (Connection_errors_max_connections)
    refused: int
    #: the peak (or the limit, when clients were refused) times the headroom factor, rounded up to ten
    wanted: int
    #: the max_connections the audit recommends: `limit` when it changes nothing
    planned: int
    #: the memory arithmetic at `wanted`, when that many connections do not fit the budget
    memory_arithmetic: str | None = None
    #: why max_connections stays as it is (a weak high-water window, or no memory for more); None when raised
    held: str | None = None

    @property
    def raises(self) -> bool:
        return self.planned > self.limit


@once_per_audit
def connection_plan(ctx: AuditContext) -> ConnectionPlan | None:
    """max_connections before and after connections.near_limit; None when the rule has nothing to say
    (the peak is not near the limit and nobody was refused, or the headroom asks for no more)."""
    status, limit = ctx.status, ctx.config.number("max_connections")
    if status is None or not limit:
        return None
    peak = status.value("Max_used_connections")
    refused = status.delta("Connection_errors_max_connections") or 0
    near = peak is not None and peak >= ctx.thresholds.connections.near_limit_fraction * limit
    if not near and not refused:
        return None
    base = max(peak or 0, limit) if refused else (peak or limit)
    wanted = math.ceil(base * ctx.thresholds.connections.max_connections_headroom / 10) * 10
    facts = ctx.catalog.lookup("max_connections", ctx.version)
    if facts is not None and facts.max is not None:
        wanted = min(wanted, int(facts.max))
    if wanted <= limit:
        return None
    fits, arithmetic = _fits_memory(ctx, limit, wanted)
    held = None if refused else _lowered_since(peak, limit) or high_water_too_short(ctx, "max_connections")
    if held is None and arithmetic is not None and fits <= limit:
        held = (
            f"Raising it to {wanted} would let the connections' buffers take more memory than the limit "
            "allows (see the memory at the raised limit): lower the per-connection buffers or give the server "
            "more memory first; until then clients are turned away, rather than the server running out of memory."
        )
    planned = limit if held is not None else min(wanted, fits)
    return ConnectionPlan(limit, peak, refused, wanted, planned, arithmetic, held)


def _lowered_since(peak: int | None, limit: int) -> str | None:
    """A peak beyond the limit and the administrator's connection (Max_used_connections counts it) was
    reached under a higher limit: someone lowered max_connections since. With nobody refused at the
    new limit, raising it back would undo that on no evidence of need."""
    if peak is None or peak <= limit + 1:
        return None
    return (
        f"Nobody was turned away at the present limit of {limit} (no Connection_errors_max_connections), "
        "so it stays as set: it was lowered on purpose, or the demand of the peak is gone. Should clients "
        'be refused with "Too many connections", raise it again.'
    )


def _fits_memory(ctx: AuditContext, limit: int, target: int) -> tuple[int, str | None]:
    """The highest max_connections up to `target` whose every connection fits the memory budget with
    the pool the server has now (rounded down to ten, never below the current limit), and the
    arithmetic when `target` does not fit."""
    budget = memory_budget(ctx)
    each = budget.per_connection_bytes if budget is not None else 0
    if budget is None or not each or budget.global_bytes + target * each <= budget.limit_bytes:
        return target, None
    room = budget.limit_bytes - budget.global_bytes
    fits = max(limit, room // each // 10 * 10)
    return fits, budget.arithmetic(budget.pool_bytes, target)


@once_per_audit
def planned_budget(ctx: AuditContext) -> MemoryBudget | None:
    """The memory budget with max_connections as this audit recommends it: what the buffer pool is
    sized against and what "after the advice" means to the other advisors. When connections.near_limit
    raises the limit, every allowed connection is counted (see the module docstring); else the budget
    of the configuration as it is."""
    budget, plan = memory_budget(ctx), connection_plan(ctx)
    if budget is None or plan is None or not plan.raises:
        return budget
    source = (
        f"max_connections = {plan.planned} as {NEAR_LIMIT} raises it, every allowed connection: the peak "
        f"({plan.peak}) came close to the present limit of {plan.limit}, which caps what it can show of the demand"
        if plan.peak is not None and not plan.refused
        else f"max_connections = {plan.planned} as {NEAR_LIMIT} raises it, every allowed connection: "
        f"{plan.refused} client(s) were refused at the present limit of {plan.limit}, so the demand is "
        "above anything Max_used_connections can show"
    )
    return replace(
        budget,
        max_connections=plan.planned,
        max_connections_source=f"recommended by {NEAR_LIMIT}",
        sizing_connections=plan.planned,
        sizing_connections_source=source,
    )
