"""The buffer pool's size against memory, the data and the misses (decided in advisor.derived.pool_plan)."""

from __future__ import annotations

from collections.abc import Iterator

from advisor.advisors.buffer_pool.common import REF_SIZE, pool_evidence
from advisor.context import AuditContext
from advisor.derived.budget import POOL
from advisor.derived.connection_plan import planned_budget
from advisor.derived.evidence import what_to_measure
from advisor.derived.pool_plan import PoolPlan, misconfigured, pool_plan
from advisor.derived.pool_pressure import PoolPressure
from advisor.derived.pool_sizing import budget_evidence, configured_pool
from advisor.findings import Severity
from advisor.references import MARIADB_MEMORY_ALLOCATION, MYSQL_INNODB_PARAMETERS
from advisor.rules import Proposal, rule
from advisor.units import describe_bytes, format_size

REF_PARAMS = f"{MYSQL_INNODB_PARAMETERS}#sysvar_innodb_buffer_pool_size"
REF_MARIADB = "https://mariadb.com/kb/en/innodb-buffer-pool/"


def _plan(ctx: AuditContext, change: str) -> PoolPlan | None:
    plan = pool_plan(ctx)
    return plan if plan is not None and plan.change == change and plan.target is not None else None


@rule(
    "buffer_pool.exceeds_memory",
    Severity.CRITICAL,
    [REF_PARAMS, MARIADB_MEMORY_ALLOCATION],
    needs=("memory",),
)
def exceeds_memory(ctx: AuditContext) -> Iterator[Proposal]:
    """What it checks: innodb_buffer_pool_size against usable memory (the lower of RAM and a container limit).

    Why it matters: a pool at or beyond usable memory cannot be backed by RAM: the server swaps, fails to
    allocate at startup, or is killed by the OOM killer under load.

    What we recommend: the pool size the buffer pool sizing would choose (a share of usable memory, capped
    by the data size and by the rest of the memory budget), aligned to chunk size × instances.

    Caveats: needs the hardware memory; InnoDB also allocates about 5–10% beyond the pool for its own
    structures, so even a pool slightly below memory is unsafe.
    """
    plan, pool, usable = _plan(ctx, "exceeds_memory"), configured_pool(ctx), ctx.usable_memory
    if plan is None or plan.target is None or pool is None or usable is None:
        return
    size, setting = pool
    target = plan.target
    yield Proposal(
        title="The buffer pool is larger than usable memory",
        rationale=f"innodb_buffer_pool_size is {describe_bytes(size)} but only "
        f"{describe_bytes(usable)} of memory is usable: the server will swap or be killed. "
        f"Use {describe_bytes(target.size_bytes)} ({target.reasons}).",
        evidence=(pool_evidence(size, setting), *target.evidence),
        variable=POOL,
        recommended=format_size(target.size_bytes),
    )


@rule("buffer_pool.oversized", Severity.WARNING, [REF_PARAMS, MARIADB_MEMORY_ALLOCATION], needs=("memory",))
def oversized(ctx: AuditContext) -> Iterator[Proposal]:
    """What it checks: a pool above the oversized share of usable memory (90%) that also leaves too little
    room for the rest of the memory budget (other global buffers and per-connection buffers).

    Why it matters: the OS, the page tables, per-connection sort/join buffers and temporary tables need
    memory too; when they do not fit, the machine swaps or the OOM killer ends mysqld.

    What we recommend: the sized target (share of memory, capped by data and by the memory budget).

    Caveats: quiet when the pool exceeds memory outright (buffer_pool.exceeds_memory says so) and on
    large machines where the rest of the budget still fits beside a pool above 90%.
    """
    plan, pool, usable, budget = (
        _plan(ctx, "oversized"),
        configured_pool(ctx),
        ctx.usable_memory,
        planned_budget(ctx),
    )
    if plan is None or plan.target is None or pool is None or usable is None or budget is None:
        return
    size, setting = pool
    target = plan.target
    yield Proposal(
        title="The buffer pool leaves too little memory for everything else",
        rationale=f"innodb_buffer_pool_size is {describe_bytes(size)}, {size / usable:.0%} of the "
        f"{describe_bytes(usable)} usable; with the other buffers at a realistic peak the server may need "
        f"{describe_bytes(budget.realistic_peak_bytes)}, beyond the {describe_bytes(budget.limit_bytes)} limit. "
        f"Use {describe_bytes(target.size_bytes)} ({target.reasons}).",
        evidence=(pool_evidence(size, setting), *target.evidence),
        variable=POOL,
        recommended=format_size(target.size_bytes),
    )


