"""What the undo_history rules share: helpers and manual pages."""

from __future__ import annotations

from typing import TYPE_CHECKING

from advisor.findings import Evidence

if TYPE_CHECKING:
    from advisor.context import AuditContext
    from advisor.inputs.innodb_transactions import InnodbTransaction


PURGE = "https://dev.mysql.com/doc/refman/8.0/en/innodb-purge-configuration.html"
MARIADB_PURGE = "https://mariadb.com/kb/en/innodb-purge/"
STATUS_SOURCE = "SHOW ENGINE INNODB STATUS (TRANSACTIONS)"


def history_evidence(ctx: AuditContext) -> Evidence | None:
    """History list length, from the InnoDB status or else the status variable (MariaDB, Percona)."""
    if ctx.innodb is not None and ctx.innodb.history_list_length is not None:
        return Evidence("history list length", str(ctx.innodb.history_list_length), STATUS_SOURCE)
    value = ctx.status.value("Innodb_history_list_length") if ctx.status is not None else None
    if value is None:
        return None
    return Evidence("history list length", str(value), "SHOW GLOBAL STATUS Innodb_history_list_length")


def long_transactions(ctx: AuditContext) -> list[InnodbTransaction]:
    """Transactions open at least the threshold, longest first."""
    if ctx.innodb is None:
        return []
    limit = ctx.thresholds.undo_history.long_transaction_seconds
    found = [t for t in ctx.innodb.transactions if t.active_seconds is not None and t.active_seconds >= limit]
    return sorted(found, key=lambda t: -(t.active_seconds or 0))
