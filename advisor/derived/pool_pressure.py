"""Is the buffer pool short of memory? Every input weighed by the strength of its evidence.

Three inputs can say so, each graded (`advisor.derived.evidence.Grade`):

- SHOW GLOBAL STATUS: the miss rate over the status window, graded by that window (a since-startup
  rate 9 s after start, or two snapshots 20 s apart, is weak: a cold pool misses by nature);
- SHOW ENGINE INNODB STATUS: no free pages while pages are read from disk (a snapshot with averages
  over the last seconds): fair; free pages only say the pool has not filled yet: weak;
- schema facts: InnoDB data and indexes larger than the pool (a fact, not a rate): strong when the
  data is at least `strong_data_multiple_of_pool` times the pool, else fair (the working set may fit).

The strongest input decides; when a "short" and an "enough" are equally strong, the pool is short but
contested (the finding stays a notice). Weak inputs that disagree with the verdict are named in the
rationale as outweighed.

The two measured inputs were taken under the pool that ran then (advisor.derived.restart.measured_context).
Judging another size — the file's pool at the next restart, when the pool was resized live — they
carry over only where a pool's misses can only move one way: misses that were few under a pool are as
few under a larger one, a pool short of memory is as short when smaller. A 0% miss rate under a live
12 GiB pool says nothing of the file's 128 MiB: that measurement is set aside, and the finding says so.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

from msgspec import Struct

from advisor.derived.budget import effective_pool_bytes
from advisor.derived.evidence import Grade, window_grade
from advisor.derived.restart import measured_context
from advisor.findings import Evidence
from advisor.units import describe_bytes

if TYPE_CHECKING:
    from advisor.context import AuditContext

Verdict = Literal["short", "enough", "unknown"]
_RANK = {Grade.STRONG: 0, Grade.FAIR: 1, Grade.WEAK: 2}


class Signal(Struct, frozen=True):
    """What one input says about the pool, how strongly, and its evidence."""

    verdict: Literal["short", "enough"]
    grade: Grade
    evidence: tuple[Evidence, ...]
    sentence: str
    source: str


class PoolPressure(Struct, frozen=True):
    """The verdict of every input together: `grade` is the deciding input's, `contested` when an
    equally strong input disagrees."""

    verdict: Verdict
    grade: Grade | None
    contested: bool
    evidence: tuple[Evidence, ...]
    sentence: str

    @property
    def firm(self) -> bool:
        """Short on evidence strong enough to warn: not weak and not contested."""
        return self.verdict == "short" and self.grade is not Grade.WEAK and not self.contested


def _status_signal(ctx: AuditContext) -> Signal | None:
    status, grade = ctx.status, window_grade(ctx)
    if status is None or grade is None:
        return None
    requests = status.delta("Innodb_buffer_pool_read_requests")
    reads = status.delta("Innodb_buffer_pool_reads")
    reads_per_second = status.rate("Innodb_buffer_pool_reads")
    if not requests or reads is None or reads_per_second is None:
        return None
    limits = ctx.thresholds.buffer_pool
    miss_rate = reads / requests
    source = (
        f"SHOW GLOBAL STATUS Innodb_buffer_pool_reads, Innodb_buffer_pool_read_requests, {grade.describe()}"
    )
    evidence = (
        Evidence(
            "buffer pool miss rate", f"{miss_rate:.2%} ({reads:,} of {requests:,} page requests)", source
        ),
        Evidence("pages read from disk per second", f"{reads_per_second:,.1f}", source),
    )
    window = grade.span
    if miss_rate > limits.max_miss_rate and reads_per_second >= limits.min_disk_reads_per_second:
        sentence = (
            f"{miss_rate:.1%} of page requests miss the pool and go to disk "
            f"({reads_per_second:,.0f} reads per second, {window}: {grade.grade} evidence). "
        )
        return Signal("short", grade.grade, evidence, sentence, "the miss rate")
    sentence = f"a {miss_rate:.2%} miss rate {window} ({grade.grade} evidence)"
    return Signal("enough", grade.grade, evidence, sentence, "the miss rate")


def _innodb_signal(ctx: AuditContext) -> Signal | None:
    innodb = ctx.innodb
    if innodb is None or innodb.free_buffers is None or innodb.pages_read_per_second is None:
        return None
    source = "SHOW ENGINE INNODB STATUS (BUFFER POOL AND MEMORY)"
    evidence = (
        Evidence("free buffers", str(innodb.free_buffers), source),
        Evidence("pages read per second", f"{innodb.pages_read_per_second:,.1f}", source),
    )
    min_reads = ctx.thresholds.buffer_pool.min_disk_reads_per_second
    if innodb.free_buffers == 0 and innodb.pages_read_per_second >= min_reads:
        sentence = (
            f"The pool has no free pages and reads {innodb.pages_read_per_second:,.0f} pages per second "
            "from disk, evicting others to make room. "
        )
        return Signal("short", Grade.FAIR, evidence, sentence, "InnoDB status")
    # Free pages only say the pool has not filled yet (it may still be warming up): weak evidence.
    sentence = "SHOW ENGINE INNODB STATUS shows free pages or few disk reads"
    return Signal("enough", Grade.WEAK, evidence, sentence, "InnoDB status")


def _schema_signal(ctx: AuditContext, pool_bytes: int) -> Signal | None:
    if ctx.schema is None:
        return None
    data = ctx.schema.innodb_data_and_index_bytes
    evidence = (Evidence("InnoDB data + indexes", describe_bytes(data), "schema facts"),)
    if data > pool_bytes:
        strong = data >= pool_bytes * ctx.thresholds.buffer_pool.strong_data_multiple_of_pool
        sentence = (
            f"The InnoDB data and indexes ({describe_bytes(data)}, {data / pool_bytes:.1f}× the pool) do not "
            "fit in it. "
        )
        return Signal("short", Grade.STRONG if strong else Grade.FAIR, evidence, sentence, "schema facts")
    return Signal(
        "enough",
        Grade.STRONG,
        evidence,
        "the schema facts show the whole InnoDB dataset fits",
        "schema facts",
    )


def _outweighed(signals: list[Signal]) -> str:
    if not signals:
        return ""
    said = "; ".join(signal.sentence for signal in signals)
    return f"Weaker or equal evidence says otherwise: {said}. "


def _carries_over(signal: Signal, measured_bytes: int | None, pool_bytes: int) -> bool:
    """A measurement under one pool speaks of `pool_bytes` only where misses can move one way (module)."""
    if measured_bytes is None or measured_bytes == pool_bytes:
        return True
    return (signal.verdict == "enough") == (measured_bytes < pool_bytes)


def _set_aside(signals: list[Signal], measured_bytes: int | None, pool_bytes: int) -> str:
    if not signals or measured_bytes is None:
        return ""
    sources = " and ".join(dict.fromkeys(signal.source for signal in signals))
    return (
        f"{sources[0].upper()}{sources[1:]} was measured under the running pool of "
        f"{describe_bytes(measured_bytes)} and says nothing of a pool of {describe_bytes(pool_bytes)}. "
    )


def pool_pressure(ctx: AuditContext, pool_bytes: int) -> PoolPressure:
    """Is a pool of `pool_bytes` short? Every input given, the strongest deciding (see the module)."""
    measured = [signal for signal in (_status_signal(ctx), _innodb_signal(ctx)) if signal is not None]
    under = effective_pool_bytes(measured_context(ctx)) if measured else None
    kept = [signal for signal in measured if _carries_over(signal, under, pool_bytes)]
    aside = _set_aside([signal for signal in measured if signal not in kept], under, pool_bytes)
    schema = _schema_signal(ctx, pool_bytes)
    signals = kept + ([schema] if schema is not None else [])
    if not signals:
        sentence = aside or (
            "The status shows no page requests in its window, so it cannot show how often reads miss. "
            if ctx.status is not None
            else "No status, InnoDB status or schema facts were given to show how often reads miss. "
        )
        return PoolPressure("unknown", None, False, (), sentence)
    best = min(_RANK[signal.grade] for signal in signals)
    deciding = [signal for signal in signals if _RANK[signal.grade] == best]
    shorts = [signal for signal in deciding if signal.verdict == "short"]
    evidence = tuple(item for signal in signals for item in signal.evidence)
    if not shorts:
        return PoolPressure("enough", deciding[0].grade, False, evidence, "")
    contested = len(shorts) < len(deciding)
    against = [signal for signal in signals if signal.verdict == "enough"]
    sentence = "".join(signal.sentence for signal in signals if signal.verdict == "short")
    return PoolPressure(
        "short", shorts[0].grade, contested, evidence, sentence + _outweighed(against) + aside
    )
