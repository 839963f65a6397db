"""The numbers behind the pictures of an audit: buffer pool against memory and data, redo writes against
redo capacity.

Pure and cheap: everything comes from the audit context (memoised sizing helpers) and the settled
findings, so the pictures show exactly the sizes the findings recommend. A figure is None when the
inputs do not tell it (no memory given, no schema facts, a single status dump, …).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from msgspec import Struct
from msgspec.structs import asdict

from advisor.derived.budget import POOL, effective_pool_bytes
from advisor.derived.redo_sizing import CAPACITY, FILE_SIZE, redo_log, write_rate
from advisor.units import parse_size

if TYPE_CHECKING:
    from advisor.context import AuditContext
    from advisor.findings import Finding

SECONDS_PER_HOUR = 3600


class AuditFigures(Struct, frozen=True):
    """Sizes in bytes (rates in bytes per hour) for the audit's pictures; None when unknown."""

    usable_memory_bytes: int | None = None
    buffer_pool_bytes: int | None = None
    recommended_buffer_pool_bytes: int | None = None
    dataset_bytes: int | None = None
    redo_capacity_bytes: int | None = None
    recommended_redo_capacity_bytes: int | None = None
    redo_bytes_per_hour: int | None = None

    def to_dict(self) -> dict[str, int | None]:
        """The JSON object stored with the audit (`figures`)."""
        return asdict(self)


def _recommended_bytes(findings: Sequence[Finding], variables: tuple[str, ...]) -> tuple[str, int] | None:
    """The settled recommendation for one of `variables`, as (variable, bytes)."""
    for finding in findings:
        if finding.change == "set" and finding.variable in variables and finding.recommended is not None:
            size = parse_size(finding.recommended)
            if size:
                return finding.variable, size
    return None


def _redo_figures(
    ctx: AuditContext, findings: Sequence[Finding]
) -> tuple[int | None, int | None, int | None]:
    """(capacity now, capacity recommended, bytes written per hour)."""
    redo = redo_log(ctx)
    rate = write_rate(ctx)
    per_hour = round(rate[0] * SECONDS_PER_HOUR) if rate is not None else None
    if redo is None:
        return None, None, per_hour
    recommended = _recommended_bytes(findings, (CAPACITY, FILE_SIZE))
    recommended_total = None
    if recommended is not None:
        variable, size = recommended
        # innodb_log_file_size is per file: the capacity is that times the files in the group.
        recommended_total = size * redo.files if variable == FILE_SIZE else size
    return redo.capacity_bytes, recommended_total, per_hour


def audit_figures(ctx: AuditContext, findings: Sequence[Finding]) -> AuditFigures:
    """Collect the figures of one audit from its context and its settled findings."""
    pool = _recommended_bytes(findings, (POOL,))
    capacity, recommended_capacity, per_hour = _redo_figures(ctx, findings)
    return AuditFigures(
        usable_memory_bytes=ctx.usable_memory,
        buffer_pool_bytes=effective_pool_bytes(ctx),
        recommended_buffer_pool_bytes=pool[1] if pool is not None else None,
        dataset_bytes=ctx.schema.innodb_data_and_index_bytes if ctx.schema is not None else None,
        redo_capacity_bytes=capacity,
        recommended_redo_capacity_bytes=recommended_capacity,
        redo_bytes_per_hour=per_hour,
    )
