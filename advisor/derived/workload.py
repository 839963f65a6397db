"""Workload rates several advisors read from the status counters: commits per second.

Shared by the group_commit and durability advisors.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from msgspec import Struct

from advisor.derived.cache import once_per_audit

if TYPE_CHECKING:
    from advisor.context import AuditContext

# Statements that each commit a write transaction under autocommit, plus explicit COMMITs.
WRITE_COUNTERS = (
    "Com_commit",
    "Com_insert",
    "Com_insert_select",
    "Com_update",
    "Com_update_multi",
    "Com_delete",
    "Com_delete_multi",
    "Com_replace",
    "Com_replace_select",
)


class CommitRate(Struct, frozen=True):
    """Commits per second and which counters (and window) the number came from."""

    per_second: float
    counters: str
    source: str


@once_per_audit
def commit_rate(ctx: AuditContext) -> CommitRate | None:
    """Write commits per second, None without status. In order of preference: MariaDB's Binlog_commits
    (exact, binary logging only); Com_commit alone when nearly every COMMIT follows a BEGIN (the DML
    then ran inside those transactions); Com_commit plus the DML counters (each autocommit statement
    commits; an upper bound when some DML runs inside transactions); Handler_commit (counts
    statement-level and read-only commits too)."""
    status = ctx.status
    if status is None:
        return None
    window = status.describe_window()
    binlog = status.rate("Binlog_commits")
    if binlog:
        return CommitRate(binlog, "Binlog_commits", f"SHOW GLOBAL STATUS Binlog_commits, {window}")
    commits = status.rate("Com_commit")
    begins = status.rate("Com_begin")
    share = ctx.thresholds.group_commit.explicit_transaction_begin_share
    if commits and begins is not None and begins >= share * commits:
        counters = "Com_commit (nearly every COMMIT follows a BEGIN, so DML ran inside them)"
        return CommitRate(commits, counters, f"SHOW GLOBAL STATUS Com_commit, Com_begin, {window}")
    rates = [rate for rate in (status.rate(name) for name in WRITE_COUNTERS) if rate is not None]
    if rates:
        counters = "Com_commit + Com_insert/update/delete/replace (and their multi/select forms), at most"
        return CommitRate(sum(rates), counters, f"SHOW GLOBAL STATUS {counters}, {window}")
    handler = status.rate("Handler_commit")
    if handler is not None:
        counters = "Handler_commit (includes statement-level and read-only commits)"
        return CommitRate(handler, counters, f"SHOW GLOBAL STATUS {counters}, {window}")
    return None
