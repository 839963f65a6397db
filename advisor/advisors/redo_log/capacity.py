"""The redo capacity: BLOBs it must hold, the checkpoint age, an hour of writes."""

from __future__ import annotations

from collections.abc import Iterator

from advisor.advisors.redo_log.common import proposal as _proposal
from advisor.context import AuditContext
from advisor.derived.evidence import cap_severity, what_to_measure, window_grade
from advisor.derived.redo_sizing import (
    BLOB_SHARE_OF_REDO,
    checkpoint_age,
    duration,
    largest_row,
    redo_log,
    running_capacity,
    write_rate,
)
from advisor.derived.redo_target import redo_floor, redo_target
from advisor.findings import Evidence, Severity
from advisor.references import MARIADB_REDO_RESIZE_AT_STARTUP, MYSQL_56_REDO_LOG, MYSQL_INNODB_PARAMETERS
from advisor.rules import ALL_VERSIONS, Proposal, Versions, rule
from advisor.units import describe_bytes

REF_REDO = "https://dev.mysql.com/doc/refman/8.0/en/innodb-redo-log.html"
REF_CAPACITY = f"{MYSQL_INNODB_PARAMETERS}#sysvar_innodb_redo_log_capacity"
REF_MARIADB = "https://mariadb.com/kb/en/innodb-redo-log/"
REF_SIZING = "https://www.percona.com/blog/2008/11/21/how-to-calculate-a-good-innodb-log-file-size/"
REF_BLOB = "https://dev.mysql.com/doc/relnotes/mysql/5.6/en/news-5-6-20.html"


@rule(
    "redo_log.blob_too_large",
    Severity.WARNING,
    [REF_BLOB, REF_REDO],
    Versions(((0,), (5, 7, 5)), ((0,), (10, 2, 2))),
)
def blob_too_large(ctx: AuditContext) -> Iterator[Proposal]:
    """What it checks: the largest row's BLOB/TEXT data (schema facts `max_row_bytes`) against 10% of the
    redo log (MySQL before 5.7.5, MariaDB before 10.2.2).

    Why it matters: from MySQL 5.6.20 (and in MariaDB 10.0/10.1) an insert or update whose BLOB data
    exceeds 10% of the redo log fails with "The size of BLOB/TEXT data inserted in one transaction is
    greater than 10% of redo log size"; before 5.6.20 (MySQL 5.5, early 5.6, MariaDB 5.5) such a write
    could overwrite the latest checkpoint and break crash recovery — critical.

    What we recommend: a redo log of at least ten times the largest row, with 25% headroom.

    Caveats: 5.6.20 and 5.6.21 measured the limit against one log file, 5.6.22+ against all of them;
    MySQL 5.7.5 removed the limit. Needs schema facts with row sizes.
    """
    redo, row = redo_log(ctx), largest_row(ctx)
    if redo is None or row is None:
        return
    version = ctx.version
    per_file = version.is_mysql_family and version.at_least(5, 6, 20) and version.before(5, 6, 22)
    limit_base = redo.capacity_bytes // redo.files if per_file else redo.capacity_bytes
    if row[0] <= limit_base * BLOB_SHARE_OF_REDO:
        return
    refuses = version.at_least(10, 0) if version.is_mariadb else version.at_least(5, 6, 20)
    effect = (
        "the server refuses to write it"
        if refuses
        else "writing it can overwrite the last checkpoint and break crash recovery"
    )
    proposal = _proposal(
        ctx,
        redo,
        "A row's BLOB/TEXT data exceeds 10% of the redo log",
        f"{row[1]} holds rows of up to {describe_bytes(row[0])}, more than 10% of the "
        f"{describe_bytes(limit_base)} redo log: {effect}.",
        (Evidence("largest row", describe_bytes(row[0]), f"schema facts ({row[1]})"),),
        None if refuses else Severity.CRITICAL,
    )
    if proposal is not None:
        yield proposal


