"""Memory: the whole configuration's worst case against usable memory, and the temporary table limits."""

from __future__ import annotations

from collections.abc import Iterator

from advisor.context import AuditContext
from advisor.derived.budget import (
    BudgetItem,
    MemoryBudget,
    memory_budget,
    optimizes_join_buffer_size,
    temp_table_limit,
)
from advisor.derived.connection_plan import planned_budget
from advisor.derived.evidence import high_water_source, high_water_too_short
from advisor.derived.pool_plan import final_pool_plan
from advisor.findings import Evidence, Severity
from advisor.references import MARIADB_MEMORY_ALLOCATION, MYSQL_SERVER_VARIABLES
from advisor.rules import ALL_VERSIONS, Proposal, Rule, rule
from advisor.units import describe_bytes, format_size

REF_MYSQL = "https://dev.mysql.com/doc/refman/8.0/en/memory-use.html"
REF_TEMP = "https://dev.mysql.com/doc/refman/8.0/en/internal-temporary-tables.html"
REF_TMP_SIZE = f"{MYSQL_SERVER_VARIABLES}#sysvar_tmp_table_size"
REF_SORT_BUFFER = f"{MYSQL_SERVER_VARIABLES}#sysvar_sort_buffer_size"
REF_ORDER_BY = "https://dev.mysql.com/doc/refman/8.0/en/order-by-optimization.html"
REF_MARIADB_JOIN_BUFFERS = "https://mariadb.com/kb/en/block-based-join-algorithms/#size-of-join-buffers"
#: the per-connection buffers a query asks for per operation, safe to bring back to their defaults
_RESETTABLE = frozenset({"sort_buffer_size", "join_buffer_size", "read_buffer_size", "read_rnd_buffer_size"})


def _items(items: tuple[BudgetItem, ...]) -> str:
    return ", ".join(f"{item.name} {describe_bytes(item.size_bytes)}{_of_set(item)}" for item in items)


def _of_set(item: BudgetItem) -> str:
    """` (of 8 MiB set)` for an item counted at less than its value, ` (a 1 GiB cap allocated on demand)`
    for one counted at less than its ceiling, else ""."""
    if item.ceiling_bytes is not None:
        return f" (a {describe_bytes(item.ceiling_bytes)} cap allocated on demand)"
    return f" (of {describe_bytes(item.set_bytes)} set)" if item.configured_bytes is not None else ""


def _caps_full(budget: MemoryBudget) -> str:
    """`, on-demand caps full` when the worst case counts an item at more than the realistic peak does."""
    return ", on-demand caps full" if budget.global_ceiling_bytes > budget.global_bytes else ""


def _evidence(ctx: AuditContext, budget: MemoryBudget) -> tuple[Evidence, ...]:
    found = [Evidence("usable memory", describe_bytes(budget.usable_bytes), "hardware memory")]
    found += [
        Evidence(item.name, describe_bytes(item.size_bytes), item.source) for item in budget.global_items
    ]
    found += [
        Evidence(f"{item.name} (per connection)", describe_bytes(item.size_bytes), item.source)
        for item in budget.per_connection_items
    ]
    found.append(Evidence("max_connections", str(budget.max_connections), budget.max_connections_source))
    found.append(
        Evidence("connections counted busy", str(budget.sizing_connections), budget.sizing_connections_source)
    )
    if budget.idle_connections:
        found.append(
            Evidence(
                "connections counted idle",
                f"{budget.idle_connections} × {describe_bytes(budget.idle_connection_bytes)}",
                "assumed: an open connection between queries (measured on MariaDB 10.11, bench/server_memory.py)",
            )
        )
    found.append(Evidence("realistic peak", budget.peak_arithmetic(budget.pool_bytes), "memory budget"))
    if budget.max_used_connections is not None and ctx.status is not None:
        source = high_water_source(ctx, "Max_used_connections")
        found.append(Evidence("Max_used_connections", str(budget.max_used_connections), source))
    found.append(
        Evidence("memory limit for the server", describe_bytes(budget.limit_bytes), budget.reserve_source)
    )
    return tuple(found)


