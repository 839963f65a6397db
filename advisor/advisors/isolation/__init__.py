"""Transaction isolation: levels that break binary logging, the option's spelling, SERIALIZABLE's locking
reads and read views that pin purge at REPEATABLE READ.

Coordination: config_validity owns unknown options in general (it comments out a `tx_isolation` line);
this advisor only re-states the level that line meant under its real name. undo_history owns history
list length and long transactions in general; this advisor only reports the read views an isolation
level keeps open. The fix for binlog_format comes from the replication advisor's helper, and
replication.binlog_format_statement stays quiet when the critical rule here applies.
"""

from __future__ import annotations

from advisor.advisors.isolation.levels import loose_tx_isolation_ignored, read_view_held, serializable
from advisor.advisors.isolation.statement import (
    read_committed_fails_without_binlog,
    read_committed_statement_binlog,
    read_committed_statement_rescan,
)
from advisor.rules import Rule

RULES: tuple[Rule, ...] = (
    read_committed_statement_binlog,
    read_committed_fails_without_binlog,
    read_committed_statement_rescan,
    loose_tx_isolation_ignored,
    serializable,
    read_view_held,
)
