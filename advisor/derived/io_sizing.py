"""I/O sizing for the flushing advisor: innodb_io_capacity targets by storage, and whether flushing lags.

Targets come from the storage type in the hardware spec (thresholds.flushing), capped at a share of
the device's measured IOPS when given. "Too high" is judged only where the device is known (a hard
disk, or measured IOPS): MySQL 8.4's default of 10000 suits most SSDs.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from advisor.derived.settings import setting_source
from advisor.findings import Evidence

if TYPE_CHECKING:
    from advisor.context import AuditContext

IO = "innodb_io_capacity"
IO_MAX = "innodb_io_capacity_max"


def percentage(text: str | None) -> float | None:
    """A percentage as the server prints it (`90.000000`)."""
    try:
        return float(text) if text is not None else None
    except ValueError:
        return None


def storage_kind(ctx: AuditContext) -> str | None:
    """hdd / ssd / nvme / network from the hardware spec, None when not given."""
    return ctx.hardware.storage if ctx.hardware is not None else None


def storage_evidence(ctx: AuditContext, extra: str = "") -> Evidence:
    """The storage type as evidence, with the collector's measured latencies when the spec has them."""
    hardware = ctx.hardware
    label = f"{storage_kind(ctx)}{extra}"
    if hardware is not None and hardware.read_latency_ms is not None:
        label += f"; measured 16 KiB random reads {hardware.read_latency_ms:g} ms median"
        if hardware.read_latency_p99_ms is not None:
            label += f" ({hardware.read_latency_p99_ms:g} ms p99)"
        if hardware.fsync_latency_ms is not None:
            label += f", fsync {hardware.fsync_latency_ms:g} ms median"
    return Evidence("storage", label, "hardware storage")


def io_target(ctx: AuditContext) -> tuple[int, Evidence] | None:
    """innodb_io_capacity for the storage type, capped at a share of measured IOPS."""
    storage, hardware = storage_kind(ctx), ctx.hardware
    if storage is None or hardware is None:
        return None
    limits = ctx.thresholds.flushing
    by_storage = {
        "hdd": limits.io_capacity_hdd,
        "ssd": limits.io_capacity_ssd,
        "nvme": limits.io_capacity_nvme,
        "network": limits.io_capacity_network,
    }
    target = by_storage[storage]
    if hardware.iops:
        target = min(target, max(100, int(hardware.iops * limits.max_share_of_device_iops)))
    return target, storage_evidence(ctx, f", {hardware.iops:,} IOPS" if hardware.iops else "")


def flushing_behind(ctx: AuditContext) -> tuple[Evidence, ...]:
    """Evidence that page flushing falls behind: waits for free pages, or dirty pages near the ceiling."""
    status = ctx.status
    if status is None:
        return ()
    found: list[Evidence] = []
    waits = status.delta("Innodb_buffer_pool_wait_free")
    if waits:
        found.append(
            Evidence(
                "waits for a free page",
                f"{waits:,}",
                f"SHOW GLOBAL STATUS Innodb_buffer_pool_wait_free, {status.describe_window()}",
            )
        )
    dirty, total = (
        status.value("Innodb_buffer_pool_pages_dirty"),
        status.value("Innodb_buffer_pool_pages_total"),
    )
    ceiling = percentage(ctx.config.text("innodb_max_dirty_pages_pct"))
    if dirty is not None and total and ceiling:
        share = dirty / total
        if share * 100 >= ceiling * ctx.thresholds.flushing.dirty_share_of_max_pct:
            found.append(
                Evidence(
                    "dirty pages",
                    f"{share:.0%} of the pool (ceiling {ceiling:g}%)",
                    "SHOW GLOBAL STATUS Innodb_buffer_pool_pages_dirty / Innodb_buffer_pool_pages_total",
                )
            )
    return tuple(found)


def io_change(ctx: AuditContext) -> tuple[int, int, tuple[Evidence, ...], bool] | None:
    """(current, recommended, evidence, too_low) when innodb_io_capacity is off its target."""
    target, current = io_target(ctx), ctx.config.number(IO)
    if target is None or current is None or not ctx.knows(IO):
        return None
    tolerance = ctx.thresholds.flushing.tolerance_factor
    evidence = (Evidence(IO, str(current), setting_source(ctx, IO)), target[1])
    if current * tolerance < target[0]:
        return current, target[0], evidence, True
    # Too high only where we know the device: a spinning disk, or measured IOPS.
    hardware = ctx.hardware
    known_device = storage_kind(ctx) == "hdd" or (hardware is not None and hardware.iops is not None)
    if known_device and current > target[0] * tolerance:
        return current, target[0], evidence, False
    return None


def effective_io_max(ctx: AuditContext, io_capacity: int) -> int | None:
    """innodb_io_capacity_max in effect; unset, the servers derive twice innodb_io_capacity, at least 2000."""
    setting = ctx.config.get(IO_MAX)
    if setting is None:
        return None
    if setting.source == "default":
        return max(2 * io_capacity, ctx.thresholds.flushing.min_io_capacity_max)
    return ctx.config.number(IO_MAX)