def _severity(ctx: AuditContext, budget: MemoryBudget) -> tuple[Severity | None, str]:
    """Critical when the global buffers (with one connection's buffers) or the busiest moment seen exceed
    memory and this audit changes a line that brings memory down; a warning instead (saying so) when it
    changes none — a critical must come with its fix. A notice when only the configured ceiling
    overcommits and the realistic peak fits the limit; else a warning."""
    peak, usable = budget.observed_peak_bytes, budget.usable_bytes
    one_connection = budget.global_bytes + budget.per_connection_bytes  # a single session sorting and joining
    if budget.global_bytes >= usable or one_connection > usable or (peak is not None and peak > usable):
        if _audit_lowers_memory(ctx, budget):
            return Severity.CRITICAL, ""
        return Severity.WARNING, (
            " No line of this audit lowers them (a warning, not critical: nothing here changes): lower the "
            "largest items above by hand, starting with what the workload needs least."
        )
    if budget.realistic_peak_bytes <= budget.limit_bytes:
        return Severity.NOTICE, ""
    return None, ""


def _audit_lowers_memory(ctx: AuditContext, budget: MemoryBudget) -> bool:
    """This audit changes a line that brings memory down: a smaller pool, or raised per-connection buffers
    back at their defaults (memory.per_connection_buffer_raised)."""
    plan = final_pool_plan(ctx)
    return (plan is not None and plan.planned_bytes < plan.current_bytes) or bool(raised_buffers(ctx, budget))


def _reserve_text(budget: MemoryBudget) -> str:
    """How the limit was set: what is kept back and what the temporary tables count for."""
    return f"{budget.reserve_source}; temporary tables counted once, not per connection"


def _raise_fits(ctx: AuditContext, growth_bytes: int, limit_bytes: int) -> bool:
    """Raising the lower temporary table limit by `growth_bytes` to `limit_bytes` keeps the budget (one
    table counted once) and stays within a modest share of memory (each session may hold one)."""
    budget, usable = memory_budget(ctx), ctx.usable_memory
    if usable is not None and limit_bytes > usable * ctx.thresholds.memory.max_temp_table_fraction_of_memory:
        return False
    return budget is None or _worst_case_after(ctx, budget) + growth_bytes <= budget.limit_bytes


def _worst_case_after(ctx: AuditContext, budget: MemoryBudget) -> int:
    """The worst case once the buffer_pool and connections advice is applied too (it may grow the pool
    and raise max_connections): the pool the audit recommends, the one decision every advisor reads
    (advisor.derived.pool_plan), at the max_connections it recommends (advisor.derived.connection_plan)."""
    budget = planned_budget(ctx) or budget
    plan = final_pool_plan(ctx)
    pool_after = max(budget.pool_bytes, plan.planned_bytes) if plan is not None else budget.pool_bytes
    return budget.worst_case_bytes - budget.pool_bytes + pool_after


def raised_buffers(ctx: AuditContext, budget: MemoryBudget) -> list[tuple[BudgetItem, int]]:
    """The per-connection buffers to bring back to their version's default (each with its default),
    largest saving first, when the realistic peak is beyond the limit: of those set above the default
    whose saving at the connections the peak counts is a real part of it (2% of the limit), only as many
    as it takes to bring the peak within the limit — all of them when even that is not enough. Only
    the buffers a query asks for per operation (sort, join, read): a query that needs more can raise
    them for its session; thread_stack and the binlog cache are left. The saving is on the size the
    budget counts (a MariaDB join buffer counted at join_buffer_space_limit saves only down to it)."""
    over = budget.realistic_peak_bytes - budget.limit_bytes
    if over <= 0:
        return []
    least = budget.limit_bytes * ctx.thresholds.memory.raised_buffer_min_fraction_of_limit
    candidates = []
    for item in budget.per_connection_items:
        default = ctx.catalog.default(item.name, ctx.version) if item.name in _RESETTABLE else None
        if not isinstance(default, int) or isinstance(default, bool) or item.set_bytes <= default:
            continue
        if _saving(item, default) * budget.sizing_connections >= least:
            candidates.append((item, default))
    candidates.sort(key=lambda pair: -_saving(*pair))
    chosen: list[tuple[BudgetItem, int]] = []
    for item, default in candidates:
        if sum(_saving(*pair) for pair in chosen) * budget.sizing_connections >= over:
            break  # the resets so far bring the peak within the limit: the other buffers may stay
        chosen.append((item, default))
    return chosen


