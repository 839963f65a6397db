"""The one redo size every redo rule recommends: the largest need, within sanity bounds.

Needs: the minimum size (larger on hosts with more memory, as innodb_dedicated_server sizes it); about an hour of writes at the observed rate; room for the observed checkpoint
age to fill at most half the log; ten times the largest row where the BLOB limit applies.

Bounds, so that a size never comes from noise or buys nothing:

- evidence: a write rate on weak evidence (`advisor.derived.evidence`) moves the log by at most
  `weak_max_change_factor`;
- what can be dirty: only pages dirty in the pool need redo, and InnoDB keeps at most
  innodb_max_dirty_pages_pct of the pool dirty — of the pool that will run (the recommended one when
  the buffer_pool advice changes it: `advisor.derived.pool_plan.final_pool_plan`, the same size the
  buffer_pool finding recommends even where the option file departs from the running server) — and never more than the InnoDB
  data and indexes (with headroom) there is to dirty, when schema facts give them;
- rewrites: a hot page rewritten while it stays dirty adds redo at every change, so the redo written
  between a page's first change and its flush is more than the page's bytes. The log may therefore be
  `redo_per_dirty_byte` (2) times what can be dirty — the MySQL manual: "It often makes sense to set
  the total size of the log files as large as the buffer pool or even larger"; MariaDB: "For the
  maximum capacity in the Redo Log, the Redo Log size should be the same as the
  innodb_buffer_pool_size" — but not many times it: 11.5 GiB beside a 512 MiB pool bought nothing over
  1 GiB on a real MariaDB 10.11 and took 4× as long to recover. The log size also decides when
  flushing starts: innodb_adaptive_flushing_lwm is the "Percentage of log capacity below which no
  adaptive flushing happens" (MariaDB, default 10), and MariaDB leaves innodb_max_dirty_pages_pct_lwm
  at 0, so a log held to the dirty bytes makes the page cleaner write hot pages again and again
  (MDEV-26055, https://github.com/MariaDB/server/commit/9593cccf28).

The minimum and the BLOB need are never bounded (the BLOB limit is the server refusing a write).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from msgspec import Struct

from advisor.derived.cache import once_per_audit
from advisor.derived.evidence import cap_change, window_grade
from advisor.derived.io_sizing import percentage
from advisor.derived.pool_plan import final_pool_plan
from advisor.derived.redo_sizing import (
    BLOB_SHARE_OF_REDO,
    blob_limited,
    checkpoint_age,
    largest_row,
    redo_log,
    running_capacity,
    write_rate,
)
from advisor.findings import Evidence
from advisor.units import describe_bytes, format_size

if TYPE_CHECKING:
    from advisor.context import AuditContext
    from advisor.derived.redo_sizing import RedoLog

_DEFAULT_MAX_DIRTY_PCT = 90.0


class RedoBound(Struct, frozen=True):
    """The most redo that can buy anything: what the pool may hold dirty, or the data there is."""

    size_bytes: int
    sentence: str
    evidence: tuple[Evidence, ...]


class RedoTarget(Struct, frozen=True):
    """The recommended total, the need that set it, and what bounded it (sentences for a rationale)."""

    total_bytes: int
    reason: str
    notes: str
    weak_rate: bool


@once_per_audit
def redo_bound(ctx: AuditContext) -> RedoBound | None:
    """`redo_per_dirty_byte` times what can be dirty: innodb_max_dirty_pages_pct of the pool that will
    run, or the InnoDB data there is when it is smaller (see the module docstring)."""
    plan = final_pool_plan(ctx)
    if plan is None:
        return None
    limits = ctx.thresholds.redo_log
    pct = min(percentage(ctx.config.text("innodb_max_dirty_pages_pct")) or _DEFAULT_MAX_DIRTY_PCT, 100.0)
    dirtiable = int(plan.planned_bytes * pct / 100)
    source = "buffer_pool advice" if plan.change else "innodb_buffer_pool_size in effect"
    # the value as the buffer_pool finding writes it, so the two can be matched by eye
    shown = f"{format_size(plan.planned_bytes)} ({describe_bytes(plan.planned_bytes)})"
    evidence = [Evidence(plan.label, shown if plan.change else describe_bytes(plan.planned_bytes), source)]
    what = (
        f"the {pct:g}% of the {describe_bytes(plan.planned_bytes)} {plan.label} that "
        "innodb_max_dirty_pages_pct lets be dirty"
    )
    data = ctx.schema.innodb_data_and_index_bytes if ctx.schema is not None else 0
    data_dirtiable = int(data * limits.dirty_data_headroom)
    if data and data_dirtiable < dirtiable:
        dirtiable, what = (
            data_dirtiable,
            f"the {describe_bytes(data)} of InnoDB data and indexes there is to dirty",
        )
    factor = limits.redo_per_dirty_byte
    sentence = f"{factor:g}× {what}, as hot pages are rewritten while they stay dirty"
    return RedoBound(int(dirtiable * factor), sentence, tuple(evidence))


def _rate_need(ctx: AuditContext, redo: RedoLog) -> tuple[int, str, str] | None:
    """An hour of writes; on weak evidence, at most `weak_max_change_factor` times the current log."""
    rate = write_rate(ctx)
    if rate is None:
        return None
    hour = int(rate[0] * 3600 * ctx.thresholds.redo_log.target_hours_of_writes)
    grade = window_grade(ctx)
    capped = cap_change(redo.capacity_bytes, hour, grade, ctx.thresholds.evidence)
    if capped >= hour or grade is None:
        return hour, "about an hour of writes", ""
    note = (
        f"An hour of writes at this rate would be {describe_bytes(hour)}, but the rate is weak evidence "
        f"({grade.reason}), so it moves the log by at most {ctx.thresholds.evidence.weak_max_change_factor:g}×. "
    )
    return capped, "the write rate, capped on weak evidence", note


def redo_floor(ctx: AuditContext) -> int:
    """The smallest log worth recommending: 512 MiB, more on hosts with more memory (the sizes MySQL's
    innodb_dedicated_server picks) as long as the bound allows it (rounded up to the size step): a burst
    of writes on a large server fills a small log in moments."""
    limits = ctx.thresholds.redo_log
    memory = ctx.usable_memory
    scaled = next(
        (floor for at_least, floor in limits.min_capacity_by_memory if memory and memory >= at_least), 0
    )
    bound = redo_bound(ctx)
    if bound is not None:  # no more than the bound: a larger log would mostly lengthen recovery
        step = limits.size_step_bytes
        scaled = min(scaled, -(-bound.size_bytes // step) * step)
    return max(scaled, limits.min_capacity_bytes)


def _bounded(ctx: AuditContext, needs: list[tuple[int, str]]) -> tuple[list[tuple[int, str]], str]:
    bound, floor = redo_bound(ctx), redo_floor(ctx)
    if bound is None:
        return needs, ""
    limit = max(bound.size_bytes, floor)
    if all(need <= limit for need, _ in needs):
        return needs, ""
    note = (
        "Only pages dirty in the pool need redo, so the log is kept to "
        f"{bound.sentence} ({describe_bytes(limit)}); a larger log would mostly lengthen crash recovery. "
    )
    return [(min(need, limit), f"{reason}, bounded by the buffer pool") for need, reason in needs], note


@once_per_audit  # three redo rules ask for it, in the first run and again after a restart's values
def redo_target(ctx: AuditContext) -> RedoTarget | None:
    """One recommendation for every redo rule: the largest need, bounded (see the module docstring);
    None when innodb_dedicated_server sizes the log (no RedoLog)."""
    redo = redo_log(ctx)
    if redo is None:
        return None
    limits = ctx.thresholds.redo_log
    bounded: list[tuple[int, str]] = []
    notes = ""
    rate_need = _rate_need(ctx, redo)
    if rate_need is not None:
        bounded.append(rate_need[:2])
        notes += rate_need[2]
    age, running = checkpoint_age(ctx), running_capacity(ctx)
    if age is not None and running and age[0] > running * limits.max_checkpoint_age_fraction:
        share = limits.target_checkpoint_age_fraction
        bounded.append(
            (int(age[0] / share), f"the observed checkpoint age to fill at most {share:.0%} of it")
        )
    bounded, bound_note = _bounded(ctx, bounded)
    floor = redo_floor(ctx)
    needs = [(floor, f"the {describe_bytes(floor)} minimum for a server of this size"), *bounded]
    row = largest_row(ctx)
    if row is not None and blob_limited(ctx):
        needs.append((int(row[0] / BLOB_SHARE_OF_REDO * limits.blob_headroom), "ten times the largest row"))
    ceiling = limits.max_capacity_bytes
    facts = ctx.catalog.lookup(redo.variable, ctx.version)
    if facts is not None and isinstance(facts.max, int) and ctx.version.is_mysql_family:
        ceiling = min(ceiling, facts.max)  # MySQL's maximum covers all log files together
    need, reason = max(needs)
    if rate_need is not None and rate_need[2] and reason == needs[0][1]:
        # The floor, not the capped rate, sizes the log: "at most 2×" would contradict the size given.
        factor = ctx.thresholds.evidence.weak_max_change_factor
        notes = notes.replace(
            f"so it moves the log by at most {factor:g}×. ",
            f"so it does not size the log here: the {describe_bytes(floor)} minimum for a server of this size does. ",
        )
    step = limits.size_step_bytes
    total = -(-min(need, ceiling) // step) * step
    if total > ceiling:
        total, reason = ceiling // step * step, "the largest size allowed"
    return RedoTarget(total, reason, notes + bound_note, bool(rate_need and rate_need[2]))