@rule("buffer_pool.undersized", Severity.WARNING, [REF_PARAMS, REF_MARIADB, REF_SIZE], needs=("memory",))
def undersized(ctx: AuditContext) -> Iterator[Proposal]:
    """What it checks: a pool below half of what the machine can give it, with evidence that reads miss:
    the miss rate (Innodb_buffer_pool_reads / Innodb_buffer_pool_read_requests over the status window)
    above 1% while the pool reads pages from disk every second; or, without status, SHOW ENGINE INNODB
    STATUS with no free buffers and pages read per second; or schema facts with more data than pool.

    Why it matters: every miss is a disk read on the query's critical path; a pool that holds the
    working set serves reads from memory and absorbs writes before they are flushed.

    What we recommend: about 70% of usable memory, capped by the memory budget at its realistic peak
    (other global buffers plus per-connection buffers at Max_used_connections × 1.5, or at
    max_connections without status or when that peak covers under an hour since startup or FLUSH STATUS
    — weak evidence, advisor.derived.evidence; in a container, 95% of the limit with the
    server's own memory counted) — the evidence names the limit, the reserve, the connections counted
    and the arithmetic, and the rationale says when that cap bites. On a
    dedicated production server the pool is sized for that growth room, not to today's data; on a ci
    box, or beside large MyISAM/Aria tables, it is capped at twice the InnoDB data and indexes when
    schema facts give the whole dataset (the pool also holds undo pages, the change buffer and the free
    pages reads need, and the data grows). The rationale says how much room the new size leaves for the
    data to grow and how much memory stays outside the pool. Sizes are aligned to
    innodb_buffer_pool_chunk_size × innodb_buffer_pool_instances. Never past what the memory budget
    leaves the pool at its realistic peak: when the other buffers hold it below that, it grows only as
    far as the budget allows, and when they already overcommit memory it does not grow at all — the
    finding then changes nothing and says why: everything but the pool at the connections counted,
    its largest items with their numbers, and by how much it must come down before the pool can grow
    (memory.overcommitted, memory.per_connection_buffer_raised).

    Caveats: every input is weighed by the strength of its evidence (advisor.derived.pool_pressure):
    the strongest decides, so schema facts with data several times the pool outweigh a good hit rate
    over a short or since-startup window, and a cold pool minutes after a start is weak evidence. A
    warning needs a pool firmly short on fair or strong evidence, or a pool under 5% of a dedicated
    server's memory (never sized for the machine: a warning even with no status at all); otherwise it
    is a notice, and with weak evidence it says what to measure. "Dedicated" is assumed for the
    production profile unless schema facts show large non-InnoDB tables; the inputs cannot declare
    other programs on the host. Since MySQL 5.7.5 / MariaDB 10.2.2 the pool can be resized online.
    """
    plan, pool, usable = pool_plan(ctx), configured_pool(ctx), ctx.usable_memory
    if plan is None or plan.target is None or plan.pressure is None or pool is None or usable is None:
        return
    size, setting = pool
    target, pressure = plan.target, plan.pressure
    severity, why = _undersized_severity(ctx, size, usable, pressure)
    held = _held_by_memory(ctx, plan)
    if plan.change is None and held:  # no room at all: say why, change nothing
        yield Proposal(
            title="The buffer pool is too small, but memory has no room to grow it",
            rationale=f"innodb_buffer_pool_size is {describe_bytes(size)}. {pressure.sentence}{why}{held} "
            "Until then the pool stays as it is: raising it would only deepen the overcommit.",
            # the budget at the pool as it is: the target's arithmetic would show a size not recommended
            evidence=tuple(
                dict.fromkeys((pool_evidence(size, setting), *pressure.evidence, *budget_evidence(ctx, size)))
            ),
            variable=POOL,
            severity=severity,
        )
        return
    if plan.change != "undersized":
        return
    if held:
        advice = f"Raise it to {describe_bytes(plan.planned_bytes)}, all the memory budget leaves it. {held}"
    elif plan.planned_bytes < target.size_bytes:
        advice = (
            f"Raise it to {describe_bytes(plan.planned_bytes)} for now, on the way to "
            f"{describe_bytes(target.size_bytes)} ({target.reasons}); weak evidence never moves it further."
        )
    else:
        advice = f"Raise it to {describe_bytes(target.size_bytes)} ({target.reasons}). {target.headroom}"
    yield Proposal(
        title="The buffer pool is too small for this server",
        rationale=f"innodb_buffer_pool_size is {describe_bytes(size)}. {pressure.sentence}{why}{advice}",
        evidence=tuple(dict.fromkeys((pool_evidence(size, setting), *pressure.evidence, *target.evidence))),
        variable=POOL,
        recommended=format_size(plan.planned_bytes),
        severity=severity,
    )


def _held_by_memory(ctx: AuditContext, plan: PoolPlan) -> str:
    """Why the budget holds the pool below where it would grow, and by how much the rest must come
    down first (its largest items, with their numbers); "" when it does not."""
    budget = planned_budget(ctx)
    wanted = plan.held_by_memory
    if wanted is None or budget is None:
        return ""
    connections = budget.sizing_connections
    others, room = budget.others_bytes, budget.pool_room_bytes
    return (
        f"Growing it to {describe_bytes(wanted)} needs memory the rest of the configuration already "
        f"takes: at {connections} connections ({budget.sizing_connections_source}) everything but the pool "
        f"may take {describe_bytes(others)} of the {describe_bytes(budget.limit_bytes)} limit — the "
        f"largest: {budget.largest(connections)}. It must come down by "
        f"{describe_bytes(wanted - room)} before the pool can be {describe_bytes(wanted)}"
        + (
            " (see memory.overcommitted and memory.per_connection_buffer_raised)."
            if budget.realistic_peak_bytes > budget.limit_bytes
            else ": lower the per-connection buffers or max_connections first if the pool matters more."
        )
    )


def _undersized_severity(
    ctx: AuditContext, size: int, usable: int, pressure: PoolPressure
) -> tuple[Severity | None, str]:
    """A warning for a sliver of a dedicated server's memory or a pool firmly short; else a notice."""
    if misconfigured(ctx, size):
        return None, (
            f"At {size / usable:.1%} of the {describe_bytes(usable)} of usable memory on a dedicated server, "
            "the pool was never sized for this machine. "
        )
    if pressure.firm:
        return None, ""
    if pressure.verdict == "short" and pressure.contested:
        return Severity.NOTICE, "The inputs disagree, so this is a notice. "
    if pressure.verdict == "short":
        return Severity.NOTICE, f"The evidence is weak, so this is a notice. {what_to_measure(ctx)} "
    return Severity.NOTICE, ""
