"""Keeping the pool warm: dump/load across restarts and the old-blocks window."""

from __future__ import annotations

from collections.abc import Iterator

from advisor.advisors.buffer_pool.common import pool_evidence
from advisor.context import AuditContext
from advisor.derived.pool_sizing import configured_pool
from advisor.findings import Evidence, Severity
from advisor.rules import ALL_VERSIONS, Proposal, Versions, rule
from advisor.units import describe_bytes, parse_size

REF_WARMUP = "https://dev.mysql.com/doc/refman/8.0/en/innodb-preload-buffer-pool.html"
REF_MIDPOINT = "https://dev.mysql.com/doc/refman/8.0/en/innodb-performance-midpoint_insertion.html"
WARMUP_VARIABLES = ("innodb_buffer_pool_dump_at_shutdown", "innodb_buffer_pool_load_at_startup")


@rule(
    "buffer_pool.warmup_disabled",
    Severity.NOTICE,
    [REF_WARMUP, "https://mariadb.com/kb/en/innodb-buffer-pool/"],
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
            evidence=(Evidence(name, "OFF", setting.where()), pool_evidence(*pool)),
            variable=name,
            recommended="ON",
        )


@rule(
    "buffer_pool.old_blocks_time_zero",
    Severity.NOTICE,
    [REF_MIDPOINT, "https://mariadb.com/kb/en/innodb-system-variables/#innodb_old_blocks_time"],
    ALL_VERSIONS,
)
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
