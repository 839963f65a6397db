"""Redo log: capacity for the write rate, an oversized log, checkpoint age, log buffer waits and the BLOB size limit."""

from __future__ import annotations

from advisor.advisors.redo_log.capacity import blob_too_large, checkpoint_age_high, undersized
from advisor.advisors.redo_log.log_buffer import log_waits
from advisor.advisors.redo_log.oversized import oversized
from advisor.rules import Rule

RULES: tuple[Rule, ...] = (
    blob_too_large,
    checkpoint_age_high,
    undersized,
    oversized,
    log_waits,
)
