"""What the redo capacity rules share: the one proposal they make, with its costs and procedure."""

from __future__ import annotations

from advisor.context import AuditContext
from advisor.derived.redo_sizing import RedoLog
from advisor.derived.redo_target import redo_bound, redo_target
from advisor.findings import Evidence, Severity
from advisor.rules import Proposal
from advisor.units import describe_bytes, format_size

# Measured on a real MariaDB 10.11 (2 CPUs, SSD, issue 16): what a large log costs at a crash.
RECOVERY_COST = (
    "A larger log costs disk space and a longer crash recovery, not memory: recovery replays the redo "
    "written since the last checkpoint, up to the whole log (measured on a 2-CPU MariaDB 10.11 with SSD: "
    "11.5 GiB of redo, with a 1.2 GB checkpoint age after 10 minutes, took 15.8 s to recover; 1 GiB took "
    "3.6 s)."
)
MANUAL_RESIZE = (
    " This server does not resize the redo log itself (MySQL before 5.6.8, MariaDB before 10.0): make "
    "sure innodb_fast_shutdown is 0 or 1 (not 2), shut the server down cleanly, move the old ib_logfile* "
    "files out of the data directory (keep them until the server is back), change the size and start the "
    "server, which creates new log files. Changing the size without this makes InnoDB refuse to start."
)


def needs_manual_resize(ctx: AuditContext) -> bool:
    """MySQL before 5.6.8 and MariaDB before 10.0 refuse to start with ib_logfile* of another size."""
    version = ctx.version
    return version.before(10, 0) if version.is_mariadb else version.before(5, 6, 8)


def procedure(ctx: AuditContext) -> str:
    """The manual resize procedure where the server cannot resize the log itself, else ""."""
    return MANUAL_RESIZE if needs_manual_resize(ctx) else ""


def proposal(
    ctx: AuditContext,
    redo: RedoLog,
    title: str,
    why: str,
    extra: tuple[Evidence, ...],
    severity: Severity | None = None,
) -> Proposal | None:
    """Resize to the one redo target (None when it is not larger), with recovery cost and procedure."""
    target = redo_target(ctx)
    if target is None or target.total_bytes <= redo.capacity_bytes:
        return None
    per_setting = redo.setting_for(target.total_bytes)
    how = "" if redo.files == 1 else f" ({redo.files} files of {describe_bytes(per_setting)})"
    bound = redo_bound(ctx)
    return Proposal(
        title=title,
        rationale=f"{why} {target.notes}Make the redo log {describe_bytes(target.total_bytes)}{how}, sized "
        f"for {target.reason}. {RECOVERY_COST}{procedure(ctx)}",
        evidence=(*redo.evidence, *extra, *(bound.evidence if bound is not None else ())),
        variable=redo.variable,
        recommended=format_size(per_setting),
        severity=severity,
    )
