"""The buffer pool's chunks and instances."""

from __future__ import annotations

from collections.abc import Iterator

from advisor.advisors.buffer_pool.common import REF_SIZE, pool_evidence
from advisor.context import AuditContext
from advisor.derived.budget import POOL
from advisor.derived.pool_sizing import alignment_unit, chunk_bytes, configured_pool, pool_instances
from advisor.derived.settings import setting_source
from advisor.findings import Evidence, Severity
from advisor.rules import Proposal, Versions, rule
from advisor.units import describe_bytes, format_size

REF_INSTANCES = "https://dev.mysql.com/doc/refman/8.0/en/innodb-multiple-buffer-pools.html"


@rule(
    "buffer_pool.chunk_alignment",
    Severity.NOTICE,
    [REF_SIZE, "https://mariadb.com/kb/en/innodb-buffer-pool/"],
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
            pool_evidence(size, setting),
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
    [REF_INSTANCES, "https://mariadb.com/kb/en/innodb-system-variables/#innodb_buffer_pool_instances"],
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
            pool_evidence(size, setting),
            Evidence("instances", "1", setting_source(ctx, "innodb_buffer_pool_instances")),
        ),
        variable="innodb_buffer_pool_instances",
        recommended=str(fitting[0]),
    )
