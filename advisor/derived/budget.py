"""The memory budget, shared by the memory and buffer_pool advisors (see also advisor.derived.pool_sizing).

The budget adds up what the server may allocate: global buffers once, the server's own memory, and
per-connection buffers, counted two ways (MySQLTuner's "max possible" and "peak"):

- `worst_case_bytes`: every allowed connection (max_connections) sorting, joining and reading at once,
  and every on-demand cap full (TempTable's temptable_max_ram) — the most the configuration allows
  (memory.overcommitted reports it; it never sizes the pool);
- `realistic_peak_bytes`: what a real server holds resident at a busy moment. Busy connections (every
  per-connection buffer allocated): Max_used_connections times a margin when status gives it over a fair
  window, capped at max_connections; otherwise (no status, or a high-water mark under an hour old:
  advisor.derived.evidence) an assumption from the hardware — 8 per CPU, at least 16 (32 when the CPUs
  are unknown): a query holds its sort/join/read buffers only while it runs, and beyond a few per CPU
  queries queue for the CPU — or the connections a weak mark saw, when more. Then every other allowed
  connection counted open and idle (measured: about 0.36 MiB each). The pool cap is configuration plus
  hardware, not evidence-driven: weak status neither shrinks it (the old model counted all
  max_connections at their full buffers) nor grows it. `pool_room_bytes` is what is left of the limit
  once this is counted, so a recommended pool never pushes the realistic peak past the limit.

Measured on MariaDB 10.11.19 with Debian's defaults, 1408M pool, in a 2 GiB memory cgroup with the page
cache charged (bench/server_memory.py --peak): 1,505 MiB at 16 busy + 135 idle connections, 1,728 MiB
at 151 busy ones, where this model counts 1,922 MiB and the worst case 2,264 MiB.

The limit: on a host, usable memory less a reserve for the OS and its page cache (1 GiB, at most a
quarter of a small machine, and at least 5%); in a container (a memory limit below the host's memory),
95% of the limit — no OS lives inside the cgroup, the remaining 5% is for the kernel memory charged to
it and the page cache of the files InnoDB does not open with O_DIRECT. The MariaDB knowledge base:
"in containers or VMs, use the effective memory limit".

How we count (MySQLTuner's model, after the MySQL manual's "How MySQL Uses Memory"): global =
innodb_buffer_pool_size, innodb_log_buffer_size, key_buffer_size (when the schema facts show no MyISAM
table, only what an unused key cache holds resident: its block headers, measured, and the blocks ever
used), query_cache_size,
aria_pagecache_buffer_size (MariaDB), innodb_additional_mem_pool_size (old servers), the performance
schema's tables when it is on (measured per flavor: MySQL turns it on by default), one in-memory
temporary table — where MEMORY tables hold them, at the lower of tmp_table_size and max_heap_table_size;
on MySQL 8.0+ with the TempTable engine the same one table (at tmp_table_size), temptable_max_ram being a
cap shared by all sessions and allocated on demand (the worst case counts the cap) —
and, in a container, the server's own memory beyond its buffers (measured on the real binary:
bench/server_memory.py; on a host the OS reserve holds it).
Per connection = sort_buffer_size, join_buffer_size, read_buffer_size, read_rnd_buffer_size,
thread_stack, binlog_cache_size (when the binary log is on): a connection running a sort and a join
allocates them (measured: 1.85–2.5 MiB resident per busy sysbench connection at the defaults' 2.9 MiB),
an idle one far less (0.36 MiB in a cgroup, 86 KiB of VmRSS on a host). A full temporary table in every connection at once is not a load anyone
sees: the limits are a ceiling per table, most implicit temporary tables are small, and one that
outgrows the limit moves to disk. Each buffer is counted once per connection, although a complex query
can allocate some of them more than once. On MariaDB with optimizer_switch optimize_join_buffer_size=on
(the default from 10.4) the join buffer is counted at the lower of join_buffer_size and
join_buffer_space_limit, the space all join buffers of one query share.
"""

