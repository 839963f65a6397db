"""Purge itself: its threads and the purge lag limit."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from advisor.advisors.undo_history.common import (
    MARIADB_PURGE,
    PURGE,
    STATUS_SOURCE,
    history_evidence,
    long_transactions,
)
from advisor.advisors.undo_history.growth import purge_holders
from advisor.advisors.undo_history.lag import HISTORY, describe_lag, history_growth, purge_behind, purge_lag
from advisor.derived.evidence import graded_window
from advisor.findings import Evidence, Severity
from advisor.references import MARIADB_INNODB_VARIABLES, MYSQL_INNODB_PARAMETERS
from advisor.rules import Proposal, Versions, rule

if TYPE_CHECKING:
    from advisor.context import AuditContext


MAX_PURGE_LAG = f"{MYSQL_INNODB_PARAMETERS}#sysvar_innodb_max_purge_lag"
PURGE_THREADS = f"{MYSQL_INNODB_PARAMETERS}#sysvar_innodb_purge_threads"
MARIADB_PURGE_THREADS = f"{MARIADB_INNODB_VARIABLES}#innodb_purge_threads"


@rule(
    "undo_history.purge_threads",
    Severity.NOTICE,
    [PURGE, PURGE_THREADS, MARIADB_PURGE_THREADS],
    versions=Versions(mysql=((5, 6, 5), (99,)), mariadb=((10, 0), (99,))),
)
def purge_threads(ctx: AuditContext) -> Iterator[Proposal]:
    """What it checks: purge falling behind by the evidence (the history list growing between two
    status snapshots as a trend, or past the 100,000 mark and still growing, or a purge lag longer than
    the window — see undo_history.history_growing), or one InnoDB status whose history list is past
    the mark while purge is running with no read view at its limit, with nothing holding purge back
    (no read view held a minute or more, no transaction open 10 minutes or more), while
    innodb_purge_threads is below 4.

    Why it matters: with nothing holding purge back, a growing backlog means purge cannot keep up with
    the rate of changes; more purge threads work through more undo logs in parallel. A list that is
    large but shrinking is purge catching up, and a list held by a read view waits for that
    transaction whatever the thread count: neither is a reason.

    What we recommend: innodb_purge_threads = 4 (fewer on a machine with fewer CPUs).

    Caveats: extra purge threads compete with user threads when changes concentrate on a few tables; the
    setting needs a restart where it is not dynamic (MySQL; MariaDB before 10.5.13/10.6.5). One status
    snapshot alone (no InnoDB status) says nothing about the trend, so it recommends nothing.
    """
    evidence = _purge_too_slow(ctx)
    if evidence is None or long_transactions(ctx) or purge_holders(ctx):
        return
    if not ctx.knows("innodb_purge_threads"):
        return
    current = ctx.config.number("innodb_purge_threads")
    target = ctx.thresholds.undo_history.purge_threads_target
    if ctx.hardware is not None and ctx.hardware.cpus:
        target = min(target, ctx.hardware.cpus)
    facts = ctx.catalog.lookup("innodb_purge_threads", ctx.version)
    if facts is not None and facts.max is not None:
        target = min(target, int(facts.max))
    if current is None or current >= target:
        return
    setting = ctx.config.get("innodb_purge_threads")
    yield Proposal(
        title=f"Purge runs {current} thread(s) and is falling behind",
        rationale=f"{evidence[0]} and no transaction holds purge back, so purge itself is too slow for the "
        f"change rate. {target} purge threads share the work.",
        evidence=(
            *evidence[1],
            Evidence(
                "innodb_purge_threads",
                str(current),
                setting.where() if setting else "default for this version",
            ),
        ),
        variable="innodb_purge_threads",
        recommended=str(target),
    )


def _purge_too_slow(ctx: AuditContext) -> tuple[str, tuple[Evidence, ...]] | None:
    """The evidence that purge itself falls behind, in words and as Evidence; None without any."""
    behind = purge_behind(ctx)
    if behind is not None and behind.growth is not None:
        growth = behind.growth
        return (
            f"The history list grew from {growth.before:,} to {growth.after:,} in {growth.window_seconds:,.0f} s",
            (
                Evidence(
                    "history list length",
                    f"{growth.before:,} → {growth.after:,}",
                    f"SHOW GLOBAL STATUS {HISTORY}",
                ),
                Evidence("growth", f"{growth.per_second:,.1f} entries/s", graded_window(ctx)),
            ),
        )
    lag, history = purge_lag(ctx), history_evidence(ctx)
    if history_growth(ctx) is not None or lag is None or history is None:
        return None  # two snapshots that show no trend, or one moment without the InnoDB status
    if int(history.value) < ctx.thresholds.undo_history.history_list_warning or lag.blocking is not None:
        return None
    if lag.state is not None and "idle" in lag.state:
        return None  # purge has nothing it may process
    return (
        f"The history list is at {int(history.value):,} with purge {describe_lag(lag)} behind and running",
        (history, Evidence("purge lag", describe_lag(lag), f"{STATUS_SOURCE}: Trx id counter − Purge done")),
    )


@rule("undo_history.max_purge_lag", Severity.NOTICE, [MAX_PURGE_LAG, PURGE, MARIADB_PURGE])
def max_purge_lag(ctx: AuditContext) -> Iterator[Proposal]:
    """What it checks: innodb_max_purge_lag against the history list: a limit below the current length
    delays every INSERT, UPDATE and DELETE now; no limit (0) with a history above the critical mark
    leaves the backlog unbounded.

    Why it matters: the lag limit trades write latency for bounded history: above it each row change
    sleeps (up to innodb_max_purge_lag_delay), which can look like a sudden slowdown of all writes.

    What we recommend: with a limit in force, remove the cause of the backlog rather than the limit; with
    none and a runaway history, consider innodb_max_purge_lag around 1,000,000 with
    innodb_max_purge_lag_delay capping the sleep — as a safety net, not a fix. Not written to the file.

    Caveats: information only for the unbounded case: throttling all writes is a policy decision.
    """
    evidence = history_evidence(ctx)
    lag = ctx.config.number("innodb_max_purge_lag")
    if evidence is None or lag is None:
        return
    length = int(evidence.value)
    setting = ctx.config.get("innodb_max_purge_lag")
    lag_evidence = Evidence(
        "innodb_max_purge_lag", str(lag), setting.where() if setting else "default for this version"
    )
    if lag and length > lag:
        yield Proposal(
            title="Row changes are being delayed to let purge catch up",
            rationale=f"The history list ({length:,}) is above innodb_max_purge_lag ({lag:,}), so InnoDB "
            "delays every INSERT, UPDATE and DELETE. Remove what holds purge back (a long transaction) rather "
            "than the limit.",
            evidence=(evidence, lag_evidence),
            variable="innodb_max_purge_lag",
        )
    elif not lag and length >= ctx.thresholds.undo_history.history_list_critical:
        cap = (
            " with innodb_max_purge_lag_delay capping each delay"
            if ctx.knows("innodb_max_purge_lag_delay")
            else ""
        )
        yield Proposal(
            title="Nothing bounds the purge backlog",
            rationale=f"The history list is at {length:,} and innodb_max_purge_lag is 0 (no limit). Once the cause "
            f"is fixed, a limit around 1,000,000{cap} keeps a future backlog from growing without bound, at "
            "the price of slower writes while it lasts.",
            evidence=(evidence, lag_evidence),
            variable="innodb_max_purge_lag",
            severity=Severity.INFO,
        )