def _saving(item: BudgetItem, default: int) -> int:
    """What one connection saves with the buffer back at its default, on the size the budget counts."""
    return item.size_bytes - min(default, item.size_bytes)


def _largest(ctx: AuditContext, budget: MemoryBudget) -> str:
    """What to lower: the largest items at the connections counted, and what the raised per-connection
    buffers at their defaults would save."""
    connections = budget.sizing_connections
    over = budget.realistic_peak_bytes - budget.limit_bytes
    text = f" Largest beside the buffer pool at {connections} connections: {budget.largest(connections)}"
    text += f"; {describe_bytes(over)} must go to fit the limit." if over > 0 else "."
    raised = raised_buffers(ctx, budget)
    if raised:
        saved = sum(_saving(item, default) for item, default in raised) * connections
        names = ", ".join(f"{item.name} {describe_bytes(default)}" for item, default in raised)
        text += (
            f" Back at their defaults ({names}) the raised per-connection buffers save "
            f"{describe_bytes(saved)}{'' if saved >= over else ', not enough alone'} "
            "(memory.per_connection_buffer_raised)."
        )
    return text


def _advice(ctx: AuditContext, budget: MemoryBudget) -> str:
    """What to change: a max_connections that fits, when the busiest moment leaves room for it."""
    room, each = budget.limit_bytes - budget.global_bytes, budget.per_connection_bytes
    fitting = room // each if each and room > 0 else 0
    used = budget.max_used_connections
    headroom = ctx.thresholds.connections.max_connections_headroom
    short = high_water_too_short(ctx, "max_connections")
    if used is not None and short is not None and 0 < fitting < budget.max_connections:
        return (
            f" max_connections = {fitting} would fit, if the application needs no more: Max_used_connections "
            f"({used}) cannot tell. {short} Else shrink the per-connection buffers or "
            "the buffer pool."
        )
    if used is not None and fitting >= used * headroom and fitting < budget.max_connections:
        return (
            f" max_connections = {fitting} would fit ({used} were used at most); else shrink the "
            "per-connection buffers or the buffer pool."
        )
    return (
        " Lower max_connections to what the application uses, or shrink the per-connection buffers or "
        "the buffer pool."
    )


