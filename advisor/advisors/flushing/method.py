"""How data files are written: innodb_flush_method and buffered data files."""

from __future__ import annotations

from collections.abc import Iterator

from advisor.context import AuditContext
from advisor.derived.settings import sized_by_dedicated_server
from advisor.findings import Evidence, Severity
from advisor.references import MARIADB_INNODB_VARIABLES, MYSQL_INNODB_PARAMETERS
from advisor.rules import Proposal, Versions, mariadb_only, rule

REF_METHOD = f"{MYSQL_INNODB_PARAMETERS}#sysvar_innodb_flush_method"
REF_MARIADB_METHOD = "https://mariadb.com/kb/en/innodb-flush-method/"
REF_BUFFERING = f"{MARIADB_INNODB_VARIABLES}#innodb_data_file_buffering"
# Methods that go through the OS page cache on Linux, caching every page twice.
_BUFFERED_METHODS = frozenset({"", "NULL", "FSYNC", "FDATASYNC", "O_DSYNC"})


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
