"""What the isolation rules share: helpers and manual pages."""

from __future__ import annotations

from advisor.context import AuditContext

LEVELS_DOC = "https://dev.mysql.com/doc/refman/8.0/en/innodb-transaction-isolation-levels.html"


def isolation_variable(ctx: AuditContext) -> str:
    """transaction_isolation where the version has it (MySQL 5.7.20+, MariaDB 11.1+), else tx_isolation."""
    return "transaction_isolation" if ctx.knows("transaction_isolation") else "tx_isolation"