@rule("memory.overcommitted", Severity.WARNING, [REF_MYSQL, MARIADB_MEMORY_ALLOCATION], ALL_VERSIONS)
def overcommitted(ctx: AuditContext) -> Iterator[Proposal]:
    """What it checks: global buffers plus per-connection buffers × max_connections against usable memory
    (the lower of RAM and a container limit), keeping back 5% of it and at least 1 GiB (a quarter of a
    small machine) for the OS — in a container only the 5%, for the kernel memory and page cache charged
    to the cgroup.

    Why it matters: when every allowed connection sorts and joins at once the server needs the
    worst-case sum; beyond usable memory it swaps or the OOM killer ends mysqld, and a crash under peak
    load is the worst time to lose the server.

    What we recommend: bring the sum under the limit — lower max_connections to what the application
    uses, shrink the per-connection buffers, or the buffer pool (buffer_pool sizes it from what is left).
    The rationale names the largest items beside the pool at the connections counted, with their
    numbers, how much must go, and what the per-connection buffers raised above their defaults would
    save back at them (memory.per_connection_buffer_raised makes that change).
    Critical when the global buffers plus one connection's buffers (a single session that sorts and
    joins: the global buffers alone are the bare case), or the worst case at the busiest moment seen so
    far (Max_used_connections), exceed usable memory and this audit changes a line that brings memory
    down (a smaller pool, per-connection buffers back at their defaults); with no such line, a warning
    that says what to lower by hand — a critical always comes with its change. A notice when only the
    worst case overcommits and the realistic peak fits the limit — the peak the buffer pool is sized for:
    the busiest moment seen with a margin (× 1.5) over an hour or more of status, else connections
    assumed busy from the CPUs (8 per CPU, at least 16; 32 with the CPUs unknown) with every other
    allowed one open and idle. The rationale and evidence name the connections counted busy and idle,
    the bytes each, and the limit used.

    Caveats: the model is MySQLTuner's, after the MySQL manual's "How MySQL Uses Memory": global =
    buffer pool, log buffer, key buffer, query cache, Aria page cache, and one in-memory temporary table
    (the lower of tmp_table_size and max_heap_table_size; under MySQL 8.0's TempTable one table too,
    temptable_max_ram being a shared cap allocated on demand, counted whole only in the worst case);
    per connection = sort, join, read, read_rnd buffers, thread stack and binlog cache. A full temporary
    table in every connection at once is not counted: the limit is a per-table ceiling, most are small,
    and a larger one goes to disk. Still pessimistic: most connections use far less; a query can also
    allocate some buffers twice. The server's own memory beyond its buffers (code, dictionary,
    background threads) is held by the OS reserve on a host and counted as a global item in a container
    (128 MiB: measured on MariaDB 10.11, bench/server_memory.py) — why a 2 GiB host keeps 512 MiB back
    and a 2 GiB container only 102 MiB plus that item. Measured with bench/server_memory.py --peak
    (MariaDB 10.11.19, Debian's defaults, 1408M pool, 2 GiB cgroup): 1,505 MiB resident at 16 busy + 135
    idle connections and 1,728 MiB at 151 busy, against 1,922 MiB realistic and 2,264 MiB worst case
    here: an idle connection holds about 0.36 MiB, a busy one 1.85 MiB of its 2.9 MiB of buffers, and
    the unused key cache and Aria page cache only their block headers.
    """
    budget = memory_budget(ctx)
    if budget is None or budget.worst_case_bytes <= budget.limit_bytes:
        return
    peak = budget.observed_peak_bytes
    usable = budget.usable_bytes
    one_connection = budget.global_bytes + budget.per_connection_bytes
    alone = (
        f" The global buffers alone ({describe_bytes(budget.global_bytes)}) exceed the "
        f"{describe_bytes(usable)} usable."
        if budget.global_bytes >= usable
        else f" One connection that sorts and joins takes the server to {describe_bytes(one_connection)}, "
        f"beyond the {describe_bytes(usable)} usable: the first heavy query can end in the OOM killer."
        if one_connection > usable
        else ""
    )
    seen = (
        f" At the {budget.max_used_connections} connections seen at the busiest moment "
        f"(Max_used_connections) it is {describe_bytes(peak)};"
        if peak is not None
        else " Give SHOW GLOBAL STATUS to compare with the connections actually used. The realistic peak:"
    )
    peak_text = (
        f"{seen} counted for sizing at {budget.sizing_connections} busy connections "
        f"({budget.sizing_connections_source}): {budget.peak_arithmetic(budget.pool_bytes)}."
    )
    advice = _advice(ctx, budget)
    severity, unfixed = _severity(ctx, budget)
    yield Proposal(
        title="The configuration can allocate more memory than the server has",
        rationale=f"Global buffers take {describe_bytes(budget.global_bytes)} "
        f"({_items(budget.global_items)}); "
        f"each connection may add {describe_bytes(budget.per_connection_bytes)} "
        f"({_items(budget.per_connection_items)}). At max_connections={budget.max_connections} (the "
        f"configured limit{_caps_full(budget)}) that is {describe_bytes(budget.worst_case_bytes)}, beyond the "
        f"{describe_bytes(budget.limit_bytes)} limit of the {describe_bytes(usable)} usable "
        f"({_reserve_text(budget)}).{alone}{peak_text}{_largest(ctx, budget)}{advice}{unfixed} Otherwise the "
        "server risks swapping and the OOM killer.",
        evidence=_evidence(ctx, budget),
        severity=severity,
    )


