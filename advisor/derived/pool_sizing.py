"""Buffer pool sizing: geometry (chunks and instances), the size to recommend, and whether it is short.

From MySQL 5.7.5 and MariaDB 10.2.2 (until MariaDB removed chunks) the pool is a multiple of
innodb_buffer_pool_chunk_size × innodb_buffer_pool_instances; the server rounds any other value up, so
every size recommended here is such a multiple. The target is a share of usable memory, capped by the
InnoDB dataset when schema facts give it and by the memory budget (advisor.derived.budget), so a recommended
pool leaves room for every other buffer.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from advisor.derived.budget import POOL, POOL_STEP_BYTES, memory_budget
from advisor.derived.cache import once_per_audit
from advisor.derived.settings import sized_by_dedicated_server
from advisor.findings import Evidence
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


@dataclass(frozen=True, slots=True)
class PoolTarget:
    """The pool size we would run: a share of memory, capped by the data and the memory budget."""

    size_bytes: int
    unrounded_bytes: int
    reasons: str
    evidence: tuple[Evidence, ...]


def configured_pool(ctx: AuditContext) -> tuple[int, Setting] | None:
    """The configured pool and its setting; None when innodb_dedicated_server sizes it."""
    setting = ctx.config.get(POOL)
    if setting is None or sized_by_dedicated_server(ctx, setting):
        return None
    size = parse_size(setting.value)
    return (size, setting) if size else None


@once_per_audit
def pool_target(ctx: AuditContext) -> PoolTarget | None:
    """About 70% of usable memory, capped by the InnoDB data + headroom and by the memory budget."""
    usable = ctx.usable_memory
    if usable is None:
        return None
    limits = ctx.thresholds.buffer_pool
    target = int(usable * limits.target_fraction_of_memory)
    reasons = [f"{limits.target_fraction_of_memory:.0%} of usable memory is {describe_bytes(target)}"]
    memory_target, fit_dataset = target, False
    evidence = [Evidence("usable memory", describe_bytes(usable), "hardware memory")]
    if ctx.schema is not None:
        data = ctx.schema.innodb_data_and_index_bytes
        evidence.append(Evidence("InnoDB data + indexes", describe_bytes(data), "schema facts"))
        if data and data * limits.dataset_headroom < target:
            target, fit_dataset = int(data * limits.dataset_headroom), True
            reasons.append(f"the whole InnoDB dataset plus headroom needs only {describe_bytes(target)}")
    budget = memory_budget(ctx)
    if budget is not None and budget.pool_room_bytes < target:
        others = budget.worst_case_bytes - budget.pool_bytes
        floor = int(target * limits.undersized_fraction_of_target)
        if budget.pool_room_bytes >= floor:
            target, fit_dataset = budget.pool_room_bytes, False
            reasons.append(
                f"memory caps the buffer pool: everything else may take {describe_bytes(others)} at "
                f"max_connections={budget.max_connections}, which leaves {describe_bytes(target)} within "
                f"the {describe_bytes(budget.limit_bytes)} memory limit"
            )
        else:  # the other buffers alone overcommit memory: size the pool as if they were fixed
            target, fit_dataset = floor, False
            reasons.append(
                f"everything else may take {describe_bytes(others)} at max_connections="
                f"{budget.max_connections}, too much to leave the pool a sensible share; this size assumes "
                "those buffers are brought down (see memory.overcommitted)"
            )
    size = round_pool_bytes(ctx, target, up=fit_dataset)
    if size > memory_target:
        size = round_pool_bytes(ctx, target)
    return PoolTarget(size, target, "; ".join(reasons), tuple(evidence))


Verdict = Literal["short", "enough", "unknown"]


def _status_pressure(ctx: AuditContext) -> tuple[Verdict, tuple[Evidence, ...], str] | None:
    status = ctx.status
    if status is None:
        return None
    requests = status.delta("Innodb_buffer_pool_read_requests")
    reads = status.delta("Innodb_buffer_pool_reads")
    reads_per_second = status.rate("Innodb_buffer_pool_reads")
    if not requests or reads is None or reads_per_second is None:
        return None
    limits = ctx.thresholds.buffer_pool
    miss_rate = reads / requests
    source = (
        "SHOW GLOBAL STATUS Innodb_buffer_pool_reads, Innodb_buffer_pool_read_requests, "
        f"{status.describe_window()}"
    )
    evidence = (
        Evidence(
            "buffer pool miss rate", f"{miss_rate:.2%} ({reads:,} of {requests:,} page requests)", source
        ),
        Evidence("pages read from disk per second", f"{reads_per_second:,.1f}", source),
    )
    if miss_rate > limits.max_miss_rate and reads_per_second >= limits.min_disk_reads_per_second:
        sentence = (
            f"{miss_rate:.1%} of page requests miss the pool and go to disk "
            f"({reads_per_second:,.0f} reads per second). "
        )
        return "short", evidence, sentence
    return "enough", evidence, ""


def _innodb_pressure(ctx: AuditContext) -> tuple[Verdict, tuple[Evidence, ...], str] | None:
    innodb = ctx.innodb
    if innodb is None or innodb.free_buffers is None or innodb.pages_read_per_second is None:
        return None
    source = "SHOW ENGINE INNODB STATUS (BUFFER POOL AND MEMORY)"
    evidence = (
        Evidence("free buffers", str(innodb.free_buffers), source),
        Evidence("pages read per second", f"{innodb.pages_read_per_second:,.1f}", source),
    )
    if (
        innodb.free_buffers == 0
        and innodb.pages_read_per_second >= ctx.thresholds.buffer_pool.min_disk_reads_per_second
    ):
        sentence = (
            f"The pool has no free pages and reads {innodb.pages_read_per_second:,.0f} pages per second "
            "from disk, evicting others to make room. "
        )
        return "short", evidence, sentence
    return "enough", evidence, ""


def pool_pressure(ctx: AuditContext, pool_bytes: int) -> tuple[Verdict, tuple[Evidence, ...], str]:
    """Is the pool short of memory? Status over the window first, then InnoDB status, then schema facts."""
    found = _status_pressure(ctx) or _innodb_pressure(ctx)
    if found is not None:
        return found
    if ctx.schema is not None:
        data = ctx.schema.innodb_data_and_index_bytes
        if data > pool_bytes:
            return "short", (), f"The InnoDB data and indexes ({describe_bytes(data)}) do not fit in it. "
        return "enough", (), ""
    return "unknown", (), "No status, InnoDB status or schema facts were given to show how often reads miss. "
