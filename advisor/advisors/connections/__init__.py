"""Connections and threads: max_connections against the peak, the thread cache, InnoDB's thread
throttle and per-user connection caps."""

from __future__ import annotations

from advisor.advisors.connections.limits import max_connections_oversized, max_user_connections, near_limit
from advisor.advisors.connections.threads import innodb_thread_concurrency, thread_cache_misses
from advisor.rules import Rule

RULES: tuple[Rule, ...] = (
    near_limit,
    max_connections_oversized,
    thread_cache_misses,
    innodb_thread_concurrency,
    max_user_connections,
)