from __future__ import annotations

import math
import re
from functools import cached_property
from typing import TYPE_CHECKING

from msgspec import Struct

from advisor.derived.cache import once_per_audit
from advisor.derived.evidence import high_water_grade
from advisor.derived.settings import sized_by_dedicated_server
from advisor.units import GIB, MIB, describe_bytes, parse_size

if TYPE_CHECKING:
    from advisor.context import AuditContext

POOL = "innodb_buffer_pool_size"
# The smallest step a recommended pool size moves in (the default chunk size).
POOL_STEP_BYTES = 128 * MIB

KEY_CACHE = "key_buffer_size"
_GLOBAL_BUFFERS = (
    "innodb_log_buffer_size",
    "query_cache_size",
    "aria_pagecache_buffer_size",
    "innodb_additional_mem_pool_size",
)
_PER_CONNECTION_BUFFERS = (
    "sort_buffer_size",
    "join_buffer_size",
    "read_buffer_size",
    "read_rnd_buffer_size",
    "thread_stack",
)
JOIN_BUFFER = "join_buffer_size"
JOIN_SPACE_LIMIT = "join_buffer_space_limit"
_TEMP_TABLE = "in-memory temporary table"
#: The server's own memory beyond its configured buffers (a budget item of its own).
SERVER_OWN = "server's own memory"
_SERVER_OWN_SOURCE = "assumed: measured on MariaDB 10.11 (code, dictionary, background threads)"


class BudgetItem(Struct, frozen=True):
    """One allocation: the variable (or what it stands for), its size and where the size came from."""

    name: str
    size_bytes: int
    source: str
    #: the value set, when the item is counted at less (join_buffer_size under join_buffer_space_limit)
    configured_bytes: int | None = None
    #: the most it can take, when the realistic peak counts it at less because it is allocated only on
    #: demand (TempTable's shared temptable_max_ram): the worst case counts this
    ceiling_bytes: int | None = None

    @property
    def worst_bytes(self) -> int:
        """What the worst case counts: the ceiling of an on-demand allocation, else `size_bytes`."""
        return self.ceiling_bytes if self.ceiling_bytes is not None else self.size_bytes

    @property
    def set_bytes(self) -> int:
        """The value the variable is set to (`size_bytes` unless it is counted at less)."""
        return self.configured_bytes if self.configured_bytes is not None else self.size_bytes


class Contribution(Struct, frozen=True):
    """What one item adds to the peak: its bytes in all, and how they add up in words."""

    name: str
    total_bytes: int
    text: str


