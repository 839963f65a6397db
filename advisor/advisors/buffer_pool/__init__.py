"""Buffer pool: size against memory and data, miss rate, chunk alignment, instances, warm-up, LRU."""

from __future__ import annotations

from advisor.advisors.buffer_pool.geometry import chunk_alignment, single_instance
from advisor.advisors.buffer_pool.sizing import exceeds_memory, oversized, undersized
from advisor.advisors.buffer_pool.warmup import old_blocks_time_zero, warmup_disabled
from advisor.rules import Rule

RULES: tuple[Rule, ...] = (
    exceeds_memory,
    oversized,
    undersized,
    chunk_alignment,
    single_instance,
    warmup_disabled,
    old_blocks_time_zero,
)
