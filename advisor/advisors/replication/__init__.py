"""Replication: binary logging on the servers that need it, statement-safe formats, server ids, read-only
replicas and binlog retention.

Crash-safe replica settings (relay_log_recovery, relay_log_info_repository, sync_relay_log) belong to
the durability advisor; an unknown or removed option (expire_logs_days on 8.4) to config_validity. The facts
it shares with the durability, isolation and group_commit advisors (binary logging on or off, the
isolation level in effect) live in advisor.derived.replication.
"""

from __future__ import annotations

from advisor.advisors.replication.binlog import (
    binlog_format_statement,
    binlog_off_on_primary,
    log_bin_named_off,
    sql_log_bin_global_off,
)
from advisor.advisors.replication.retention import binlog_retention_unset, expire_logs_days_ignored
from advisor.advisors.replication.topology import replica_updates_off, replica_writable, server_id_unset
from advisor.rules import Rule

RULES: tuple[Rule, ...] = (
    sql_log_bin_global_off,
    binlog_off_on_primary,
    log_bin_named_off,
    binlog_format_statement,
    server_id_unset,
    replica_updates_off,
    replica_writable,
    binlog_retention_unset,
    expire_logs_days_ignored,
)