class MemoryBudget(Struct, frozen=True, dict=True):
    """What the configuration may allocate, against the memory limit (see the module docstring).

    The sums are worked out once (rules ask for the peak and the room again and again)."""

    usable_bytes: int
    limit_bytes: int
    pool_bytes: int
    global_items: tuple[BudgetItem, ...]
    per_connection_items: tuple[BudgetItem, ...]
    max_connections: int
    max_connections_source: str
    max_used_connections: int | None
    #: How the limit was set from usable memory: the reserve and why (host or container).
    reserve_source: str = ""
    #: The connections the realistic peak counts busy (every per-connection buffer allocated), and how
    #: that number was chosen.
    sizing_connections: int = 0
    sizing_connections_source: str = ""
    #: The connections the realistic peak counts open but idle (at `idle_connection_bytes` each): the
    #: rest of max_connections when the busy count is an assumption, none when status shows the peak.
    idle_connections: int = 0
    idle_connection_bytes: int = 0

    @cached_property
    def global_bytes(self) -> int:
        """Global items as the realistic peak counts them (on-demand ones at what a peak uses)."""
        return sum([item.size_bytes for item in self.global_items])

    @cached_property
    def global_ceiling_bytes(self) -> int:
        """Global items at the most they can take (TempTable at temptable_max_ram)."""
        return sum([item.worst_bytes for item in self.global_items])

    @cached_property
    def per_connection_bytes(self) -> int:
        return sum([item.size_bytes for item in self.per_connection_items])

    @property
    def worst_case_bytes(self) -> int:
        """Every global item at its ceiling plus every per-connection buffer at max_connections."""
        return self.global_ceiling_bytes + self.max_connections * self.per_connection_bytes

    @property
    def observed_peak_bytes(self) -> int | None:
        """The global items plus every buffer of Max_used_connections, when status is known."""
        if self.max_used_connections is None:
            return None
        return self.global_bytes + self.max_used_connections * self.per_connection_bytes

    @property
    def realistic_peak_bytes(self) -> int:
        """The global items, the busy connections' buffers and the idle ones (see the module docstring)."""
        busy = self.sizing_connections * self.per_connection_bytes
        return self.global_bytes + busy + self.idle_connections * self.idle_connection_bytes

    @property
    def pool_room_bytes(self) -> int:
        """The largest buffer pool that keeps the realistic peak within the limit (may be ≤ 0)."""
        return self.limit_bytes - (self.realistic_peak_bytes - self.pool_bytes)

    @property
    def others_bytes(self) -> int:
        """Everything but the pool at the realistic peak: what must come down before the pool can grow."""
        return self.realistic_peak_bytes - self.pool_bytes

    def contributions(self, connections: int) -> tuple[Contribution, ...]:
        """Every item but the pool, per-connection buffers at `connections`, largest first."""
        found = [
            Contribution(item.name, item.size_bytes, describe_bytes(item.size_bytes))
            for item in self.global_items
            if item.name != POOL
        ]
        found += [
            Contribution(
                item.name,
                item.size_bytes * connections,
                f"{describe_bytes(item.size_bytes)} × {connections} connections = "
                f"{describe_bytes(item.size_bytes * connections)}",
            )
            for item in self.per_connection_items
        ]
        if self.idle_connections and connections == self.sizing_connections:
            idle = self.idle_connections * self.idle_connection_bytes
            found.append(
                Contribution(
                    "idle connections",
                    idle,
                    f"{describe_bytes(self.idle_connection_bytes)} × {self.idle_connections} = {describe_bytes(idle)}",
                )
            )
        return tuple(sorted(found, key=lambda found: -found.total_bytes))

    def largest(self, connections: int, count: int = 3) -> str:
        """The `count` largest contributions beside the pool, in words with their numbers."""
        return ", ".join(f"{c.name} {c.text}" for c in self.contributions(connections)[:count])

    def peak_arithmetic(self, pool_bytes: int) -> str:
        """The realistic peak with a pool of `pool_bytes`, term by term, against the limit."""
        return self.arithmetic(pool_bytes, self.sizing_connections, self.idle_connections)

    def arithmetic(self, pool_bytes: int, connections: int, idle: int = 0, *, ceiling: bool = False) -> str:
        """Global buffers with a pool of `pool_bytes` plus `connections` × per-connection buffers (and
        `idle` open idle connections), term by term, against the limit; with `ceiling` (the worst case)
        the global items count at their ceiling."""
        others = (self.global_ceiling_bytes if ceiling else self.global_bytes) - self.pool_bytes
        each = self.per_connection_bytes
        total = pool_bytes + others + connections * each + idle * self.idle_connection_bytes
        verdict = "within" if total <= self.limit_bytes else "beyond"

        def size(value: int) -> str:  # one unit throughout, so that the sum can be checked by eye
            return f"{value / MIB:,.0f} MiB" if self.limit_bytes < 16 * GIB else describe_bytes(value)

        busy = "busy connections" if idle else "connections"
        idle_text = (
            f" + {idle} idle connections × {describe_bytes(self.idle_connection_bytes)}" if idle else ""
        )
        return (
            f"{size(pool_bytes)} pool + {size(others)} other global buffers and the server's own memory + "
            f"{connections} {busy} × {describe_bytes(each)}{idle_text} = {size(total)}, {verdict} the "
            f"{size(self.limit_bytes)} limit"
        )


