"""Binary log group commit: a short wait before the binlog fsync so that concurrent commits share it.

MySQL 5.7.5+ has binlog_group_commit_sync_delay / binlog_group_commit_sync_no_delay_count; MariaDB
10.0.5+ has binlog_commit_wait_count / binlog_commit_wait_usec. Commits per second (shared with the
durability advisor) come from advisor.derived.workload.
"""

from __future__ import annotations

from collections.abc import Iterator

from advisor.context import AuditContext
from advisor.derived.evidence import too_short_to_change
from advisor.derived.replication import binlog_enabled
from advisor.derived.settings import setting_evidence
from advisor.derived.workload import CommitRate, commit_rate
from advisor.findings import Evidence, Severity
from advisor.model import Profile
from advisor.references import MARIADB_REPLICATION_VARIABLES, MYSQL_BINLOG_OPTIONS
from advisor.rules import Proposal, Rule, Versions, rule

_MYSQL_DELAY = f"{MYSQL_BINLOG_OPTIONS}#sysvar_binlog_group_commit_sync_delay"
_MARIADB_GROUP_COMMIT = "https://mariadb.com/kb/en/group-commit-for-the-binary-log/"
_MARIADB_WAIT = f"{MARIADB_REPLICATION_VARIABLES}#binlog_commit_wait_usec"
_VERSIONS = Versions(mysql=((5, 7, 5), (99,)), mariadb=((10, 0, 5), (99,)))
_PENDING_FSYNCS = ("Innodb_data_pending_fsyncs", "Innodb_os_log_pending_fsyncs")


def _slow_fsync(ctx: AuditContext) -> Evidence | None:
    """Evidence that an fsync is expensive here, or None (measured fast, cached, or unknown)."""
    limits = ctx.thresholds.group_commit
    hardware = ctx.hardware
    if hardware is not None:
        if hardware.battery_backed_cache:
            return None  # a write-back cache acknowledges fsyncs in microseconds
        if hardware.fsync_latency_ms is not None:
            if hardware.fsync_latency_ms < limits.slow_fsync_ms:
                return None
            return Evidence("fsync latency", f"{hardware.fsync_latency_ms:g} ms", "hardware fsync_latency_ms")
        if hardware.storage in ("hdd", "network"):
            return Evidence("storage", hardware.storage, "hardware storage")
    if ctx.status is not None:
        values = [ctx.status.value(name) for name in _PENDING_FSYNCS]
        pending = sum(value for value in values if value is not None)
        if pending >= limits.min_pending_fsyncs:
            return Evidence(
                "pending fsyncs",
                str(pending),
                "SHOW GLOBAL STATUS Innodb_data_pending_fsyncs + Innodb_os_log_pending_fsyncs (latest snapshot)",
            )
    return None


def _commits_per_fsync(ctx: AuditContext, rate: CommitRate) -> Evidence | None:
    """How many commits already share one sync: MariaDB counts binlog groups; on MySQL redo fsyncs
    (one per binlog group at innodb_flush_log_at_trx_commit=1) stand in for them."""
    status = ctx.status
    if status is None:
        return None
    groups = status.rate("Binlog_group_commits")
    name = "Binlog_group_commits"
    if not groups:
        groups, name = status.rate("Innodb_os_log_fsyncs"), "Innodb_os_log_fsyncs"
    if not groups:
        return None
    return Evidence(
        "commits per fsync",
        f"{rate.per_second / groups:.1f}",
        f"{rate.counters} / SHOW GLOBAL STATUS {name}, {status.describe_window()}",
    )


