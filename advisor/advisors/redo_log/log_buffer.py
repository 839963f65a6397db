"""The log buffer: waits for room in it."""

from __future__ import annotations

from collections.abc import Iterator

from advisor.context import AuditContext
from advisor.derived.evidence import cap_severity, graded_window, what_to_measure, window_grade
from advisor.findings import Evidence, Severity
from advisor.references import MYSQL_INNODB_PARAMETERS
from advisor.rules import ALL_VERSIONS, Proposal, rule
from advisor.units import describe_bytes, format_size

REF_LOG_BUFFER = f"{MYSQL_INNODB_PARAMETERS}#sysvar_innodb_log_buffer_size"


@rule(
    "redo_log.log_waits",
    Severity.WARNING,
    [REF_LOG_BUFFER, "https://mariadb.com/kb/en/innodb-system-variables/#innodb_log_buffer_size"],
    ALL_VERSIONS,
    needs=("status",),
)
def log_waits(ctx: AuditContext) -> Iterator[Proposal]:
    """What it checks: Innodb_log_waits per second over the status window (transactions that had to wait
    because the log buffer was full and had to be flushed first).

    Why it matters: each wait is a commit or a large change stalled on a log write that a bigger buffer
    would have absorbed.

    What we recommend: twice the current innodb_log_buffer_size, at least 64 MiB.

    Caveats: dynamic from MySQL 8.0; a restart before that and on MariaDB. Large transactions with big
    BLOBs are the usual cause. On weak evidence (a short or since-startup window, a restart or FLUSH
    STATUS between the snapshots: advisor.derived.evidence) nothing changes: a notice says the window is
    too short and how to measure.
    """
    status = ctx.status
    rate = status.rate("Innodb_log_waits") if status is not None else None
    setting = ctx.config.get("innodb_log_buffer_size")
    size = ctx.config.number("innodb_log_buffer_size")
    if status is None or rate is None or setting is None or not size:
        return
    if rate <= ctx.thresholds.redo_log.log_waits_per_second:
        return
    target = max(2 * size, ctx.thresholds.redo_log.min_log_buffer_bytes)
    facts = ctx.catalog.lookup("innodb_log_buffer_size", ctx.version)
    if facts is not None and isinstance(facts.max, int):
        target = min(target, facts.max)
    if target <= size:
        return
    grade = window_grade(ctx)
    if grade is not None and grade.weak:  # a restart-bound change never rests on one burst
        yield Proposal(
            title="Log waits seen, but the status window is too short to size the log buffer",
            rationale=f"Innodb_log_waits grew by {rate:.2f} per second {grade.span}, too short a window to "
            f"change the {describe_bytes(size)} log buffer on ({grade.reason}). {what_to_measure(ctx)}",
            evidence=(
                Evidence(
                    "log waits per second",
                    f"{rate:.2f}",
                    f"SHOW GLOBAL STATUS Innodb_log_waits, {graded_window(ctx)}",
                ),
            ),
            severity=Severity.NOTICE,
        )
        return
    yield Proposal(
        title="Transactions wait for space in the log buffer",
        rationale=f"Innodb_log_waits grows by {rate:.2f} per second: writers wait for the "
        f"{describe_bytes(size)} log buffer to be flushed. A {describe_bytes(target)} buffer absorbs them.",
        evidence=(
            Evidence(
                "log waits per second",
                f"{rate:.2f}",
                f"SHOW GLOBAL STATUS Innodb_log_waits, {graded_window(ctx)}",
            ),
            Evidence("innodb_log_buffer_size", describe_bytes(size), setting.where()),
        ),
        variable="innodb_log_buffer_size",
        recommended=format_size(target),
        severity=cap_severity(Severity.WARNING, window_grade(ctx)),
    )
