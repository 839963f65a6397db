"""Durability: what a crash can lose, judged by profile (production or throwaway CI data) and role.

Production: full durability, each risk stated in seconds or transactions; a replica may relax at the
price of a rebuild (or a re-fetch from the primary). CI: relax what throwaway data does not need.
This advisor owns the crash-safe replica settings (relay_log_recovery, relay_log_info_repository,
sync_relay_log); the replication advisor does not repeat them.
"""

from __future__ import annotations

from advisor.advisors.durability.ci import ci_relaxations
from advisor.advisors.durability.commits import flush_log_at_trx_commit, sync_binlog
from advisor.advisors.durability.pages import checksums_off, doublewrite_off
from advisor.advisors.durability.replica import crash_safe_replica, sync_relay_log
from advisor.rules import Rule

RULES: tuple[Rule, ...] = (
    flush_log_at_trx_commit,
    sync_binlog,
    doublewrite_off,
    checksums_off,
    crash_safe_replica,
    sync_relay_log,
    ci_relaxations,
)
