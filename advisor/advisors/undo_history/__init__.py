"""Undo history: the purge backlog (history list length), the transactions that hold it back, big
transactions, and the purge settings — from SHOW ENGINE INNODB STATUS and SHOW GLOBAL STATUS."""

from __future__ import annotations

from advisor.advisors.undo_history.growth import history_growing
from advisor.advisors.undo_history.history import history_list_length, large_transaction, long_transaction
from advisor.advisors.undo_history.purge import max_purge_lag, purge_threads
from advisor.rules import Rule

RULES: tuple[Rule, ...] = (
    history_list_length,
    history_growing,
    long_transaction,
    large_transaction,
    purge_threads,
    max_purge_lag,
)
