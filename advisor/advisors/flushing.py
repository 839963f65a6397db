"""Flushing: I/O capacity for the storage, neighbour flushing, the flush method and the LRU scan depth."""

from __future__ import annotations

from collections.abc import Iterator

from advisor.context import AuditContext
from advisor.derived.budget import POOL
from advisor.derived.io_sizing import (
    IO,
    IO_MAX,
    effective_io_max,
    flushing_behind,
    io_change,
    io_target,
    storage_kind,
)
from advisor.derived.pool_sizing import pool_instances
from advisor.derived.settings import setting_source, sized_by_dedicated_server
from advisor.findings import Evidence, Severity
from advisor.references import MARIADB_INNODB_VARIABLES, MYSQL_INNODB_PARAMETERS
from advisor.rules import Proposal, Rule, Versions, mariadb_only, mysql_only, rule

REF_IO = "https://dev.mysql.com/doc/refman/8.0/en/innodb-configuring-io-capacity.html"
REF_FLUSHING = "https://dev.mysql.com/doc/refman/8.0/en/innodb-buffer-pool-flushing.html"
REF_METHOD = f"{MYSQL_INNODB_PARAMETERS}#sysvar_innodb_flush_method"
REF_MARIADB_METHOD = "https://mariadb.com/kb/en/innodb-flush-method/"
REF_BUFFERING = f"{MARIADB_INNODB_VARIABLES}#innodb_data_file_buffering"
REF_LRU = f"{MYSQL_INNODB_PARAMETERS}#sysvar_innodb_lru_scan_depth"
# Methods that go through the OS page cache on Linux, caching every page twice.
_BUFFERED_METHODS = frozenset({"", "NULL", "FSYNC", "FDATASYNC", "O_DSYNC"})


@rule(
    "flushing.io_capacity",
    Severity.NOTICE,
    [REF_IO, REF_FLUSHING],
    Versions(((5, 5, 4), (99,)), ((0,), (99,))),
)
def io_capacity(ctx: AuditContext) -> Iterator[Proposal]:
    """What it checks: innodb_io_capacity against the storage type (hdd 200, ssd 2000, nvme 10000, network
    1000; at most half the measured IOPS when `iops` is known), and whether flushing falls behind
    (Innodb_buffer_pool_wait_free grows, or dirty pages near innodb_max_dirty_pages_pct).

    Why it matters: io_capacity is the background flushing budget. Far too low on fast storage and dirty
    pages pile up until user threads flush them themselves (waits for free pages, stalls at checkpoints);
    far too high on a spinning disk and flushing saturates the device that reads need.

    What we recommend: the storage target when the setting is off by more than a factor of two — a
    warning when status shows flushing falling behind.

    Caveats: "too high" is only judged for hard disks or when IOPS are given: MySQL 8.4 defaults to
    10000, fine on most SSDs. The figures are starting points; measure the device.
    """
    change = io_change(ctx)
    if change is None:
        return
    current, target, evidence, too_low = change
    behind = flushing_behind(ctx) if too_low else ()
    device = evidence[-1].value
    if too_low:
        why = f"innodb_io_capacity {current} is far below the {target} this storage ({device}) sustains"
        why += (
            ": page flushing is falling behind."
            if behind
            else "; dirty pages are flushed slower than they could be."
        )
    else:
        why = (
            f"innodb_io_capacity {current} is far above the {target} this storage ({device}) sustains: "
            "background flushing competes with reads for the device."
        )
    yield Proposal(
        title="innodb_io_capacity does not match the storage",
        rationale=f"{why} Set it to {target}.",
        evidence=(*evidence, *behind),
        variable=IO,
        recommended=str(target),
        severity=Severity.WARNING if behind else None,
    )


@rule("flushing.io_capacity_max", Severity.NOTICE, [REF_IO], Versions(((5, 6, 6), (99,)), ((10, 0), (99,))))
def io_capacity_max(ctx: AuditContext) -> Iterator[Proposal]:
    """What it checks: innodb_io_capacity_max against innodb_io_capacity (after the change proposed by
    flushing.io_capacity): it must not be lower, and on a hard disk or a device with known IOPS it should
    not be far above twice innodb_io_capacity.

    Why it matters: the server refuses SET GLOBAL innodb_io_capacity above innodb_io_capacity_max and
    clamps it at startup, so raising one without the other does nothing; a maximum far beyond the device
    lets urgent flushing saturate it.

    What we recommend: twice innodb_io_capacity, at least 2000 (the servers' own rule when it is unset),
    never above the measured IOPS.

    Caveats: needs the storage type in the hardware spec.
    """
    io_now = ctx.config.number(IO)
    if io_now is None or not ctx.knows(IO_MAX) or io_target(ctx) is None:
        return
    change = io_change(ctx)
    io_after = change[1] if change is not None else io_now
    current = effective_io_max(ctx, io_now)
    if current is None:
        return
    limits = ctx.thresholds.flushing
    desired = max(2 * io_after, limits.min_io_capacity_max)
    hardware = ctx.hardware
    if hardware is not None and hardware.iops:
        desired = max(io_after, min(desired, hardware.iops))
    known_device = storage_kind(ctx) == "hdd" or (hardware is not None and hardware.iops is not None)
    if current >= io_after and not (known_device and current > desired * limits.tolerance_factor):
        return
    why = (
        f"innodb_io_capacity_max {current} is below the innodb_io_capacity of {io_after}, which the server "
        "clamps to it."
        if current < io_after
        else f"innodb_io_capacity_max {current} lets urgent flushing far beyond what this device sustains."
    )
    yield Proposal(
        title="innodb_io_capacity_max does not fit innodb_io_capacity",
        rationale=f"{why} Set it to {desired}.",
        evidence=(
            Evidence(IO_MAX, str(current), setting_source(ctx, IO_MAX)),
            Evidence(IO, str(io_after), setting_source(ctx, IO)),
        ),
        variable=IO_MAX,
        recommended=str(desired),
    )