@rule("redo_log.checkpoint_age_high", Severity.WARNING, [REF_REDO, REF_MARIADB], ALL_VERSIONS)
def checkpoint_age_high(ctx: AuditContext) -> Iterator[Proposal]:
    """What it checks: the checkpoint age (LSN minus last checkpoint, from SHOW ENGINE INNODB STATUS or the
    Innodb_checkpoint_age status variable) against the redo capacity.

    Why it matters: when the age nears capacity InnoDB must flush dirty pages synchronously to free log
    space, and every write stalls — flushing cannot keep up with this log size.

    What we recommend: a redo log in which the observed age would fill at most half (and at least an
    hour of writes when the rate is known), within what the pool may hold dirty (see redo_log.undersized).

    The age is compared with the log the server ran while it was measured: where the option file sets
    another size (drift, advisor.after_restart), the file's size has never held that age.

    Caveats: one snapshot; an age near capacity during a bulk load may be momentary. If the age stays
    high after resizing, innodb_io_capacity is the next thing to look at.
    """
    redo, age, running = redo_log(ctx), checkpoint_age(ctx), running_capacity(ctx)
    if redo is None or age is None or not running:
        return
    # The age was measured on the running server: its share is of the log that ran, not of a file's
    # size that has not run yet (a 50 MiB age in a running 96 MiB log is 52%, not 104% of the file's 48M).
    share = age[0] / running
    if share <= ctx.thresholds.redo_log.max_checkpoint_age_fraction:
        return
    proposal = _proposal(
        ctx,
        redo,
        "The checkpoint age is close to the redo log capacity",
        f"The checkpoint age is {describe_bytes(age[0])}, {share:.0%} of the "
        f"{describe_bytes(running)} redo log it was measured in: InnoDB is close to forced synchronous "
        "flushing, which stalls writes.",
        (age[1],),
    )
    if proposal is not None:
        yield proposal


@rule(
    "redo_log.undersized",
    Severity.WARNING,
    [REF_SIZING, REF_CAPACITY, REF_MARIADB, MYSQL_56_REDO_LOG, MARIADB_REDO_RESIZE_AT_STARTUP],
    ALL_VERSIONS,
)
def undersized(ctx: AuditContext) -> Iterator[Proposal]:
    """What it checks: the redo capacity (innodb_redo_log_capacity on MySQL 8.0.30+, else
    innodb_log_file_size × innodb_log_files_in_group; one file on MariaDB 10.5+) against about one hour
    of redo writes at the rate Innodb_os_log_written shows over the status window.

    Why it matters: a small redo log forces frequent checkpoints: InnoDB flushes dirty pages early and
    often instead of merging writes, and under bursts it stalls writes while it frees log space.

    What we recommend: one hour of writes, at least 512 MiB (1 GiB on hosts with 8 GiB of memory or
    more, 2 GiB from 128 GiB — the sizes innodb_dedicated_server picks — as far as the pool can hold
    that much dirty) and at most 128 GiB, when the current
    capacity is under half of that (a warning when it holds less than half an hour of writes) — but
    never more than twice what the pool that will run (the recommended one when buffer_pool advice
    changes it) may hold dirty (innodb_max_dirty_pages_pct of it), or the InnoDB data there is to dirty
    when schema facts give less: only dirty pages need redo, hot pages rewritten while dirty need a few
    times their bytes, and a larger log only lengthens crash recovery (measured on MariaDB 10.11:
    15.8 s for 11.5 GiB of redo against 3.6 s for 1 GiB; see redo_log.oversized for the other side).

    Caveats: the write rate is graded by its window (advisor.derived.evidence): on weak evidence (less
    than an hour since startup, snapshots under a minute apart, a restart or FLUSH STATUS between them)
    the finding is at most a notice, the log at most doubles, and the rationale says what to measure; a
    window of quiet minutes underestimates the peak. innodb_log_file_size is dynamic only on MariaDB
    10.9+ and innodb_redo_log_capacity on MySQL 8.0.30+; before that a restart recreates the files, and
    before MySQL 5.6.8 / MariaDB 10.0 only after a clean shutdown with the old ib_logfile* moved away
    (the rationale gives the procedure). innodb_dedicated_server sizes the log itself.
    """
    redo, rate = redo_log(ctx), write_rate(ctx)
    if redo is None or rate is None:
        return
    limits = ctx.thresholds.redo_log
    hour = rate[0] * 3600 * limits.target_hours_of_writes
    target = redo_target(ctx)
    if target is None or redo.capacity_bytes * limits.tolerance_factor >= target.total_bytes:
        return
    short = redo.capacity_bytes * limits.tolerance_factor < hour
    lasts = (
        f"The {describe_bytes(redo.capacity_bytes)} redo log holds {duration(redo.capacity_bytes, rate[0])}"
    )
    if short:
        why = f"{lasts} of writes at the observed rate: InnoDB checkpoints far more often than needed."
    else:
        floor = describe_bytes(redo_floor(ctx))
        why = (
            f"{lasts} at this quiet rate, but it is under half the {floor} minimum: a burst of writes "
            "(a bulk load, an index build) fills it in moments and forces checkpoints."
        )
    grade = window_grade(ctx)
    severity = cap_severity(Severity.WARNING if short else Severity.NOTICE, grade)
    if grade is not None and grade.weak:
        why = f"{why} {what_to_measure(ctx)}"
    title = "The redo log is small for the write rate" if short else "The redo log is below the minimum size"
    proposal = _proposal(ctx, redo, title, why, (rate[1],), severity)
    if proposal is not None:
        yield proposal
