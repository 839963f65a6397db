"""Is purge falling behind? The evidence, from two status snapshots and from one InnoDB status.

Two signals, neither a fixed mark:

- the history list's growth between two SHOW GLOBAL STATUS snapshots (Innodb_history_list_length,
  MariaDB and Percona Server): a trend when it grew by at least half of where it started (a busy
  server's list swings by a few percent as purge runs in batches) and more than one purge batch, and
  harmful when, at this rate, it reaches the warning mark within the horizon (an hour);
- the purge lag from one SHOW ENGINE INNODB STATUS: `Trx id counter` minus `Purge done for trx's
  n:o <` — transaction ids and commit numbers share one counter, so this is how many ids were handed
  out since the oldest transaction purge has not processed. With the id rate (Innodb_max_trx_id
  between two snapshots, MariaDB) it becomes seconds: purge further behind than the whole window made
  no headway during it. When the purge point has reached the oldest read view's low limit ("will not
  see trx with id >= X"), or purge sits "running but idle" with history left, that view is what holds
  purge back; the history piled up since that transaction opened gives a growth rate from one dump.

A lag only counts while the history list is non-zero: with nothing to purge the purge point stays
where it was (right after startup it reads 0) and the difference means nothing.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from msgspec import Struct

from advisor.derived.cache import once_per_audit

if TYPE_CHECKING:
    from advisor.context import AuditContext
    from advisor.inputs.innodb_transactions import InnodbTransaction

HISTORY = "Innodb_history_list_length"
MAX_TRX_ID = "Innodb_max_trx_id"
# A lag beyond this is a misprint (the 5.1 plugin prints the purge number's low 32 bits only).
_SANE_LAG = 1 << 32


class HistoryGrowth(Struct, frozen=True):
    """The history list at both snapshots and its growth per second over the window between them."""

    before: int
    after: int
    window_seconds: float

    @property
    def per_second(self) -> float:
        return (self.after - self.before) / self.window_seconds

    @property
    def grown(self) -> int:
        return self.after - self.before


class PurgeLag(Struct, frozen=True):
    """How far purge is behind, from one InnoDB status (and the id rate when two snapshots give it)."""

    trx_ids: int
    seconds: float | None
    #: The transaction whose read view purge has reached: what holds purge back.
    blocking: InnodbTransaction | None
    state: str | None


def history_growth(ctx: AuditContext) -> HistoryGrowth | None:
    """Growth of Innodb_history_list_length between two snapshots (MariaDB, Percona print it)."""
    status = ctx.status
    if status is None or status.since_startup or status.earlier is None or not status.window_seconds:
        return None
    before, after = status.earlier.number(HISTORY), status.latest.number(HISTORY)
    if before is None or after is None:
        return None
    return HistoryGrowth(before, after, status.window_seconds)


def _id_rate(ctx: AuditContext) -> float | None:
    """Transaction ids handed out per second between two snapshots (Innodb_max_trx_id, MariaDB)."""
    status = ctx.status
    if status is None or status.since_startup or status.earlier is None or not status.window_seconds:
        return None
    before, after = status.earlier.number(MAX_TRX_ID), status.latest.number(MAX_TRX_ID)
    if before is None or after is None or after <= before:
        return None
    return (after - before) / status.window_seconds


def _blocking_view(ctx: AuditContext, purge_done: int) -> InnodbTransaction | None:
    """The oldest read view, when purge has caught up with its low limit or sits idle with history
    left (MySQL 8.0 purges up to the view's commit-number limit, a little below the id it prints)."""
    innodb = ctx.innodb
    assert innodb is not None
    views = [t for t in innodb.transactions if t.read_view_low_limit is not None]
    if not views:
        return None
    oldest = min(views, key=lambda t: t.read_view_low_limit or 0)
    idle = innodb.purge_state is not None and "idle" in innodb.purge_state
    return oldest if idle or purge_done >= (oldest.read_view_low_limit or 0) else None


@once_per_audit
def purge_lag(ctx: AuditContext) -> PurgeLag | None:
    """The purge lag of the InnoDB status; None without one, or with an empty history list."""
    innodb = ctx.innodb
    if innodb is None or innodb.trx_id_counter is None or innodb.purge_done_trx is None:
        return None
    lag = innodb.trx_id_counter - innodb.purge_done_trx
    if not innodb.history_list_length or not 0 <= lag < _SANE_LAG:
        return None
    rate = _id_rate(ctx)
    seconds = lag / rate if rate else None
    return PurgeLag(lag, seconds, _blocking_view(ctx, innodb.purge_done_trx), innodb.purge_state)


def describe_lag(lag: PurgeLag) -> str:
    """`1,234 transaction ids (about 95 s)`."""
    seconds = f" (about {lag.seconds:,.0f} s of transactions)" if lag.seconds is not None else ""
    return f"{lag.trx_ids:,} transaction ids{seconds}"


class PurgeBehind(Struct, frozen=True):
    """Evidence that purge is falling behind: the list, how fast it grows and how that was measured."""

    history: int
    per_second: float
    #: Two snapshots' growth; None when the rate comes from one InnoDB status (see `from_one_dump`).
    growth: HistoryGrowth | None
    lag: PurgeLag | None
    #: Purge is further behind than the whole window: it made no headway during it.
    stalled: bool

    @property
    def from_one_dump(self) -> bool:
        return self.growth is None


def _batch(ctx: AuditContext) -> int:
    """Undo pages purge takes in one batch: a swing smaller than this is purge's own rhythm."""
    return ctx.config.number("innodb_purge_batch_size") or 300


def _soon(ctx: AuditContext, history: int, per_second: float) -> bool:
    """At this rate the list reaches the warning mark within the horizon (or is past it)."""
    limits = ctx.thresholds.undo_history
    return history + per_second * limits.history_growth_horizon_seconds >= limits.history_list_warning


def _from_snapshots(ctx: AuditContext, growth: HistoryGrowth, lag: PurgeLag | None) -> PurgeBehind | None:
    if growth.grown <= 0:
        return None  # flat or shrinking: purge keeps up or catches up
    stalled = lag is not None and lag.seconds is not None and lag.seconds >= growth.window_seconds
    share = ctx.thresholds.undo_history.history_trend_share
    trend = growth.grown >= growth.before * share and growth.grown > _batch(ctx)
    past_mark = growth.after >= ctx.thresholds.undo_history.history_list_warning
    if not (stalled or past_mark or (trend and _soon(ctx, growth.after, growth.per_second))):
        return None
    return PurgeBehind(growth.after, growth.per_second, growth, lag, stalled)


def _from_one_dump(ctx: AuditContext, lag: PurgeLag) -> PurgeBehind | None:
    """Purge stopped at a read view open for a minute or more: the history since it opened is the rate."""
    holder, history = lag.blocking, ctx.innodb.history_list_length if ctx.innodb is not None else None
    if holder is None or not history or not holder.active_seconds:
        return None
    if holder.active_seconds < ctx.thresholds.undo_history.read_view_holder_seconds:
        return None
    per_second = history / holder.active_seconds
    return PurgeBehind(history, per_second, None, lag, False) if _soon(ctx, history, per_second) else None


@once_per_audit
def purge_behind(ctx: AuditContext) -> PurgeBehind | None:
    """Purge falling behind by the evidence (module docstring); None when nothing shows it."""
    growth, lag = history_growth(ctx), purge_lag(ctx)
    if growth is not None:
        return _from_snapshots(ctx, growth, lag)
    return _from_one_dump(ctx, lag) if lag is not None else None
