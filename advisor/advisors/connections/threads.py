"""Threads: the thread cache and innodb_thread_concurrency."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from advisor.advisors.connections.common import round_up
from advisor.derived.evidence import (
    graded_window,
    high_water_source,
    high_water_too_short,
    too_short_to_change,
)
from advisor.findings import Evidence, Severity
from advisor.references import MARIADB_INNODB_VARIABLES, MARIADB_SERVER_VARIABLES, MYSQL_SERVER_VARIABLES
from advisor.rules import Proposal, Versions, rule

if TYPE_CHECKING:
    from advisor.context import AuditContext


CONNECTION_THREADS = "https://dev.mysql.com/doc/refman/8.0/en/connection-interfaces.html"
THREAD_CACHE = f"{MYSQL_SERVER_VARIABLES}#sysvar_thread_cache_size"
MARIADB_THREAD_CACHE = f"{MARIADB_SERVER_VARIABLES}#thread_cache_size"
THREAD_CONCURRENCY = "https://dev.mysql.com/doc/refman/8.0/en/innodb-performance-thread_concurrency.html"
MARIADB_THREAD_CONCURRENCY = f"{MARIADB_INNODB_VARIABLES}#innodb_thread_concurrency"
# A thread pool (MariaDB/Percona `pool-of-threads`, MySQL Enterprise's plugin) has no per-connection threads.
_POOLED = frozenset({"pool-of-threads", "loaded-dynamically"})


@rule(
    "connections.thread_cache_misses",
    Severity.NOTICE,
    [CONNECTION_THREADS, THREAD_CACHE, MARIADB_THREAD_CACHE],
    needs=("status",),
)
def thread_cache_misses(ctx: AuditContext) -> Iterator[Proposal]:
    """What it checks: the thread cache miss rate, Threads_created / Connections over the status window,
    when threads are created at least once a second.

    Why it matters: without a cached thread each new connection costs a thread creation (and its stack);
    at hundreds of short connections a second that is measurable CPU and latency.

    What we recommend: thread_cache_size at the connection peak (Max_used_connections), at most
    max_connections and the variable's maximum, rounded up to eight.

    Caveats: quiet with a thread pool (thread_handling pool-of-threads). Averages since startup include
    the burst of connections right after a restart; two snapshots give a truer rate. On weak evidence
    (advisor.derived.evidence) nothing changes: the notice says the window is too short.
    """
    status = ctx.status
    if status is None or (ctx.config.text("thread_handling") or "").lower() in _POOLED:
        return
    created, connections = status.delta("Threads_created"), status.delta("Connections")
    per_second = status.rate("Threads_created")
    limits = ctx.thresholds.connections
    if (
        not created
        or not connections
        or per_second is None
        or per_second < limits.min_threads_created_per_second
    ):
        return
    miss_rate = created / connections
    if miss_rate <= limits.thread_cache_miss_rate:
        return
    current = ctx.config.number("thread_cache_size") or 0
    peak = status.value("Max_used_connections") or 0
    facts = ctx.catalog.lookup("thread_cache_size", ctx.version)
    ceiling = min(
        int(facts.max) if facts and facts.max else peak, ctx.config.number("max_connections") or peak
    )
    target = min(round_up(peak, 8), ceiling)
    if target <= current:
        return
    setting = ctx.config.get("thread_cache_size")
    window = status.describe_window()
    observed = (
        f"{created} of {connections} connections needed a new thread ({per_second:.1f} thread "
        f"creations a second, {window}); thread_cache_size is {current}."
    )
    weak = too_short_to_change(ctx, "thread_cache_size") or high_water_too_short(ctx, "thread_cache_size")
    if weak is not None:
        yield Proposal(
            title=f"The thread cache missed {miss_rate:.0%} of new connections in a short window",
            rationale=f"{observed} {weak}",
            evidence=(
                Evidence(
                    "threads created",
                    str(created),
                    f"SHOW GLOBAL STATUS Threads_created, {graded_window(ctx)}",
                ),
            ),
        )
        return
    yield Proposal(
        title=f"The thread cache misses {miss_rate:.0%} of new connections",
        rationale=f"{observed} A cache as large as the connection "
        f"peak ({peak}) lets ending connections hand their thread to the next one.",
        evidence=(
            Evidence("threads created", str(created), f"SHOW GLOBAL STATUS Threads_created, {window}"),
            Evidence("connections", str(connections), f"SHOW GLOBAL STATUS Connections, {window}"),
            Evidence(
                "thread_cache_size", str(current), setting.where() if setting else "default for this version"
            ),
            Evidence("peak connections", str(peak), high_water_source(ctx, "Max_used_connections")),
        ),
        variable="thread_cache_size",
        recommended=str(target),
    )


@rule(
    "connections.innodb_thread_concurrency",
    Severity.NOTICE,
    [THREAD_CONCURRENCY, MARIADB_THREAD_CONCURRENCY],
    versions=Versions(mysql=((5, 5), (99,)), mariadb=((0,), (10, 5, 5))),
)
def innodb_thread_concurrency(ctx: AuditContext) -> Iterator[Proposal]:
    """What it checks: a non-zero innodb_thread_concurrency on MySQL 5.5+ and MariaDB before 10.5.5
    (later MariaDB ignores the variable, which the config_validity advisor reports).

    Why it matters: a limit makes threads beyond it sleep and queue before entering InnoDB; on modern
    multi-core servers the InnoDB scalability work made that throttle unnecessary, and a low value
    (often copied from old tuning guides as "2 × CPUs") caps throughput and adds latency.

    What we recommend: 0, no limit (the default since MySQL 5.5).

    Caveats: a limit can still help a server whose CPUs are shared with other busy processes, or a
    workload measured to thrash at very high concurrency; keep it if it was set after such a test.
    """
    value = ctx.config.number("innodb_thread_concurrency")
    if not value:
        return
    setting = ctx.config.get("innodb_thread_concurrency")
    yield Proposal(
        title=f"innodb_thread_concurrency = {value} throttles InnoDB",
        rationale=f"Only {value} threads may run inside InnoDB at once; the others sleep and queue. On "
        f"{ctx.version.describe()} with multi-core hardware the limit mostly adds latency; 0 removes it.",
        evidence=(
            Evidence(
                "innodb_thread_concurrency", str(value), setting.where() if setting else "effective config"
            ),
        ),
        variable="innodb_thread_concurrency",
        recommended="0",
    )
