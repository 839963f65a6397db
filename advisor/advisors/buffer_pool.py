"""Buffer pool: size against memory and data, miss rate, chunk alignment, instances, warm-up, LRU."""

from __future__ import annotations

from collections.abc import Iterator

from advisor.context import AuditContext, Setting
from advisor.derived.budget import POOL, memory_budget
from advisor.derived.pool_sizing import (
    alignment_unit,
    chunk_bytes,
    configured_pool,
    pool_instances,
    pool_pressure,
    pool_target,
)
from advisor.derived.settings import setting_source
from advisor.findings import Evidence, Severity
from advisor.references import MARIADB_MEMORY_ALLOCATION, MYSQL_INNODB_PARAMETERS
from advisor.rules import ALL_VERSIONS, Proposal, Rule, Versions, rule
from advisor.units import describe_bytes, format_size, parse_size

REF_SIZE = "https://dev.mysql.com/doc/refman/8.0/en/innodb-buffer-pool-resize.html"
REF_PARAMS = f"{MYSQL_INNODB_PARAMETERS}#sysvar_innodb_buffer_pool_size"
REF_MARIADB = "https://mariadb.com/kb/en/innodb-buffer-pool/"
REF_INSTANCES = "https://dev.mysql.com/doc/refman/8.0/en/innodb-multiple-buffer-pools.html"
REF_WARMUP = "https://dev.mysql.com/doc/refman/8.0/en/innodb-preload-buffer-pool.html"
REF_MIDPOINT = "https://dev.mysql.com/doc/refman/8.0/en/innodb-performance-midpoint_insertion.html"
WARMUP_VARIABLES = ("innodb_buffer_pool_dump_at_shutdown", "innodb_buffer_pool_load_at_startup")


def _pool_evidence(size: int, setting: Setting) -> Evidence:
    return Evidence("innodb_buffer_pool_size", describe_bytes(size), setting.where())


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
        evidence=(_pool_evidence(size, setting), *target.evidence),
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
        evidence=(_pool_evidence(size, setting), *target.evidence),
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
        evidence=(_pool_evidence(size, setting), *evidence, *target.evidence),
        variable=POOL,
        recommended=format_size(target.size_bytes),
        severity=severity,
    )