def effective_pool_bytes(ctx: AuditContext) -> int | None:
    """innodb_buffer_pool_size in effect; under innodb_dedicated_server, the size the server derives."""
    setting = ctx.config.get(POOL)
    if sized_by_dedicated_server(ctx, setting):
        memory = ctx.usable_memory
        if memory is None:
            return None
        # The manual's table: < 1 GiB → 128 MiB, 1–4 GiB → half, above → three quarters.
        return POOL_STEP_BYTES if memory < GIB else memory // 2 if memory <= 4 * GIB else memory * 3 // 4
    return parse_size(setting.value) if setting is not None else None


def _item(ctx: AuditContext, name: str) -> BudgetItem | None:
    if not ctx.knows(name):
        return None
    setting = ctx.config.get(name)
    size = parse_size(setting.value) if setting is not None else None
    return BudgetItem(name, size, setting.where()) if setting is not None and size else None


#: schema layouts that list every table (a list of keyless tables, or a user's JSON, may not)
_WHOLE_LISTINGS = frozenset({"query", "tables"})


def _key_cache(ctx: AuditContext) -> BudgetItem | None:
    """key_buffer_size, counted at what is resident when no MyISAM table can use it (the schema facts
    list every table and none is MyISAM): its block headers plus the blocks ever used (Key_blocks_used
    is a high-water mark). With a MyISAM table, or facts that may not list them all, its full size."""
    item, schema = _item(ctx, KEY_CACHE), ctx.schema
    if item is None or schema is None or schema.layout not in _WHOLE_LISTINGS:
        return item
    if any(table.engine is not None and table.engine.lower() == "myisam" for table in schema.tables):
        return item
    used = ctx.status.value("Key_blocks_used") if ctx.status is not None else None
    block = ctx.config.get("key_cache_block_size")
    block_bytes = (parse_size(block.value) if block is not None else None) or 1024
    headers = int(item.size_bytes * ctx.thresholds.memory.key_cache_resident_fraction)
    size = min(item.size_bytes, headers + (used or 0) * block_bytes)
    blocks = f"{used} blocks ever used (Key_blocks_used)" if used is not None else "no Key_blocks_used to add"
    source = (
        f"{item.source}: {describe_bytes(item.size_bytes)} counted at {describe_bytes(size)} — no MyISAM "
        f"table in the schema facts, so only its block headers are resident, plus {blocks}"
    )
    return BudgetItem(KEY_CACHE, size, source)


PERFORMANCE_SCHEMA = "performance_schema"
# What the performance schema allocates at startup, resident from the start (measured, defaults otherwise,
# on private instances of the real binaries: its own memory counters, and the resident size with it off/on).
# MariaDB 10.11.19 (SHOW ENGINE PERFORMANCE_SCHEMA STATUS): 93 MiB up to max_connections 302, 135 MiB
# from 303 (flat to 2000; +96 MiB resident at 151). MySQL (memory_summary_global_by_event_name,
# memory/performance_schema/%): 5.7.42 131 MiB, 8.0.46 218 MiB, both flat in max_connections (+131 and
# +224 MiB resident).
_PFS_MARIADB_SMALL = (302, 93 * MIB)
_PFS_MARIADB_LARGE = 135 * MIB
_PFS_MYSQL_57 = 131 * MIB
_PFS_MYSQL_80 = 218 * MIB


