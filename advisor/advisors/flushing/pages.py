"""Which pages are flushed: neighbour pages and the LRU scan depth."""

from __future__ import annotations

from collections.abc import Iterator

from advisor.advisors.flushing.common import REF_FLUSHING
from advisor.context import AuditContext
from advisor.derived.budget import POOL
from advisor.derived.io_sizing import IO, IO_MAX, effective_io_max, storage_evidence, storage_kind
from advisor.derived.pool_sizing import pool_instances
from advisor.derived.settings import setting_source
from advisor.findings import Evidence, Severity
from advisor.references import MARIADB_INNODB_VARIABLES, MYSQL_INNODB_PARAMETERS
from advisor.rules import Proposal, Versions, mysql_only, rule

REF_LRU = f"{MYSQL_INNODB_PARAMETERS}#sysvar_innodb_lru_scan_depth"
REF_NEIGHBORS_MARIADB = f"{MARIADB_INNODB_VARIABLES}#innodb_flush_neighbors"
REF_MDEV_17380 = "https://jira.mariadb.org/browse/MDEV-17380"


@rule(
    "flushing.flush_neighbors",
    Severity.NOTICE,
    [REF_FLUSHING, REF_NEIGHBORS_MARIADB, REF_MDEV_17380],
    Versions(((5, 6, 3), (99,)), ((10, 0), (99,))),
    needs=("storage",),
)
def flush_neighbors(ctx: AuditContext) -> Iterator[Proposal]:
    """What it checks: innodb_flush_neighbors against the storage type the user declares: 0 on SSD and
    NVMe, 1 on hard disks (the default changed from 1 to 0 in MySQL 8.0.3; MariaDB keeps 1).

    Why it matters: flushing a page's dirty neighbours in the same extent merges writes into sequential
    I/O on a spinning disk, but on flash it only writes pages early that will be dirtied again.

    What we recommend: 0 on ssd/nvme, 1 on hdd; nothing for network storage. On MariaDB 10.4.4+ too:
    there the default 1 is skipped only for files the server itself detects on non-rotational storage
    (MDEV-17380, from the block device's rotational flag), and virtual disks (virtio `vd*`, Xen `xvd*`,
    many cloud volumes) often report rotational although flash is behind them — so a declared SSD gets
    an explicit 0, which does not depend on the detection.

    Caveats: needs the storage type, and trusts it: on MariaDB 10.4.4+ with a correctly detected SSD the
    change only makes explicit what the server already does.
    """
    storage, setting = storage_kind(ctx), ctx.config.get("innodb_flush_neighbors")
    if storage is None or setting is None:
        return
    value = setting.value.strip()
    if storage in ("ssd", "nvme") and value != "0":
        wanted, why = "0", f"On {storage} storage flushing neighbouring pages only writes pages early."
        if ctx.version.is_mariadb and ctx.version.at_least(10, 4, 4):
            why += (
                " MariaDB skips neighbours only on storage it detects as non-rotational, and virtual "
                "disks often report rotational; 0 does not depend on that detection."
            )
    elif storage == "hdd" and value == "0":
        wanted, why = (
            "1",
            "On a hard disk, flushing a page's dirty neighbours turns random writes into sequential ones.",
        )
    else:
        return
    yield Proposal(
        title="innodb_flush_neighbors does not match the storage",
        rationale=f"{why} Set innodb_flush_neighbors to {wanted}.",
        evidence=(
            Evidence("innodb_flush_neighbors", value, setting.where()),
            storage_evidence(ctx),
        ),
        variable="innodb_flush_neighbors",
        recommended=wanted,
    )


@rule(
    "flushing.lru_scan_depth",
    Severity.NOTICE,
    [REF_LRU, REF_FLUSHING],
    mysql_only((5, 6, 3)),
    needs=("storage",),
)
def lru_scan_depth(ctx: AuditContext) -> Iterator[Proposal]:
    """What it checks: on a hard disk, innodb_lru_scan_depth × buffer pool instances (the pages the page
    cleaner scans per second at the LRU tails) against innodb_io_capacity_max (MySQL 5.6.3+).

    Why it matters: the manual advises a lower depth when a write-heavy workload saturates I/O, especially
    with many instances: the scan's flushes compete with the device's small write budget.

    What we recommend: innodb_io_capacity_max divided by the instances, in hundreds, at least 100.

    Caveats: only for hard disks, and quiet when threads already wait for free pages
    (Innodb_buffer_pool_wait_free grows): a shallower scan would make that worse. MariaDB reworked the
    page cleaner in 10.5 and is not covered.
    """
    setting, pool = ctx.config.get("innodb_lru_scan_depth"), ctx.config.number(POOL)
    depth, io_now = ctx.config.number("innodb_lru_scan_depth"), ctx.config.number(IO)
    if storage_kind(ctx) != "hdd" or setting is None or not pool or not depth or io_now is None:
        return
    instances, io_max = pool_instances(ctx, pool), effective_io_max(ctx, io_now)
    if instances is None or io_max is None or depth * instances <= io_max:
        return
    if ctx.status is not None and ctx.status.delta("Innodb_buffer_pool_wait_free"):
        return
    facts = ctx.catalog.lookup("innodb_lru_scan_depth", ctx.version)
    minimum = int(facts.min) if facts is not None and facts.min else 100
    wanted = max(minimum, io_max // instances // 100 * 100)
    if wanted >= depth:
        return
    yield Proposal(
        title="The LRU scan asks more of the disk than it can give",
        rationale=f"innodb_lru_scan_depth {depth} × {instances} buffer pool instances = "
        f"{depth * instances} pages "
        f"scanned per second, against an innodb_io_capacity_max of {io_max} on a hard disk. "
        f"Lower it to {wanted}.",
        evidence=(
            Evidence("innodb_lru_scan_depth", str(depth), setting.where()),
            Evidence(
                "buffer pool instances", str(instances), setting_source(ctx, "innodb_buffer_pool_instances")
            ),
            Evidence(IO_MAX, str(io_max), setting_source(ctx, IO_MAX)),
            storage_evidence(ctx),
        ),
        variable="innodb_lru_scan_depth",
        recommended=str(wanted),
    )
