"""Redo log sizing for the redo_log advisor: the capacity in effect, the write rate, the checkpoint age.

Capacity is innodb_redo_log_capacity on MySQL 8.0.30+ (unless only the deprecated innodb_log_file_size /
innodb_log_files_in_group are set, whose product then counts), innodb_log_file_size ×
innodb_log_files_in_group before that, and one file on MariaDB 10.5+. The one size every redo rule
recommends, bounded by the buffer pool, is `advisor.derived.redo_target`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from msgspec import Struct

from advisor.derived.cache import once_per_audit
from advisor.derived.evidence import graded_window
from advisor.derived.restart import measured_context
from advisor.derived.settings import setting_source, sized_by_dedicated_server
from advisor.findings import Evidence
from advisor.units import MIB, describe_bytes

if TYPE_CHECKING:
    from advisor.context import AuditContext

CAPACITY = "innodb_redo_log_capacity"
FILE_SIZE = "innodb_log_file_size"
FILES = "innodb_log_files_in_group"
# The BLOB limit: one row's BLOB/TEXT data may take at most this share of the redo log.
BLOB_SHARE_OF_REDO = 0.10


class RedoLog(Struct, frozen=True):
    """The redo capacity in effect and how to write a new one."""

    capacity_bytes: int
    variable: str  # innodb_redo_log_capacity, or innodb_log_file_size (per file)
    files: int
    evidence: tuple[Evidence, ...]

    def setting_for(self, total_bytes: int) -> int:
        """The value to write: the total, or one file's share rounded up to whole MiB."""
        return -(-total_bytes // (self.files * MIB)) * MIB


def file_count(ctx: AuditContext) -> int:
    """Redo log files in the group: one on MariaDB 10.5+ (the variable is ignored, then removed)."""
    facts = ctx.catalog.lookup(FILES, ctx.version)
    if facts is None or not facts.exists or facts.ignored:
        return 1  # MariaDB 10.5+ writes a single ib_logfile0
    return ctx.config.number(FILES) or 2


@once_per_audit
def redo_log(ctx: AuditContext) -> RedoLog | None:
    """Capacity: innodb_redo_log_capacity on MySQL 8.0.30+ (unless only the deprecated variables are set),
    innodb_log_file_size × innodb_log_files_in_group before that and on MariaDB. None when
    innodb_dedicated_server sizes it."""
    config = ctx.config
    legacy_in_file = config.is_set_in_file(FILE_SIZE) or config.is_set_in_file(FILES)
    if ctx.knows(CAPACITY):
        setting = config.get(CAPACITY)
        if config.is_set_in_file(CAPACITY) or not legacy_in_file:
            size = config.number(CAPACITY)
            if setting is None or not size or sized_by_dedicated_server(ctx, setting):
                return None
            return RedoLog(size, CAPACITY, 1, (Evidence(CAPACITY, describe_bytes(size), setting.where()),))
    elif sized_by_dedicated_server(ctx, config.get(FILE_SIZE)):
        return None
    size, files = config.number(FILE_SIZE), file_count(ctx)
    if not size:
        return None
    evidence = (
        Evidence(FILE_SIZE, describe_bytes(size), setting_source(ctx, FILE_SIZE)),
        Evidence(
            "log files", str(files), setting_source(ctx, FILES) if files > 1 else "one file from MariaDB 10.5"
        ),
    )
    # MySQL 8.0.30+ with only the deprecated variables set: their product is the capacity; the fix is
    # innodb_redo_log_capacity, which then takes over.
    if ctx.knows(CAPACITY):
        return RedoLog(size * files, CAPACITY, 1, evidence)
    return RedoLog(size * files, FILE_SIZE, files, evidence)


def running_capacity(ctx: AuditContext) -> int | None:
    """The redo capacity the server ran with while the status was taken (advisor.derived.restart): a
    measurement bounded by the log — the checkpoint age — is compared with this, never with a file's
    size that has not run yet."""
    running = redo_log(measured_context(ctx))
    return running.capacity_bytes if running is not None else None


def write_rate(ctx: AuditContext) -> tuple[float, Evidence] | None:
    """Redo bytes written per second over the status window (Innodb_os_log_written), with evidence."""
    status = ctx.status
    rate = status.rate("Innodb_os_log_written") if status is not None else None
    if status is None or rate is None:
        return None
    hourly = rate * 3600
    source = f"SHOW GLOBAL STATUS Innodb_os_log_written, {graded_window(ctx)}"
    return rate, Evidence("redo written per hour", describe_bytes(int(hourly)), source)


def duration(size_bytes: int, bytes_per_second: float) -> str:
    """How long `size_bytes` of redo lasts at this rate, in words."""
    if bytes_per_second <= 0:
        return "indefinitely (no redo was written in the window)"
    minutes = size_bytes / bytes_per_second / 60
    if minutes < 1:
        return "less than a minute"
    if minutes < 90:
        return f"about {minutes:.0f} minute{'s' if round(minutes) != 1 else ''}"
    return f"about {minutes / 60:.1f} hours"


def checkpoint_age(ctx: AuditContext) -> tuple[int, Evidence] | None:
    """LSN minus the last checkpoint: InnoDB status first, else the Innodb_checkpoint_age status variable."""
    if ctx.innodb is not None and ctx.innodb.checkpoint_age is not None:
        age = ctx.innodb.checkpoint_age
        return age, Evidence("checkpoint age", describe_bytes(age), "SHOW ENGINE INNODB STATUS (LOG)")
    # MariaDB and Percona Server also report the age as a status variable.
    age_status = ctx.status.value("Innodb_checkpoint_age") if ctx.status is not None else None
    if age_status is None:
        return None
    return age_status, Evidence(
        "checkpoint age", describe_bytes(age_status), "SHOW GLOBAL STATUS Innodb_checkpoint_age"
    )


def largest_row(ctx: AuditContext) -> tuple[int, str] | None:
    """The largest `max_row_bytes` in the schema facts and its table, when known."""
    if ctx.schema is None:
        return None
    sized = [t for t in ctx.schema.tables if t.max_row_bytes]
    if not sized:
        return None
    table = max(sized, key=lambda t: t.max_row_bytes or 0)
    return table.max_row_bytes or 0, f"{table.schema}.{table.table}"


def blob_limited(ctx: AuditContext) -> bool:
    """MySQL 5.6.20–5.7.4 and MariaDB 10.0–10.1 refuse BLOB data over 10% of the redo log; earlier
    servers accept it and may overwrite the last checkpoint (bug #69477)."""
    version = ctx.version
    return version.before(10, 2, 2) if version.is_mariadb else version.before(5, 7, 5)