@rule(
    "group_commit.delay_would_help",
    Severity.NOTICE,
    [_MYSQL_DELAY, _MARIADB_GROUP_COMMIT, _MARIADB_WAIT],
    versions=_VERSIONS,
    needs=("fsync_cost",),
)
def delay_would_help(ctx: AuditContext) -> Iterator[Proposal]:
    """What it checks: sync_binlog=1 with binary logging on, many commits per second from many
    concurrent threads, slow fsyncs (hdd or network storage, a measured fsync latency of 1 ms or more,
    or fsyncs queueing in SHOW GLOBAL STATUS), commits not yet sharing fsyncs, and no delay configured.

    Why it matters: every binlog group costs an fsync; when commits arrive one at a time each pays for
    its own, which caps throughput at roughly 1 / fsync latency groups per second.

    What we recommend: a wait of 1000 µs before the sync (binlog_group_commit_sync_delay on MySQL,
    binlog_commit_wait_usec on MariaDB) that ends early once half the running threads have queued
    (binlog_group_commit_sync_no_delay_count / binlog_commit_wait_count).

    Caveats: every commit may take up to the delay longer, so single-threaded batch jobs get slower.
    Rates come from two status snapshots, or from one as an average since startup (the evidence says
    which); Threads_running is a single snapshot. Quiet without status, and without evidence of slow
    fsyncs (hardware facts or pending fsyncs). On weak evidence (advisor.derived.evidence) no delay is
    proposed: the notice says the window is too short.
    """
    if ctx.profile == Profile.CI or not binlog_enabled(ctx) or ctx.config.number("sync_binlog") != 1:
        return
    mysql_style = ctx.knows("binlog_group_commit_sync_delay")
    if not mysql_style and not ctx.knows("binlog_commit_wait_count"):
        return
    delay_name = "binlog_group_commit_sync_delay" if mysql_style else "binlog_commit_wait_count"
    if ctx.config.number(delay_name):
        return  # a delay is already configured; delay_too_long judges its size
    limits = ctx.thresholds.group_commit
    rate = commit_rate(ctx)
    running = ctx.status.value("Threads_running") if ctx.status is not None else None
    if rate is None or running is None:
        return
    if rate.per_second < limits.min_commits_per_second or running < limits.min_threads_running:
        return
    slow = _slow_fsync(ctx)
    grouping = _commits_per_fsync(ctx, rate)
    if slow is None or (grouping is not None and float(grouping.value) >= limits.grouped_commits_per_fsync):
        return
    delay = limits.delay_microseconds
    group = max(2, round(running * limits.group_share_of_running))
    evidence = (
        Evidence("sync_binlog", "1", "effective configuration"),
        Evidence("commits per second", f"{rate.per_second:.0f}", rate.source),
        Evidence("Threads_running", str(running), "SHOW GLOBAL STATUS Threads_running (latest snapshot)"),
        slow,
        *((grouping,) if grouping is not None else ()),
    )
    wait_name, count_name = (
        ("binlog_group_commit_sync_delay", "binlog_group_commit_sync_no_delay_count")
        if mysql_style
        else ("binlog_commit_wait_usec", "binlog_commit_wait_count")
    )
    rationale = (
        f"About {rate.per_second:.0f} commits/s from {running} running threads each wait for a slow "
        f"binlog fsync. Waiting up to {delay} µs ({delay / 1000:g} ms) before the sync, or until "
        f"{group} commits have queued, lets them share one fsync. Cost: each commit may take up to "
        f"{delay} µs longer."
    )
    weak = too_short_to_change(ctx, f"{wait_name} and {count_name}")
    if weak is not None:  # a delay every commit pays is not added on one burst of commits
        yield Proposal("Commits may be waiting for slow binlog fsyncs", f"{rationale} {weak}", evidence)
        return
    yield Proposal("Let concurrent commits share binlog fsyncs", rationale, evidence, wait_name, str(delay))
    yield Proposal(
        "Stop waiting once enough commits have queued", rationale, evidence, count_name, str(group)
    )


@rule(
    "group_commit.delay_too_long",
    Severity.NOTICE,
    [_MYSQL_DELAY, _MARIADB_WAIT],
    versions=_VERSIONS,
)
def delay_too_long(ctx: AuditContext) -> Iterator[Proposal]:
    """What it checks: a configured group-commit wait longer than 10 ms per commit
    (binlog_group_commit_sync_delay on MySQL; binlog_commit_wait_usec while binlog_commit_wait_count
    is above 0 on MariaDB, whose default wait is 100 ms).

    Why it matters: every commit that does not find enough company waits the full time: a 100 ms wait
    caps a single session at about 10 commits per second.

    What we recommend: 1000 µs, enough for commits arriving together to share an fsync.

    Caveats: a longer wait can be deliberate (feeding a parallel replica bigger groups); judge it
    against the commit latency the application tolerates.
    """
    limits = ctx.thresholds.group_commit
    if ctx.knows("binlog_group_commit_sync_delay"):
        name, gate = "binlog_group_commit_sync_delay", None
    elif ctx.knows("binlog_commit_wait_usec"):
        name, gate = "binlog_commit_wait_usec", "binlog_commit_wait_count"
    else:
        return
    wait = ctx.config.number(name)
    setting = ctx.config.get(name)
    if setting is None or wait is None or wait <= limits.max_delay_microseconds:
        return
    evidence = [setting_evidence(setting)]
    if gate is not None:
        gate_setting = ctx.config.get(gate)
        if gate_setting is None or not ctx.config.number(gate):
            return  # MariaDB only waits when a commit count is set
        evidence.append(setting_evidence(gate_setting))
    yield Proposal(
        title="Each commit may wait a long time for a binlog group",
        rationale=f"A commit can wait up to {wait} µs ({wait / 1000:g} ms) for company before the binlog "
        f"sync; a session committing alone pays that every time. {limits.delay_microseconds} µs is "
        "enough for commits that arrive together to share one fsync.",
        evidence=tuple(evidence),
        variable=name,
        recommended=str(limits.delay_microseconds),
    )


RULES: tuple[Rule, ...] = (delay_would_help, delay_too_long)
