"""Startup: settings the option parser takes (`--verbose --help` passes) that abort the real start.

Each was started on a private mariadbd 10.11.19 instance (own data directory, socket and port): the
server parsed the file, then stopped while initialising its engines; binlog_without_server_id was run
on MySQL 5.7.42's own mysqld (bench/mysql_acceptance.py). The facts behind them (plugins
loaded, InnoDB on or off, engines present) are shared in `advisor.derived.engines`.
"""

from __future__ import annotations

from advisor.advisors.startup.collation import collation_charset_mismatch
from advisor.advisors.startup.encryption import encryption_without_keys
from advisor.advisors.startup.engines import innodb_disabled, unknown_storage_engine
from advisor.advisors.startup.server_id import binlog_without_server_id
from advisor.advisors.startup.time_zone import bad_time_zone
from advisor.rules import Rule

RULES: tuple[Rule, ...] = (
    innodb_disabled,
    unknown_storage_engine,
    encryption_without_keys,
    bad_time_zone,
    binlog_without_server_id,
    collation_charset_mismatch,
)