@rule(
    "buffer_pool.chunk_alignment",
    Severity.NOTICE,
    [REF_SIZE],
    Versions(((5, 7, 5), (99,)), ((10, 2, 2), (99,))),
)
def chunk_alignment(ctx: AuditContext) -> Iterator[Proposal]:
    """What it checks: that innodb_buffer_pool_size is a multiple of innodb_buffer_pool_chunk_size ×
    innodb_buffer_pool_instances (MySQL 5.7.5+, MariaDB 10.2.2 until chunks were removed).

    Why it matters: the server silently rounds the pool up to the next multiple, so the memory in use
    is not what the file says — sometimes by gigabytes with many instances or large chunks.

    What we recommend: write the value the server actually uses (the next multiple).

    Caveats: on MySQL 8.4 the default instance count comes from the CPU count; without `cpus` or a
    SHOW VARIABLES dump the check stays quiet. A chunk × instances larger than the pool makes the
    server shrink the chunk instead, which needs no change.
    """
    pool = configured_pool(ctx)
    if pool is None:
        return
    size, setting = pool
    unit = alignment_unit(ctx, size)
    if unit is None or size <= unit or size % unit == 0:
        return
    aligned = -(-size // unit) * unit
    chunk = chunk_bytes(ctx) or 0
    instances = unit // chunk if chunk else 1
    yield Proposal(
        title="The buffer pool size is not a multiple of chunk size × instances",
        rationale=f"innodb_buffer_pool_size {describe_bytes(size)} is not a multiple of "
        f"{describe_bytes(chunk)} × {instances} instances = {describe_bytes(unit)}; the server rounds it up "
        f"to {describe_bytes(aligned)}. Write that value so the file says what runs.",
        evidence=(
            _pool_evidence(size, setting),
            Evidence(
                "innodb_buffer_pool_chunk_size",
                describe_bytes(chunk),
                setting_source(ctx, "innodb_buffer_pool_chunk_size"),
            ),
            Evidence(
                "buffer pool instances", str(instances), setting_source(ctx, "innodb_buffer_pool_instances")
            ),
        ),
        variable=POOL,
        recommended=format_size(aligned),
    )


@rule(
    "buffer_pool.single_instance",
    Severity.NOTICE,
    [REF_INSTANCES],
    Versions(((5, 5, 4), (99,)), ((0,), (10, 5))),
)
def single_instance(ctx: AuditContext) -> Iterator[Proposal]:
    """What it checks: a multi-gigabyte pool run as one instance (MySQL 5.5.4+, MariaDB before 10.5).

    Why it matters: each instance has its own mutexes, LRU and flush lists; one instance of many GiB
    serialises concurrent page access on one set of latches.

    What we recommend: as many instances as whole GiB fit (at most 8, at most the CPU count), chosen so
    the pool stays a multiple of chunk size × instances.

    Caveats: MariaDB 10.5 went back to a single pool by design, and the variable is ignored there; MySQL
    8.4 derives the default from the CPU count on purpose, so only an explicit 1 is questioned there.
    Not dynamic: takes a restart.
    """
    pool = configured_pool(ctx)
    limits = ctx.thresholds.buffer_pool
    if pool is None or pool[0] < 2 * limits.multi_instance_min_bytes or pool_instances(ctx, pool[0]) != 1:
        return
    size, setting = pool
    instances_setting = ctx.config.get("innodb_buffer_pool_instances")
    if ctx.version.at_least(8, 4) and (instances_setting is None or instances_setting.source == "default"):
        return  # MySQL 8.4 derives the count from the CPUs on purpose
    cpus = (
        ctx.hardware.cpus
        if ctx.hardware is not None and ctx.hardware.cpus
        else limits.max_recommended_instances
    )
    chunk = chunk_bytes(ctx)
    most = min(limits.max_recommended_instances, size // limits.multi_instance_min_bytes, cpus)
    fitting = [n for n in range(most, 1, -1) if chunk is None or size % (chunk * n) == 0]
    if not fitting:
        return
    yield Proposal(
        title="A multi-gigabyte buffer pool runs as a single instance",
        rationale=f"innodb_buffer_pool_size is {describe_bytes(size)} in one instance: concurrent queries "
        f"contend on its latches. {fitting[0]} instances of {describe_bytes(size // fitting[0])} spread that "
        "contention.",
        evidence=(
            _pool_evidence(size, setting),
            Evidence("instances", "1", setting_source(ctx, "innodb_buffer_pool_instances")),
        ),
        variable="innodb_buffer_pool_instances",
        recommended=str(fitting[0]),
    )


@rule(
    "buffer_pool.warmup_disabled",
    Severity.NOTICE,
    [REF_WARMUP],
    Versions(((5, 6, 3), (99,)), ((10, 0), (99,))),
)
def warmup_disabled(ctx: AuditContext) -> Iterator[Proposal]:
    """What it checks: innodb_buffer_pool_dump_at_shutdown and innodb_buffer_pool_load_at_startup on a pool
    of 1 GiB or more (MySQL 5.6.3+, MariaDB 10.0+; both ON by default from MySQL 5.7.7 / MariaDB 10.2.2).

    Why it matters: without the dump and reload a restart starts with a cold pool, and every page comes
    back through a disk read on a user's query — for minutes to hours on a large pool.

    What we recommend: ON for both (the dump holds page numbers only, a few MB).

    Caveats: the load runs in the background after startup; it is not instantaneous.
    """
    pool = configured_pool(ctx)
    if pool is None or pool[0] < ctx.thresholds.buffer_pool.warmup_min_bytes:
        return
    for name in WARMUP_VARIABLES:
        setting = ctx.config.get(name)
        if setting is None or ctx.config.flag(name) is not False:
            continue
        yield Proposal(
            title="The buffer pool is not saved and reloaded across restarts",
            rationale=f"{name} is OFF: after a restart the {describe_bytes(pool[0])} pool starts cold and "
            "refills through disk reads on users' queries. Saving and reloading the page list keeps it warm.",
            evidence=(Evidence(name, "OFF", setting.where()), _pool_evidence(*pool)),
            variable=name,
            recommended="ON",
        )


@rule("buffer_pool.old_blocks_time_zero", Severity.NOTICE, [REF_MIDPOINT], ALL_VERSIONS)
def old_blocks_time_zero(ctx: AuditContext) -> Iterator[Proposal]:
    """What it checks: innodb_old_blocks_time = 0 (the default in MySQL 5.1/5.5 and MariaDB 5.5; 1000 from
    MySQL 5.6.6 / MariaDB 10.0).

    Why it matters: with 0 a page read once by a table scan (a backup, a report) moves straight to the
    young end of the LRU, so one scan can flush the hot working set out of the pool.

    What we recommend: 1000 ms: a page must survive a second in the old sublist before it counts as young.

    Caveats: a workload that really rereads scanned pages within a second gains nothing; the setting is
    dynamic and cheap to try.
    """
    setting = ctx.config.get("innodb_old_blocks_time")
    if setting is None or not ctx.knows("innodb_old_blocks_time") or parse_size(setting.value) != 0:
        return
    yield Proposal(
        title="Table scans can flush the hot pages out of the buffer pool",
        rationale="innodb_old_blocks_time is 0: a page touched by one scan is promoted at once and pushes "
        "hot pages out. 1000 ms keeps scan-once pages in the old sublist.",
        evidence=(Evidence("innodb_old_blocks_time", "0", setting.where()),),
        variable="innodb_old_blocks_time",
        recommended="1000",
    )


RULES: tuple[Rule, ...] = (
    exceeds_memory,
    oversized,
    undersized,
    chunk_alignment,
    single_instance,
    warmup_disabled,
    old_blocks_time_zero,
)
