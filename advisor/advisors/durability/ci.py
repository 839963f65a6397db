"""CI and test servers: durability traded for speed, said out loud."""

from __future__ import annotations

from collections.abc import Iterator

from advisor.context import AuditContext
from advisor.derived.replication import binlog_enabled
from advisor.derived.settings import setting_evidence
from advisor.findings import Severity
from advisor.model import Profile
from advisor.references import MARIADB_INNODB_VARIABLES, MYSQL_BINLOG_OPTIONS, MYSQL_INNODB_PARAMETERS
from advisor.rules import Proposal, rule
from advisor.units import parse_bool


@rule(
    "durability.ci_relaxations",
    Severity.INFO,
    [
        f"{MYSQL_INNODB_PARAMETERS}#sysvar_innodb_flush_log_at_trx_commit",
        f"{MYSQL_INNODB_PARAMETERS}#sysvar_innodb_doublewrite",
        f"{MYSQL_BINLOG_OPTIONS}#option_mysqld_log-bin",
        f"{MARIADB_INNODB_VARIABLES}#innodb_doublewrite",
    ],
)
def ci_relaxations(ctx: AuditContext) -> Iterator[Proposal]:
    """What it checks: in the ci profile, durability the throwaway data does not need:
    innodb_flush_log_at_trx_commit=1, the doublewrite buffer, sync_binlog, and binary logging itself.

    Why it matters: each costs fsyncs or extra writes per commit that make test suites slower while
    protecting data nobody will recover.

    What we recommend: innodb_flush_log_at_trx_commit=2 (a mysqld crash still loses nothing),
    innodb_doublewrite=OFF, sync_binlog=0, and skip-log-bin (disable-log-bin) unless the tests use
    replication or binlog features (MySQL 8.0 turns the binary log on by default).

    Caveats: information only; never use these settings where the data matters. Only variables the
    target version has are proposed.
    """
    if ctx.profile != Profile.CI:
        return
    trx_commit = ctx.config.get("innodb_flush_log_at_trx_commit")
    if trx_commit is not None and trx_commit.value.strip() in ("1", "3"):
        yield Proposal(
            title="CI: flush the redo log once a second instead of at every commit",
            rationale="Throwaway data does not need an fsync per commit; 2 still survives a mysqld crash.",
            evidence=(setting_evidence(trx_commit),),
            variable="innodb_flush_log_at_trx_commit",
            recommended="2",
        )
    doublewrite = ctx.config.get("innodb_doublewrite")
    if doublewrite is not None and parse_bool(
        doublewrite.value.strip().upper().replace("DETECT_AND_RECOVER", "ON")
    ):
        yield Proposal(
            title="CI: skip the doublewrite buffer",
            rationale="It writes every page twice to survive torn pages on a crash; CI data is rebuilt "
            "instead.",
            evidence=(setting_evidence(doublewrite),),
            variable="innodb_doublewrite",
            recommended="OFF",
        )
    if not binlog_enabled(ctx):
        return
    sync = ctx.config.get("sync_binlog")
    if sync is not None and ctx.config.number("sync_binlog") != 0:
        yield Proposal(
            title="CI: let the OS flush the binary log",
            rationale="sync_binlog=0 saves an fsync per commit group; keep the binlog only if tests need it.",
            evidence=(setting_evidence(sync),),
            variable="sync_binlog",
            recommended="0",
        )
    log_bin = ctx.config.get("log_bin")
    yield Proposal(
        title="CI: run without a binary log",
        rationale="Unless the tests exercise replication or binlog features, add skip-log-bin under "
        "[mysqld] (and remove any log-bin line): no binlog writes or syncs at all.",
        evidence=(setting_evidence(log_bin),) if log_bin is not None else (),
    )