def _performance_schema(ctx: AuditContext, max_connections: int) -> BudgetItem | None:
    """The performance schema's memory when it is on (the default of MySQL 5.6.6+, off on MariaDB): it
    sizes its instrument tables at startup, not per connection (see the measurements above)."""
    if not ctx.knows(PERFORMANCE_SCHEMA) or ctx.config.flag(PERFORMANCE_SCHEMA) is not True:
        return None
    setting = ctx.config.get(PERFORMANCE_SCHEMA)
    where = setting.where() if setting is not None else "default for this version"
    version = ctx.version
    if version.is_mariadb:
        small = max_connections <= _PFS_MARIADB_SMALL[0]
        size = _PFS_MARIADB_SMALL[1] if small else _PFS_MARIADB_LARGE
        measured = f"measured on MariaDB 10.11.19 at max_connections {'up to 302' if small else 'from 303'}"
    elif version.before(8, 0):
        size, measured = _PFS_MYSQL_57, "measured on MySQL 5.7.42"
    else:
        size, measured = _PFS_MYSQL_80, "measured on MySQL 8.0.46"
    return BudgetItem(PERFORMANCE_SCHEMA, size, f"on ({where}): its tables, allocated at startup, {measured}")


def optimizes_join_buffer_size(ctx: AuditContext) -> tuple[bool, str]:
    """MariaDB's optimizer_switch flag optimize_join_buffer_size, and where its value came from: the
    optimizer_switch given (a file line or the live dump may name only some flags; the others keep
    their defaults), else the version's default — on from 10.4, off before (MariaDB 10.1-10.3 dumps
    show off; the knowledge base's table of defaults shows on from 10.5.0)."""
    switch = ctx.config.get("optimizer_switch")
    found = re.search(r"optimize_join_buffer_size\s*=\s*(\w+)", switch.value) if switch is not None else None
    if switch is not None and found is not None and found.group(1).lower() in ("on", "off"):
        return found.group(1).lower() == "on", f"optimizer_switch ({switch.where()})"
    on = not ctx.version.before(10, 4)
    return on, f"the optimizer_switch default of MariaDB {ctx.version.line}"


def _join_buffer(ctx: AuditContext) -> BudgetItem | None:
    """join_buffer_size per connection. On MariaDB with optimize_join_buffer_size=on, all join buffers
    of one query together are capped at join_buffer_space_limit (the knowledge base's "Block-Based
    Join Algorithms"; with the flag off the limit is not applied): counted at the lower of the two."""
    item = _item(ctx, JOIN_BUFFER)
    if item is None or not ctx.version.is_mariadb:
        return item
    space = _item(ctx, JOIN_SPACE_LIMIT)
    if space is None or space.size_bytes >= item.size_bytes:
        return item
    on, where = optimizes_join_buffer_size(ctx)
    if not on:
        return item
    source = (
        f"{item.source}: {describe_bytes(item.size_bytes)} counted at {describe_bytes(space.size_bytes)}, "
        f"join_buffer_space_limit ({space.source}) — with optimize_join_buffer_size=on ({where}) all join "
        "buffers of one query together stay within it"
    )
    return BudgetItem(JOIN_BUFFER, space.size_bytes, source, configured_bytes=item.size_bytes)


def _temp_tables_use_memory_engine(ctx: AuditContext) -> bool:
    """MEMORY (heap) tables hold in-memory internal temporary tables: MariaDB, MySQL before 8.0, or
    MySQL 8.0+ with internal_tmp_mem_storage_engine=MEMORY (TempTable, the 8.0 default, pools RAM)."""
    if ctx.version.is_mariadb or ctx.version.before(8, 0):
        return True
    engine = ctx.config.text("internal_tmp_mem_storage_engine")
    return engine is not None and engine.strip().upper() == "MEMORY"


def temp_table_limit(ctx: AuditContext) -> BudgetItem | None:
    """The effective in-memory temporary table limit where MEMORY tables hold them: the lower of
    tmp_table_size and max_heap_table_size. None under MySQL 8.0's TempTable engine."""
    if not _temp_tables_use_memory_engine(ctx):
        return None
    tmp, heap = _item(ctx, "tmp_table_size"), _item(ctx, "max_heap_table_size")
    if tmp is None or heap is None:
        return tmp or heap
    low = tmp if tmp.size_bytes <= heap.size_bytes else heap
    source = f"lower of tmp_table_size ({tmp.source}) and max_heap_table_size ({heap.source})"
    return BudgetItem(_TEMP_TABLE, low.size_bytes, source)