@rule(
    "memory.per_connection_buffer_raised",
    Severity.WARNING,
    [REF_MYSQL, MARIADB_MEMORY_ALLOCATION, REF_SORT_BUFFER, REF_ORDER_BY, REF_MARIADB_JOIN_BUFFERS],
    ALL_VERSIONS,
)
def per_connection_buffer_raised(ctx: AuditContext) -> Iterator[Proposal]:
    """What it checks: sort_buffer_size, join_buffer_size, read_buffer_size and read_rnd_buffer_size set
    above their version's default while the memory budget's realistic peak (the connections the buffer
    pool is sized for: Max_used_connections × 1.5, or without status or on a weak window connections
    assumed busy from the CPUs, the rest idle) is beyond the memory limit, and the buffer's excess at those connections is at least 2% of
    the limit.

    Why it matters: each connection that sorts, joins or reads ahead may take these buffers up to their
    size, so a few megabytes more each, times hundreds of connections, is gigabytes: the configuration
    overcommits memory (memory.overcommitted), and the buffer pool cannot be given the memory it needs
    (buffer_pool.undersized holds it back). How much a connection really takes depends on the server:
    on MariaDB and on MySQL before 8.0.12 a sort allocates sort_buffer_size in full; from MySQL 8.0.12
    filesort allocates it in increments as needed, up to sort_buffer_size (the MySQL manual,
    sort_buffer_size and "ORDER BY Optimization"), so the full size is the ceiling a large sort
    reaches, not what every sort takes. On MariaDB with optimize_join_buffer_size=on (the default from
    10.4) the optimizer sizes each join buffer up to join_buffer_size and all join buffers of one query
    together stay within join_buffer_space_limit, so the budget counts the lower of the two. The
    arithmetic counts every buffer at that ceiling: the worst case, which memory must survive.

    What we recommend: the buffer's default, one finding per buffer, largest saving first, and only
    as many buffers as it takes to bring the realistic peak within the limit (all of them when even that
    is not enough) — the change a DBA makes first, before the pool or max_connections: the MySQL manual
    warns that large global sort and join buffers can slow queries down, and a query that needs more
    sets it for its own session (SET SESSION sort_buffer_size = ...).

    Caveats: quiet when the realistic peak fits, or when the buffer is at or below its default.
    thread_stack and binlog_cache_size are left alone (too small a thread stack crashes deep
    recursion). A query that relied on the larger buffer may sort or join in more passes: measure
    Sort_merge_passes and Select_full_join after the change.
    """
    budget = memory_budget(ctx)
    if budget is None:
        return
    connections = budget.sizing_connections
    over = budget.realistic_peak_bytes - budget.limit_bytes
    for item, default in raised_buffers(ctx, budget):
        excess = _saving(item, default) * connections
        counted = (
            f" (counted at {describe_bytes(item.size_bytes)}: {item.source})"
            if item.configured_bytes is not None
            else ""
        )
        yield Proposal(
            title=f"{item.name} is raised while memory is overcommitted",
            rationale=f"{item.name} is {describe_bytes(item.set_bytes)}, above the {describe_bytes(default)} "
            f"default{counted}; {_allocation(ctx, item.name)} At the {connections} connections the memory "
            f"budget counts ({budget.sizing_connections_source}) that is "
            f"{describe_bytes(item.size_bytes * connections)} at most; the realistic peak is "
            f"{budget.peak_arithmetic(budget.pool_bytes)} ({describe_bytes(over)} too much). Back "
            f"at its default it saves {describe_bytes(excess)}. Set {item.name} to "
            f"{format_size(default)}; a query that needs more can raise it for its own session "
            "(SET SESSION), and Sort_merge_passes / Select_full_join show whether any does.",
            evidence=(
                Evidence(item.name, describe_bytes(item.size_bytes), item.source),
                Evidence("default for this version", describe_bytes(default), "version catalog"),
                Evidence("connections counted", str(connections), budget.sizing_connections_source),
                Evidence("realistic peak", budget.peak_arithmetic(budget.pool_bytes), "memory budget"),
            ),
            variable=item.name,
            recommended=format_size(default),
        )


