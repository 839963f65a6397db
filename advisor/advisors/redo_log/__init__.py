"""Redo log: capacity for the write rate, checkpoint age, log buffer waits and the BLOB size limit."""

from __future__ import annotations

from advisor.advisors.redo_log.capacity import blob_too_large, checkpoint_age_high, undersized
from advisor.advisors.redo_log.log_buffer import log_waits
from advisor.rules import Rule

RULES: tuple[Rule, ...] = (
    blob_too_large,
    checkpoint_age_high,
    undersized,
    log_waits,
)