def _temptable_ram(ctx: AuditContext) -> BudgetItem:
    """MySQL 8.0's TempTable engine: temptable_max_ram is a cap on the RAM all in-memory temporary tables
    share, allocated as tables need it (the manual, "Internal Temporary Table Use in MySQL": "the
    TempTable storage engine allocates memory from RAM as needed", and frees it when they are dropped),
    not a buffer reserved at start. The realistic peak counts what a busy moment holds — one in-memory
    temporary table, at tmp_table_size (the per-table limit from 8.0.28) when it is lower, as MEMORY
    tables are counted — and the worst case the whole cap."""
    setting = ctx.config.get("temptable_max_ram")
    size = parse_size(setting.value) if setting is not None else None
    if setting is not None and size:
        cap, where = size, setting.where()
    else:
        cap, where = (
            ctx.thresholds.memory.temptable_ram_assumed_bytes,
            "assumed: its 8.0 default, not in the inputs",
        )
    table = _item(ctx, "tmp_table_size")
    counted = min(cap, table.size_bytes) if table is not None else cap
    table_text = f"one table at tmp_table_size ({table.source})" if table is not None else "the cap"
    source = (
        f"{where}: a cap of {describe_bytes(cap)} shared by all in-memory temporary tables, allocated on "
        f"demand — the realistic peak counts {table_text}, {describe_bytes(counted)}; the worst case the cap"
    )
    return BudgetItem("temptable_max_ram", counted, source, ceiling_bytes=cap if counted < cap else None)


def _in_container(ctx: AuditContext) -> bool:
    """A memory limit below the host's memory (or the only memory given) bounds the server."""
    hardware = ctx.hardware
    if hardware is None or hardware.memory_limit is None:
        return False
    return hardware.memory is None or hardware.memory_limit < hardware.memory


def _limit(ctx: AuditContext, usable: int) -> tuple[int, str]:
    """The memory the configuration may take, and how it was set (see the module docstring)."""
    limits = ctx.thresholds.memory
    share = int(usable * limits.max_fraction_of_memory)
    if _in_container(ctx):
        return share, (
            f"{describe_bytes(usable - share)} ({1 - limits.max_fraction_of_memory:.0%}) of the container "
            "limit kept back for the kernel memory and page cache charged to it"
        )
    reserve = min(limits.os_reserve_bytes, int(usable * limits.os_reserve_max_fraction))
    limit = min(share, usable - reserve)
    return limit, (
        f"{describe_bytes(usable - limit)} kept back for the OS (its own processes, page cache and the "
        "server's memory beyond its buffers; in a container only 5% is, with the server's own memory "
        "counted as an item)"
    )


def assumed_busy_connections(ctx: AuditContext, max_connections: int) -> tuple[int, str]:
    """The connections assumed busy at once when no trustworthy high-water mark says: a few per CPU
    (queries beyond that wait for a CPU), at least a floor, at most max_connections."""
    limits = ctx.thresholds.memory
    cpus = ctx.hardware.cpus if ctx.hardware is not None else None
    if cpus:
        assumed = max(limits.busy_connections_min, limits.busy_connections_per_cpu * cpus)
        why = (
            f"{limits.busy_connections_per_cpu} per CPU × {cpus} CPUs, at least {limits.busy_connections_min}"
        )
    else:
        assumed, why = limits.busy_connections_cpus_unknown, "CPUs unknown"
    return min(max_connections, assumed), why