@rule(
    "flushing.flush_neighbors",
    Severity.NOTICE,
    [REF_FLUSHING],
    Versions(((5, 6, 3), (99,)), ((10, 0), (99,))),
)
def flush_neighbors(ctx: AuditContext) -> Iterator[Proposal]:
    """What it checks: innodb_flush_neighbors against the storage type: 0 on SSD and NVMe, 1 on hard disks
    (the default changed from 1 to 0 in MySQL 8.0.3; MariaDB keeps 1 but ignores it on SSDs it detects,
    from 10.4.4).

    Why it matters: flushing a page's dirty neighbours in the same extent merges writes into sequential
    I/O on a spinning disk, but on flash it only writes pages early that will be dirtied again.

    What we recommend: 0 on ssd/nvme, 1 on hdd; nothing for network storage.

    Caveats: needs the storage type. MariaDB 10.4.4+ already skips neighbours on detected SSDs, so the
    rule stays quiet there.
    """
    storage, setting = storage_kind(ctx), ctx.config.get("innodb_flush_neighbors")
    if storage is None or setting is None:
        return
    value = setting.value.strip()
    if storage in ("ssd", "nvme") and value != "0":
        if ctx.version.is_mariadb and ctx.version.at_least(10, 4, 4):
            return
        wanted, why = "0", f"On {storage} storage flushing neighbouring pages only writes pages early."
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
            Evidence("storage", storage, "hardware storage"),
        ),
        variable="innodb_flush_neighbors",
        recommended=wanted,
    )


def _linux_or_unknown(ctx: AuditContext) -> bool:
    os_name = ctx.hardware.os if ctx.hardware is not None else None
    return os_name is None or "linux" in os_name.lower()


@rule(
    "flushing.flush_method",
    Severity.NOTICE,
    [REF_METHOD, REF_MARIADB_METHOD],
    Versions(((0,), (99,)), ((0,), (11, 0, 1))),
)
def flush_method(ctx: AuditContext) -> Iterator[Proposal]:
    """What it checks: innodb_flush_method on Linux (or an unstated OS, Linux being the usual host):
    fsync (MySQL's default before 8.4, MariaDB's before 10.6) or O_DSYNC send data files through the OS
    page cache. MariaDB 11.0.1+ deprecated the variable (see flushing.data_file_buffering).

    Why it matters: through the page cache every page is cached twice — once in the buffer pool, once by
    the OS — which wastes memory the pool could use and adds copying; O_DIRECT bypasses it.

    What we recommend: O_DIRECT (O_DIRECT_NO_FSYNC is also fine and left alone).

    Caveats: quiet when the hardware spec names another OS; a few file systems (old tmpfs, some network
    mounts) refuse O_DIRECT. innodb_dedicated_server on MySQL 8.0 picks O_DIRECT_NO_FSYNC itself. Not
    dynamic: takes a restart.
    """
    setting = ctx.config.get("innodb_flush_method")
    if not _linux_or_unknown(ctx) or not ctx.knows("innodb_flush_method"):
        return
    if setting is not None and sized_by_dedicated_server(ctx, setting) and ctx.version.before(8, 4):
        return
    value = (setting.value if setting is not None else "").strip().strip("'\"")
    if value.upper() not in _BUFFERED_METHODS:
        return
    shown = value or "unset (fsync)"
    yield Proposal(
        title="InnoDB data files go through the OS page cache",
        rationale=f"innodb_flush_method is {shown}: every page is cached twice, in the buffer pool and in "
        "the OS page cache. O_DIRECT leaves that memory to the pool.",
        evidence=(
            Evidence(
                "innodb_flush_method",
                shown,
                setting.where() if setting is not None else "default for this version",
            ),
        ),
        variable="innodb_flush_method",
        recommended="O_DIRECT",
    )


@rule(
    "flushing.data_file_buffering",
    Severity.NOTICE,
    [REF_BUFFERING, REF_MARIADB_METHOD],
    mariadb_only((11, 0, 1)),
)
def data_file_buffering(ctx: AuditContext) -> Iterator[Proposal]:
    """What it checks: innodb_data_file_buffering = ON on MariaDB 11.0.1+ on Linux (or an unstated OS),
    the successor of innodb_flush_method for data files.

    Why it matters: buffered data files are cached twice, in the buffer pool and in the OS page cache.

    What we recommend: OFF (the default: O_DIRECT for data files).

    Caveats: an innodb_flush_method left in the option file still applies on these versions; config
    validity reports it.
    """
    setting = ctx.config.get("innodb_data_file_buffering")
    if (
        setting is None
        or not _linux_or_unknown(ctx)
        or ctx.config.flag("innodb_data_file_buffering") is not True
    ):
        return
    yield Proposal(
        title="InnoDB data files go through the OS page cache",
        rationale="innodb_data_file_buffering is ON: every data page is cached twice. OFF leaves that memory "
        "to the buffer pool.",
        evidence=(Evidence("innodb_data_file_buffering", "ON", setting.where()),),
        variable="innodb_data_file_buffering",
        recommended="OFF",
    )


@rule("flushing.lru_scan_depth", Severity.NOTICE, [REF_LRU, REF_FLUSHING], mysql_only((5, 6, 3)))
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
            Evidence("storage", "hdd", "hardware storage"),
        ),
        variable="innodb_lru_scan_depth",
        recommended=str(wanted),
    )


RULES: tuple[Rule, ...] = (
    io_capacity,
    io_capacity_max,
    flush_neighbors,
    flush_method,
    data_file_buffering,
    lru_scan_depth,
)
