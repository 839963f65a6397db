"""Memory allocator: jemalloc or tcmalloc on many-core servers under high concurrency.

What we can see of the allocator: MariaDB's `version_malloc_library` in SHOW VARIABLES, and a
`malloc-lib` line for mysqld_safe in the option files. An LD_PRELOAD in a systemd unit is invisible
to us, so an unknown allocator is only a question, never a claim.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Final

from advisor.findings import Evidence, Severity
from advisor.references import MARIADB_SERVER_VARIABLES, MYSQL_MYSQLD_SAFE
from advisor.rules import Proposal, rule

if TYPE_CHECKING:
    from advisor.context import AuditContext

MYSQLD_SAFE_MALLOC = f"{MYSQL_MYSQLD_SAFE}#option_mysqld_safe_malloc-lib"
MARIADB_ALLOCATORS = "https://mariadb.com/kb/en/using-mariadb-with-tcmalloc-or-jemalloc/"
MARIADB_VERSION_MALLOC = f"{MARIADB_SERVER_VARIABLES}#version_malloc_library"
PERCONA_ALLOCATORS = (
    "https://www.percona.com/blog/2013/03/08/mysql-performance-impact-of-memory-allocators-part-2/"
)

_SCALABLE: Final = ("jemalloc", "tcmalloc", "mimalloc")
_MYSQLD_SAFE_GROUPS: Final = frozenset({"mysqld_safe", "safe_mysqld", "mariadb-safe", "mariadbd-safe"})


def _allocator(ctx: AuditContext) -> Evidence | None:
    """What the inputs say about the allocator in use, if anything."""
    setting = ctx.config.get("version_malloc_library")
    if setting is not None and setting.source == "live":
        return Evidence("allocator", setting.value, "SHOW GLOBAL VARIABLES version_malloc_library")
    if ctx.options is not None:
        for entry in reversed(ctx.options.entries()):
            if entry.name == "malloc_lib" and entry.group in _MYSQLD_SAFE_GROUPS and entry.value:
                return Evidence(
                    "allocator", entry.value, f"{entry.file}:{entry.line} malloc-lib [{entry.group}]"
                )
    return None


def _threads_running(ctx: AuditContext) -> int | None:
    """The higher Threads_running of the snapshots (a gauge: one snapshot is a moment)."""
    if ctx.status is None:
        return None
    values = [ctx.status.value("Threads_running")]
    if ctx.status.earlier is not None:
        values.append(ctx.status.earlier.number("Threads_running"))
    known = [value for value in values if value is not None]
    return max(known) if known else None


@rule(
    "malloc.allocator",
    Severity.NOTICE,
    [PERCONA_ALLOCATORS, MARIADB_ALLOCATORS, MYSQLD_SAFE_MALLOC, MARIADB_VERSION_MALLOC],
)
def allocator(ctx: AuditContext) -> Iterator[Proposal]:
    """What it checks: a server with many CPUs (8 or more) and many queries running at once (16 or more
    in Threads_running) that uses, or may use, the C library's malloc instead of jemalloc or tcmalloc.

    Why it matters: the server allocates and frees memory for every query; glibc's allocator scales
    poorly past about 8 cores under that load (throughput drops, Percona measured) and fragments over
    time, so memory grows without a leak. jemalloc and tcmalloc keep per-thread caches and return
    memory better.

    What we recommend: preload jemalloc (or tcmalloc): under systemd an override with
    `Environment="LD_PRELOAD=/usr/lib/x86_64-linux-gnu/libjemalloc.so.2"` (the path depends on the
    distribution), or `malloc-lib` under [mysqld_safe] where mysqld_safe starts the server. Nothing is
    written to the option file: the library path differs per system and systemd ignores [mysqld_safe].

    Caveats: quiet on small or idle servers and when jemalloc/tcmalloc is already in use. MySQL shows no
    allocator variable, so there the finding is a question (information); MariaDB's version_malloc_library
    saying "system" makes it a notice. Recent glibc releases narrowed the gap: measure before and after.
    """
    cpus = ctx.hardware.cpus if ctx.hardware is not None else None
    running = _threads_running(ctx)
    limits = ctx.thresholds.malloc
    if cpus is None or running is None or cpus < limits.min_cpus or running < limits.min_threads_running:
        return
    found = _allocator(ctx)
    if found is not None and any(name in found.value.lower() for name in _SCALABLE):
        return
    evidence = [
        Evidence("CPUs", str(cpus), "hardware cpus"),
        Evidence("threads running", str(running), "SHOW GLOBAL STATUS Threads_running (highest snapshot)"),
    ]
    if found is not None:
        evidence.append(found)
        what, severity = f"The server uses the C library's allocator ({found.value})", None
    else:
        what, severity = "Nothing in the inputs shows which memory allocator the server uses", Severity.INFO
    yield Proposal(
        title="jemalloc or tcmalloc would serve this many-core server better",
        rationale=f"{what}, on {cpus} CPUs with up to {running} queries running at once. glibc's malloc "
        "contends and fragments at that concurrency; preloading jemalloc (LD_PRELOAD in a systemd override, "
        "or malloc-lib under [mysqld_safe]) usually raises throughput and keeps memory flatter. Whether a "
        "library is loaded shows in /proc/<server pid>/maps.",
        evidence=tuple(evidence),
        severity=severity,
    )


RULES = (allocator,)