def _sizing_connections(ctx: AuditContext, max_connections: int) -> tuple[int, str, bool]:
    """The connections the realistic peak counts busy, how they were chosen, and whether the count is an
    assumption (then every other allowed connection is counted open and idle): the busiest moment seen
    with a margin over a fair window, else a few per CPU — or the connections seen, when more."""
    used = ctx.status.value("Max_used_connections") if ctx.status is not None else None
    high_water = high_water_grade(ctx) if used is not None else None
    if used is not None and high_water is not None and not high_water.weak:
        margin = ctx.thresholds.memory.observed_connections_margin
        counted = min(max_connections, max(1, math.ceil(used * margin)))
        capped = f", capped at max_connections = {max_connections}" if counted == max_connections else ""
        return counted, f"Max_used_connections {used} × {margin:g}{capped}", False
    assumed, why = assumed_busy_connections(ctx, max_connections)
    rest = "the other allowed connections counted open and idle"
    if used is None:
        return (
            assumed,
            (
                f"assumed busy at once ({why}), {rest}: without SHOW GLOBAL STATUS (Max_used_connections) "
                "nothing shows the concurrency"
            ),
            True,
        )
    window = high_water.window if high_water is not None else "highest over an unknown time"
    if min(used, max_connections) > assumed:  # a weak mark still shows that many did connect
        return (
            min(used, max_connections),
            (
                f"Max_used_connections ({used}), the {window} — weak evidence, but that many did connect: "
                f"counted busy, {rest}"
            ),
            True,
        )
    return (
        assumed,
        (
            f"assumed busy at once ({why}), {rest}: Max_used_connections ({used}) is the {window} — weak "
            "evidence of the concurrency to come"
        ),
        True,
    )


def _compute(ctx: AuditContext) -> MemoryBudget | None:
    usable, pool = ctx.usable_memory, effective_pool_bytes(ctx)
    max_connections = ctx.config.get("max_connections")
    connections = parse_size(max_connections.value) if max_connections is not None else None
    if usable is None or pool is None or max_connections is None or connections is None:
        return None
    limit, reserve_source = _limit(ctx, usable)
    pool_setting = ctx.config.get(POOL)
    pool_source = pool_setting.where() if pool_setting is not None else "default for this version"
    if sized_by_dedicated_server(ctx, pool_setting):
        pool_source = "sized by innodb_dedicated_server from memory"
    global_items = [BudgetItem(POOL, pool, pool_source)]
    global_items += [item for item in (_key_cache(ctx),) if item is not None]
    global_items += [item for name in _GLOBAL_BUFFERS if (item := _item(ctx, name)) is not None]
    global_items += [item for item in (_performance_schema(ctx, connections),) if item is not None]
    per_connection = [
        item
        for name in _PER_CONNECTION_BUFFERS
        if (item := _join_buffer(ctx) if name == JOIN_BUFFER else _item(ctx, name)) is not None
    ]
    if ctx.config.flag("log_bin") is not False:  # a binary log cache per connection that writes
        per_connection += [item for item in (_item(ctx, "binlog_cache_size"),) if item is not None]
    temp = temp_table_limit(ctx)
    global_items.append(temp if temp is not None else _temptable_ram(ctx))  # counted once, not per connection
    if _in_container(ctx):  # on a host the OS reserve holds it; a cgroup has no such reserve
        global_items.append(
            BudgetItem(SERVER_OWN, ctx.thresholds.memory.server_base_bytes, _SERVER_OWN_SOURCE)
        )
    max_used = ctx.status.value("Max_used_connections") if ctx.status is not None else None
    sizing, sizing_source, assumed = _sizing_connections(ctx, connections)
    return MemoryBudget(
        usable_bytes=usable,
        limit_bytes=limit,
        pool_bytes=pool,
        global_items=tuple(global_items),
        per_connection_items=tuple(per_connection),
        max_connections=connections,
        max_connections_source=max_connections.where(),
        max_used_connections=max_used,
        reserve_source=reserve_source,
        sizing_connections=sizing,
        sizing_connections_source=sizing_source,
        idle_connections=connections - sizing if assumed else 0,
        idle_connection_bytes=ctx.thresholds.memory.idle_connection_bytes,
    )


@once_per_audit
def memory_budget(ctx: AuditContext) -> MemoryBudget | None:
    """The budget for this context (None without usable memory); computed once per audit."""
    return _compute(ctx)
