"""Connection limits: near max_connections, a max_connections far above use, per-account caps."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from advisor.advisors.connections.common import round_up
from advisor.derived.connection_plan import connection_plan
from advisor.derived.evidence import high_water_grade, high_water_seconds, high_water_source
from advisor.findings import Evidence, Severity
from advisor.references import MYSQL_SERVER_VARIABLES
from advisor.rules import Proposal, rule

if TYPE_CHECKING:
    from advisor.context import AuditContext
    from advisor.inputs.statusvars import StatusView


MAX_CONNECTIONS = f"{MYSQL_SERVER_VARIABLES}#sysvar_max_connections"
TOO_MANY = "https://dev.mysql.com/doc/refman/8.0/en/too-many-connections.html"
CONNECTION_ERRORS = (
    "https://dev.mysql.com/doc/refman/8.0/en/server-status-variables.html#statvar_Connection_errors_xxx"
)
USER_RESOURCES = "https://dev.mysql.com/doc/refman/8.0/en/user-resources.html"
MAX_USER_CONNECTIONS = f"{MYSQL_SERVER_VARIABLES}#sysvar_max_user_connections"


def _window(ctx: AuditContext) -> str:
    """`highest since startup (uptime 10.0 d)`, `highest since FLUSH STATUS 2.0 d ago`."""
    grade = high_water_grade(ctx)
    return grade.window if grade is not None else "window unknown"


def _peak(ctx: AuditContext, status: StatusView) -> Evidence | None:
    peak = status.value("Max_used_connections")
    if peak is None:
        return None
    return Evidence("peak connections", str(peak), high_water_source(ctx, "Max_used_connections"))


@rule(
    "connections.near_limit",
    Severity.WARNING,
    [
        MAX_CONNECTIONS,
        TOO_MANY,
        CONNECTION_ERRORS,
        "https://mariadb.com/kb/en/server-system-variables/#max_connections",
    ],
    needs=("status",),
)
def near_limit(ctx: AuditContext) -> Iterator[Proposal]:
    """What it checks: whether the connection peak (Max_used_connections) came close to max_connections,
    and whether connections were refused for reaching it (Connection_errors_max_connections).

    Why it matters: once max_connections is reached every new client gets "Too many connections"; for an
    application that means errors at its busiest moment.

    What we recommend: max_connections at the peak times the headroom factor (1.5 by default), rounded
    up to ten; a warning when connections were refused, a notice when the peak is merely close.

    Caveats: Max_used_connections is the peak since startup or since FLUSH STATUS, which resets it; over
    a weak window (advisor.derived.evidence: under an hour) and with no refused connection, the notice
    changes nothing and says the window is too short. A peak above the present limit means the limit was
    lowered live since: with nobody refused at the new limit it is kept as set (raising it back would undo
    a DBA's decision on no evidence of need), and the finding says so. A connection storm (a pool misconfigured, a retry loop) also
    reaches the limit: more connections then only move the failure to memory, so look at who connects
    first.
    The limit is raised only as far as every allowed connection fits the memory budget (advisor.derived.
    budget: global buffers plus each connection's buffers within the limit) with the buffer pool the
    server has now: a server turning clients away is better than one the OOM killer stops; beyond that
    the finding says what memory must be freed first. The raise is decided before the pool's growth
    (advisor.derived.connection_plan): clients refused are errors, a pool short of memory is slowness,
    so buffer_pool.undersized grows the pool only into what every connection of the raised limit leaves.
    """
    plan, status = connection_plan(ctx), ctx.status
    if plan is None or status is None:
        return
    limit, peak, refused = plan.limit, plan.peak, plan.refused
    setting = ctx.config.get("max_connections")
    evidence = [Evidence("max_connections", str(limit), setting.where() if setting else "effective config")]
    peak_evidence = _peak(ctx, status)
    if peak_evidence is not None:
        evidence.append(peak_evidence)
    if refused:
        source = f"SHOW GLOBAL STATUS Connection_errors_max_connections, {status.describe_window()}"
        evidence.append(Evidence("connections refused at the limit", str(refused), source))
    if plan.memory_arithmetic is not None:
        evidence.append(Evidence("memory at the raised limit", plan.memory_arithmetic, "memory budget"))
    headroom = ctx.thresholds.connections.max_connections_headroom
    how = f"the peak times {headroom:g}" if plan.planned >= plan.wanted else (
        f"not the {plan.wanted} the peak times {headroom:g} gives: more connections would not fit the memory "
        "budget with the present buffer pool, which grows only into what they leave"
    )  # fmt: skip
    what = f"{refused} connection(s) were refused with \"Too many connections\"" if refused else _peak_words(
        peak or 0, limit
    )  # fmt: skip
    yield Proposal(
        title=f"max_connections ({limit}) is reached or nearly reached",
        rationale=f"{what}. At the limit every new client is turned away. Raise max_connections to "
        f"{plan.planned} ({how}), and check that the connection count is real demand rather than a pool or "
        "retry storm."
        if plan.held is None
        else f"{what}. {plan.held}",
        evidence=tuple(evidence),
        variable=None if plan.held else "max_connections",
        recommended=None if plan.held else str(plan.planned),
        severity=None if refused else Severity.NOTICE,
    )


def _peak_words(peak: int, limit: int) -> str:
    """The peak against the present limit, in words. Max_used_connections may pass max_connections by
    one (the connection kept for an administrator); further only when the limit was lowered live after
    the peak (the high-water mark keeps it until a restart or FLUSH STATUS)."""
    if peak > limit + 1:
        return (
            f"the peak of {peak} connections exceeded the present limit of {limit}: max_connections was "
            "lowered since the peak"
        )
    if peak >= limit:
        return f"the peak of {peak} connections reached the limit of {limit}"
    return f"the peak of {peak} connections is within {100 - 100 * peak // limit}% of the limit"


@rule(
    "connections.max_connections_oversized",
    Severity.NOTICE,
    [MAX_CONNECTIONS, USER_RESOURCES, "https://mariadb.com/kb/en/server-system-variables/#max_connections"],
    needs=("status",),
)
def max_connections_oversized(ctx: AuditContext) -> Iterator[Proposal]:
    """What it checks: max_connections far above anything used: the peak below 5% of it, with
    max_connections at least 500 and the peak covering at least a day — since startup, or since FLUSH
    STATUS when that ran later (it resets Max_used_connections).

    Why it matters: every connection may allocate its own sort, join and read buffers and temporary
    tables; a limit far above real use lets a connection storm in until memory runs out (the OOM killer)
    instead of refusing the excess early, and some structures are sized from max_connections.

    What we recommend: max_connections at the peak times the headroom factor, never below the server's
    default.

    Caveats: the peak is since startup or FLUSH STATUS: a monthly batch or a failover that moves all clients here may
    need more than the uptime has seen.
    """
    status, limit = ctx.status, ctx.config.number("max_connections")
    limits = ctx.thresholds.connections
    if status is None or not limit or limit < limits.oversized_min_max_connections:
        return
    peak, seen = status.value("Max_used_connections"), high_water_seconds(status)
    if peak is None or seen is None or seen < limits.min_uptime_seconds:
        return
    if peak >= limits.min_used_fraction * limit or status.delta("Connection_errors_max_connections"):
        return
    default = ctx.catalog.default("max_connections", ctx.version)
    target = max(round_up(peak * limits.max_connections_headroom, 10), int(default) if default else 0)
    if target >= limit:
        return
    setting = ctx.config.get("max_connections")
    yield Proposal(
        title=f"max_connections ({limit}) is far above the peak of {peak}",
        rationale=f"In {seen // 3600} hours ({_window(ctx)}) at most {peak} clients were connected at once, "
        f"{100 * peak / limit:.1f}% of max_connections. The unused allowance lets a connection storm "
        f"exhaust memory instead of being refused early. {target} keeps room above the peak.",
        evidence=(
            Evidence("max_connections", str(limit), setting.where() if setting else "effective config"),
            Evidence("peak connections", str(peak), high_water_source(ctx, "Max_used_connections")),
            Evidence(
                "window of the peak", f"{seen} s", "SHOW GLOBAL STATUS Uptime, Uptime_since_flush_status"
            ),
        ),
        variable="max_connections",
        recommended=str(target),
    )


@rule(
    "connections.max_user_connections",
    Severity.INFO,
    [
        MAX_USER_CONNECTIONS,
        USER_RESOURCES,
        "https://mariadb.com/kb/en/server-system-variables/#max_user_connections",
    ],
)
def max_user_connections(ctx: AuditContext) -> Iterator[Proposal]:
    """What it checks: a global max_user_connections that cannot bite (at or above max_connections), and
    a server near its connection limit with no per-account cap at all.

    Why it matters: max_user_connections exists so that one account cannot take every connection; at or
    above max_connections it caps nothing. Near the limit, one misbehaving application can lock out all
    the others, including the one you need to investigate.

    What we recommend: per-account caps (CREATE/ALTER USER ... WITH MAX_USER_CONNECTIONS n) for the
    application accounts, or a global value below max_connections.

    Caveats: information only; per-account limits are not visible in the inputs.
    """
    per_user, limit = ctx.config.number("max_user_connections"), ctx.config.number("max_connections")
    if per_user is None or not limit or per_user < 0:
        return
    setting = ctx.config.get("max_user_connections")
    evidence = [
        Evidence("max_user_connections", str(per_user), setting.where() if setting else "effective config"),
        Evidence("max_connections", str(limit), "effective config"),
    ]
    if per_user >= limit:
        yield Proposal(
            title=f"max_user_connections ({per_user}) caps nothing",
            rationale=f"It is at or above max_connections ({limit}), so a single account can still take every "
            "connection. Set it below max_connections, or use per-account limits.",
            evidence=tuple(evidence),
            variable="max_user_connections",
        )
        return
    peak = ctx.status.value("Max_used_connections") if ctx.status is not None else None
    if per_user == 0 and peak is not None and peak >= ctx.thresholds.connections.near_limit_fraction * limit:
        evidence.append(
            Evidence("peak connections", str(peak), high_water_source(ctx, "Max_used_connections"))
        )
        yield Proposal(
            title="No per-account connection cap while connections run near the limit",
            rationale=f"The peak of {peak} connections is close to max_connections ({limit}) and any one "
            "account may use all of them. Per-account MAX_USER_CONNECTIONS for the application users keeps "
            "room for the others (and for you).",
            evidence=tuple(evidence),
        )
