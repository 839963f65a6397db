"""innodb_io_capacity and innodb_io_capacity_max for the storage."""

from __future__ import annotations

from collections.abc import Iterator

from advisor.advisors.flushing.common import REF_FLUSHING
from advisor.context import AuditContext
from advisor.derived.io_sizing import (
    IO,
    IO_MAX,
    effective_io_max,
    flushing_behind,
    io_change,
    io_target,
    storage_kind,
)
from advisor.derived.settings import setting_source
from advisor.findings import Evidence, Severity
from advisor.rules import Proposal, Versions, rule

REF_IO = "https://dev.mysql.com/doc/refman/8.0/en/innodb-configuring-io-capacity.html"


@rule(
    "flushing.io_capacity",
    Severity.NOTICE,
    [REF_IO, REF_FLUSHING, "https://mariadb.com/kb/en/innodb-system-variables/#innodb_io_capacity"],
    Versions(((5, 5, 4), (99,)), ((0,), (99,))),
    needs=("storage",),
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


@rule(
    "flushing.io_capacity_max",
    Severity.NOTICE,
    [REF_IO, "https://mariadb.com/kb/en/innodb-system-variables/#innodb_io_capacity_max"],
    Versions(((5, 6, 6), (99,)), ((10, 0), (99,))),
)
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
            # After flushing.io_capacity's change the value is our recommendation, not the server's.
            Evidence(
                IO if change is None else f"{IO} (recommended)",
                str(io_after),
                setting_source(ctx, IO) if change is None else "recommended by flushing.io_capacity",
            ),
        ),
        variable=IO_MAX,
        recommended=str(desired),
    )
