"""Buffer pool sizing: geometry (chunks and instances), the size to recommend, and whether it is short.

From MySQL 5.7.5 and MariaDB 10.2.2 (until MariaDB removed chunks) the pool is a multiple of
innodb_buffer_pool_chunk_size × innodb_buffer_pool_instances; the server rounds any other value up, so
every size recommended here is such a multiple. The target is a share of usable memory, capped by the
InnoDB dataset when schema facts give it and by the memory budget (advisor.derived.budget) at its realistic
peak, so a recommended pool leaves room for every other buffer at the connections the server really sees.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from msgspec import Struct

from advisor.derived.budget import POOL, POOL_STEP_BYTES
from advisor.derived.cache import once_per_audit
from advisor.derived.connection_plan import planned_budget
from advisor.derived.settings import sized_by_dedicated_server
from advisor.findings import Evidence
from advisor.model import Profile
from advisor.units import GIB, describe_bytes, parse_size

if TYPE_CHECKING:
    from advisor.context import AuditContext, Setting

INSTANCES = "innodb_buffer_pool_instances"
CHUNK = "innodb_buffer_pool_chunk_size"


def _in_effect(ctx: AuditContext, name: str) -> bool:
    facts = ctx.catalog.lookup(name, ctx.version)
    return facts is not None and facts.exists and not facts.ignored


def chunk_bytes(ctx: AuditContext) -> int | None:
    """innodb_buffer_pool_chunk_size where the version has and honours it (None: no chunks)."""
    if not _in_effect(ctx, CHUNK):
        return None
    return ctx.config.number(CHUNK) or None


def pool_instances(ctx: AuditContext, pool_bytes: int) -> int | None:
    """How many instances the server runs with a pool of `pool_bytes` (None: cannot tell)."""
    if not _in_effect(ctx, INSTANCES):
        return 1  # MariaDB 10.5+ has one pool; MySQL before 5.5.4 had no instances
    mysql_84 = ctx.version.is_mysql_family and ctx.version.at_least(8, 4)
    if pool_bytes < GIB or (mysql_84 and pool_bytes == GIB):
        return 1  # the server ignores the setting for small pools
    setting = ctx.config.get(INSTANCES)
    if setting is not None and setting.source != "default":
        count = parse_size(setting.value)
        if count:
            return min(count, 64)
    if mysql_84:  # derived at startup: the lower of half the chunks and a quarter of the CPUs
        cpus = ctx.hardware.cpus if ctx.hardware is not None else None
        chunk = chunk_bytes(ctx)
        if cpus is None or chunk is None:
            return None
        return max(1, min(pool_bytes // chunk // 2, cpus // 4, 64))
    default = ctx.catalog.default(INSTANCES, ctx.version)
    return default if isinstance(default, int) and not isinstance(default, bool) else None


def alignment_unit(ctx: AuditContext, pool_bytes: int) -> int | None:
    """chunk × instances: the pool is a multiple of this (None: no chunks, or instances unknown)."""
    chunk = chunk_bytes(ctx)
    instances = pool_instances(ctx, pool_bytes)
    return chunk * instances if chunk is not None and instances is not None else None


def _multiple(value: int, step: int, up: bool) -> int:
    return -(-value // step) * step if up else value // step * step


def round_pool_bytes(ctx: AuditContext, target_bytes: int, *, up: bool = False) -> int:
    """The largest tidy, server-aligned pool size not above `target_bytes` (at least one step);
    with `up`, the smallest one not below it (a dataset must fit, a memory cap must not be crossed)."""
    step = GIB if target_bytes >= ctx.thresholds.buffer_pool.whole_gib_from_bytes else POOL_STEP_BYTES
    size = max(step, _multiple(target_bytes, step, up))
    for _ in range(3):  # instances (and so the unit) may change with the size itself
        unit = alignment_unit(ctx, size)
        if unit is None or size % unit == 0:
            break
        tidy = math.lcm(step, unit)
        size = max(tidy, _multiple(size, tidy, up))
    return size


class PoolTarget(Struct, frozen=True):
    """The pool size we would run: a share of memory, capped by the memory budget and, unless the
    server is dedicated to a growing production dataset, by the data. `headroom` says what it leaves."""

    size_bytes: int
    unrounded_bytes: int
    reasons: str
    evidence: tuple[Evidence, ...]
    headroom: str = ""


def configured_pool(ctx: AuditContext) -> tuple[int, Setting] | None:
    """The configured pool and its setting; None when innodb_dedicated_server sizes it."""
    setting = ctx.config.get(POOL)
    if setting is None or sized_by_dedicated_server(ctx, setting):
        return None
    size = parse_size(setting.value)
    return (size, setting) if size else None


@once_per_audit
def dedicated(ctx: AuditContext) -> tuple[bool, str]:
    """Is the machine's memory MySQL's to grow into, and why (or why not)?

    The inputs cannot declare other programs on the host, so we assume a production server is
    dedicated unless an input shows another big consumer: non-InnoDB tables (MyISAM, Aria) that
    live in the OS page cache or their own caches. A ci-profile box shares its memory with what runs
    the tests, and its data does not grow: not dedicated.
    """
    if ctx.profile != Profile.PRODUCTION:
        return False, "a ci box shares its memory with what runs the tests"
    usable = ctx.usable_memory
    if ctx.schema is not None and usable:
        others = sum(table.total_bytes for table in ctx.schema.tables if not table.is_innodb)
        if others >= usable * ctx.thresholds.buffer_pool.other_engines_max_fraction_of_memory:
            return False, f"{describe_bytes(others)} of non-InnoDB tables need memory outside the pool"
    return True, "a production server, assumed dedicated: no other large consumer of memory in the inputs"


def _dataset_cap(ctx: AuditContext, target: int) -> tuple[int, bool, str | None]:
    """Cap the target at the data + headroom, unless a dedicated server sizes for growth."""
    if ctx.schema is None:
        return target, False, None
    data = ctx.schema.innodb_data_and_index_bytes
    fitted = int(data * ctx.thresholds.buffer_pool.dataset_headroom)
    if not data or fitted >= target:
        return target, False, None
    is_dedicated, why = dedicated(ctx)
    if is_dedicated:
        return (
            target,
            False,
            (
                f"on a dedicated production server the pool is sized for growth, not to today's "
                f"{describe_bytes(data)} of InnoDB data — {why}"
            ),
        )
    return fitted, True, f"the whole InnoDB dataset plus headroom needs only {describe_bytes(fitted)}: {why}"


def _budget_cap(ctx: AuditContext, target: int) -> tuple[int, str | None]:
    """Cap the target by what the memory budget leaves the pool at the realistic peak."""
    budget = planned_budget(ctx)
    if budget is None or budget.pool_room_bytes >= target:
        return target, None
    others = budget.realistic_peak_bytes - budget.pool_bytes
    idle = f" and {budget.idle_connections} idle" if budget.idle_connections else ""
    counted = f"{budget.sizing_connections} busy connections{idle} ({budget.sizing_connections_source})"
    floor = int(target * ctx.thresholds.buffer_pool.undersized_fraction_of_target)
    if budget.pool_room_bytes >= floor:
        return budget.pool_room_bytes, (
            f"memory caps the buffer pool: everything else may take {describe_bytes(others)} at "
            f"{counted}, which leaves {describe_bytes(budget.pool_room_bytes)} "
            f"within the {describe_bytes(budget.limit_bytes)} memory limit"
        )
    # the other buffers alone overcommit memory: size the pool as if they were fixed
    return floor, (
        f"everything else may take {describe_bytes(others)} at {counted}, "
        "too much to leave the pool a sensible share; this size assumes those buffers are brought down "
        "(see memory.overcommitted)"
    )


def budget_evidence(ctx: AuditContext, size: int) -> tuple[Evidence, ...]:
    """The model behind the size: the limit and its reserve, the connections counted, the arithmetic."""
    budget = planned_budget(ctx)
    if budget is None:
        return ()
    found = [
        Evidence("memory limit for the server", describe_bytes(budget.limit_bytes), budget.reserve_source),
        Evidence(
            "connections counted busy", str(budget.sizing_connections), budget.sizing_connections_source
        ),
        Evidence("realistic peak with this pool", budget.peak_arithmetic(size), "memory budget"),
    ]
    ceiling = budget.worst_case_bytes - budget.pool_bytes + size
    if budget.sizing_connections < budget.max_connections and ceiling > budget.limit_bytes:
        found.append(  # sized for the connections counted busy: say what the configured ceiling would take
            Evidence(
                "at max_connections with this pool",
                budget.arithmetic(size, budget.max_connections, ceiling=True),
                "memory budget, worst case: the pool is sized for the connections counted busy, not for "
                "every allowed one sorting and joining at once; lower max_connections (memory.overcommitted) "
                "if the application never needs them",
            )
        )
    return tuple(found)


def _headroom(ctx: AuditContext, size: int, usable: int) -> str:
    """What a pool of `size` leaves: room for the data to grow, and memory outside the pool."""
    outside = (
        f"{describe_bytes(max(usable - size, 0))} of the {describe_bytes(usable)} stays outside the pool"
    )
    data = ctx.schema.innodb_data_and_index_bytes if ctx.schema is not None else 0
    if not data or data >= size:
        return f"{outside} for the OS, connections and the other buffers."
    ratio = size / data
    grow = f"{ratio:.0f}×" if ratio >= 2 else f"by {ratio - 1:.0%}"
    return (
        f"It leaves room for the InnoDB data to grow {grow} (from {describe_bytes(data)}), and "
        f"{outside} for the OS, connections and the other buffers."
    )


@once_per_audit
def pool_target(ctx: AuditContext) -> PoolTarget | None:
    """About 70% of usable memory, capped by the memory budget and (unless dedicated) by the data."""
    usable = ctx.usable_memory
    if usable is None:
        return None
    limits = ctx.thresholds.buffer_pool
    memory_target = int(usable * limits.target_fraction_of_memory)
    reasons = [f"{limits.target_fraction_of_memory:.0%} of usable memory is {describe_bytes(memory_target)}"]
    evidence = [Evidence("usable memory", describe_bytes(usable), "hardware memory")]
    if ctx.schema is not None:
        data = ctx.schema.innodb_data_and_index_bytes
        evidence.append(Evidence("InnoDB data + indexes", describe_bytes(data), "schema facts"))
    target, fit_dataset, why = _dataset_cap(ctx, memory_target)
    reasons += [why] if why else []
    capped, why = _budget_cap(ctx, target)
    if why:
        target, fit_dataset = capped, False
        reasons.append(why)
    size = round_pool_bytes(ctx, target, up=fit_dataset)
    budget = planned_budget(ctx)
    room = budget.pool_room_bytes if budget is not None and not why else None
    if size > memory_target or (room is not None and size > room):  # rounding up must not cross a cap
        size = round_pool_bytes(ctx, target)
    evidence += budget_evidence(ctx, size)
    return PoolTarget(size, target, "; ".join(reasons), tuple(evidence), _headroom(ctx, size, usable))