def _allocation(ctx: AuditContext, name: str) -> str:
    """How a connection takes this buffer on this server, in one sentence: the budget counts its ceiling."""
    version = ctx.version
    if name == "sort_buffer_size" and version.is_mysql_family and version.at_least(8, 0, 12):
        return (
            f"since MySQL 8.0.12 a sort allocates it in increments as needed, up to sort_buffer_size "
            f"({REF_SORT_BUFFER}), so a small sort takes far less; the budget counts that ceiling, which "
            "every large sort can reach."
        )
    if name == "join_buffer_size" and version.is_mariadb and optimizes_join_buffer_size(ctx)[0]:
        return (
            "with optimize_join_buffer_size=on the optimizer sizes each join buffer up to it, and all join "
            "buffers of one query share join_buffer_space_limit; the budget counts that ceiling."
        )
    return "every connection that needs it allocates it in full; the budget counts it once per connection."


@rule(
    "memory.tmp_table_limits_differ",
    Severity.NOTICE,
    [REF_TEMP, REF_TMP_SIZE, "https://mariadb.com/kb/en/server-system-variables/#tmp_table_size"],
    ALL_VERSIONS,
)
def tmp_table_limits_differ(ctx: AuditContext) -> Iterator[Proposal]:
    """What it checks: tmp_table_size against max_heap_table_size where MEMORY tables hold in-memory
    internal temporary tables (MariaDB, MySQL before 8.0, MySQL 8.0+ with
    internal_tmp_mem_storage_engine=MEMORY): the effective limit is the lower of the two.

    Why it matters: raising only tmp_table_size does nothing — temporary tables still go to disk at
    max_heap_table_size — and the configuration says something it does not do.

    What we recommend: equal values: the lower one raised to the higher when the higher is at most 1%
    of usable memory (each session may hold such a table) and the memory budget still fits with the
    buffer pool at its recommended size (or memory is unknown), else the higher one lowered.

    Caveats: max_heap_table_size also caps user-created MEMORY tables. MySQL 8.0's TempTable engine
    (the default) uses tmp_table_size and temptable_max_ram instead, so the rule is quiet there.
    """
    tmp, heap = ctx.config.get("tmp_table_size"), ctx.config.get("max_heap_table_size")
    tmp_bytes, heap_bytes = ctx.config.number("tmp_table_size"), ctx.config.number("max_heap_table_size")
    if tmp is None or heap is None or not tmp_bytes or not heap_bytes or tmp_bytes == heap_bytes:
        return
    if temp_table_limit(ctx) is None:
        return  # TempTable engine
    if tmp_bytes < heap_bytes:
        low_name, high_name, low, high = "tmp_table_size", "max_heap_table_size", tmp_bytes, heap_bytes
    else:
        low_name, high_name, low, high = "max_heap_table_size", "tmp_table_size", heap_bytes, tmp_bytes
    raise_fits = _raise_fits(ctx, high - low, high)
    variable, value = (low_name, high) if raise_fits else (high_name, low)
    yield Proposal(
        title="tmp_table_size and max_heap_table_size differ",
        rationale=f"In-memory temporary tables are limited by the lower of tmp_table_size and "
        f"max_heap_table_size, here {low_name} = {describe_bytes(low)}; the {describe_bytes(high)} of "
        f"{high_name} is never used for them. Set {variable} to {describe_bytes(value)} so both say the same"
        + (
            "."
            if raise_fits
            else f" (raising the other would not fit the memory budget, or would let every "
            f"session hold a table of more than {ctx.thresholds.memory.max_temp_table_fraction_of_memory:.0%} "
            "of memory)."
        ),
        evidence=(
            Evidence("tmp_table_size", describe_bytes(tmp_bytes), tmp.where()),
            Evidence("max_heap_table_size", describe_bytes(heap_bytes), heap.where()),
        ),
        variable=variable,
        recommended=format_size(value),
    )


RULES: tuple[Rule, ...] = (overcommitted, per_connection_buffer_raised, tmp_table_limits_differ)
