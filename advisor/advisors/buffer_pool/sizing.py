"""The buffer pool's size against memory, the data and the misses."""

from __future__ import annotations

from collections.abc import Iterator

from advisor.advisors.buffer_pool.common import REF_SIZE, pool_evidence
from advisor.context import AuditContext
from advisor.derived.budget import POOL, memory_budget
from advisor.derived.pool_sizing import configured_pool, pool_pressure, pool_target
from advisor.findings import Severity
from advisor.references import MARIADB_MEMORY_ALLOCATION, MYSQL_INNODB_PARAMETERS
from advisor.rules import Proposal, rule
from advisor.units import describe_bytes, format_size

REF_PARAMS = f"{MYSQL_INNODB_PARAMETERS}#sysvar_innodb_buffer_pool_size"
REF_MARIADB = "https://mariadb.com/kb/en/innodb-buffer-pool/"


@rule("buffer_pool.exceeds_memory", Severity.CRITICAL, [REF_PARAMS, MARIADB_MEMORY_ALLOCATION])
def exceeds_memory(ctx: AuditContext) -> Iterator[Proposal]:
    """What it checks: innodb_buffer_pool_size against usable memory (the lower of RAM and a container limit).

    Why it matters: a pool at or beyond usable memory cannot be backed by RAM: the server swaps, fails to
    allocate at startup, or is killed by the OOM killer under load.

    What we recommend: the pool size the buffer pool sizing would choose (a share of usable memory, capped
    by the data size and by the rest of the memory budget), aligned to chunk size × instances.

    Caveats: needs the hardware memory; InnoDB also allocates about 5–10% beyond the pool for its own
    structures, so even a pool slightly below memory is unsafe.
    """
    pool, usable = configured_pool(ctx), ctx.usable_memory
    if pool is None or usable is None or pool[0] < usable:
        return
    size, setting = pool
    target = pool_target(ctx)
    if target is None:
        return
    yield Proposal(
        title="The buffer pool is larger than usable memory",
        rationale=f"innodb_buffer_pool_size is {describe_bytes(size)} but only "
        f"{describe_bytes(usable)} of memory is usable: the server will swap or be killed. "
        f"Use {describe_bytes(target.size_bytes)} ({target.reasons}).",
        evidence=(pool_evidence(size, setting), *target.evidence),
        variable=POOL,
        recommended=format_size(target.size_bytes),
    )


@rule("buffer_pool.oversized", Severity.WARNING, [REF_PARAMS, MARIADB_MEMORY_ALLOCATION])
def oversized(ctx: AuditContext) -> Iterator[Proposal]:
    """What it checks: a pool above the oversized share of usable memory (90%) that also leaves too little
    room for the rest of the memory budget (other global buffers and per-connection buffers).

    Why it matters: the OS, the page tables, per-connection sort/join buffers and temporary tables need
    memory too; when they do not fit, the machine swaps or the OOM killer ends mysqld.

    What we recommend: the sized target (share of memory, capped by data and by the memory budget).

    Caveats: quiet when the pool exceeds memory outright (buffer_pool.exceeds_memory says so) and on
    large machines where the rest of the budget still fits beside a pool above 90%.
    """
    pool, usable = configured_pool(ctx), ctx.usable_memory
    if pool is None or usable is None:
        return
    size, setting = pool
    if size >= usable or size <= usable * ctx.thresholds.buffer_pool.oversized_fraction_of_memory:
        return
    target, budget = pool_target(ctx), memory_budget(ctx)
    if target is None or budget is None or size <= budget.pool_room_bytes or target.size_bytes >= size:
        return
    yield Proposal(
        title="The buffer pool leaves too little memory for everything else",
        rationale=f"innodb_buffer_pool_size is {describe_bytes(size)}, {size / usable:.0%} of the "
        f"{describe_bytes(usable)} usable; with the other buffers the server may need "
        f"{describe_bytes(budget.worst_case_bytes)}, beyond the {describe_bytes(budget.limit_bytes)} limit. "
        f"Use {describe_bytes(target.size_bytes)} ({target.reasons}).",
        evidence=(pool_evidence(size, setting), *target.evidence),
        variable=POOL,
        recommended=format_size(target.size_bytes),
    )


@rule("buffer_pool.undersized", Severity.WARNING, [REF_PARAMS, REF_MARIADB, REF_SIZE])
def undersized(ctx: AuditContext) -> Iterator[Proposal]:
    """What it checks: a pool below half of what the machine can give it, with evidence that reads miss:
    the miss rate (Innodb_buffer_pool_reads / Innodb_buffer_pool_read_requests over the status window)
    above 1% while the pool reads pages from disk every second; or, without status, SHOW ENGINE INNODB
    STATUS with no free buffers and pages read per second; or schema facts with more data than pool.

    Why it matters: every miss is a disk read on the query's critical path; a pool that holds the
    working set serves reads from memory and absorbs writes before they are flushed.

    What we recommend: about 70% of usable memory on a dedicated server, capped at the InnoDB data and
    indexes plus 10% when schema facts give the whole dataset, and capped by the memory budget (other
    global buffers plus per-connection buffers at max_connections) — the rationale says when that cap
    bites. Sizes are aligned to innodb_buffer_pool_chunk_size × innodb_buffer_pool_instances.

    Caveats: assumes a dedicated database server; with no status, InnoDB status or schema at all the
    finding is a notice. Since MySQL 5.7.5 / MariaDB 10.2.2 the pool can be resized online.
    """
    pool, target = configured_pool(ctx), pool_target(ctx)
    if pool is None or target is None:
        return
    size, setting = pool
    limits = ctx.thresholds.buffer_pool
    if size >= target.unrounded_bytes * limits.undersized_fraction_of_target or target.size_bytes <= size:
        return
    verdict, evidence, sentence = pool_pressure(ctx, size)
    if verdict == "enough":
        return
    severity = None if verdict == "short" else Severity.NOTICE
    yield Proposal(
        title="The buffer pool is too small for this server",
        rationale=f"innodb_buffer_pool_size is {describe_bytes(size)}. {sentence}"
        f"Raise it to {describe_bytes(target.size_bytes)} ({target.reasons}).",
        evidence=(pool_evidence(size, setting), *evidence, *target.evidence),
        variable=POOL,
        recommended=format_size(target.size_bytes),
        severity=severity,
    )
