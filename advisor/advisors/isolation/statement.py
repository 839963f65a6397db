"""READ COMMITTED and statement-format binary logging: refused writes and re-scans."""

from __future__ import annotations

from collections.abc import Iterator

from advisor.advisors.isolation.common import LEVELS_DOC, isolation_variable
from advisor.context import AuditContext
from advisor.derived.replication import (
    binlog_enabled,
    binlog_format,
    isolation_level,
    isolation_setting,
    row_format_change,
)
from advisor.derived.settings import setting_evidence
from advisor.findings import Evidence, Severity
from advisor.references import MARIADB_BINLOG_FORMATS
from advisor.rules import Proposal, Versions, mysql_only, rule

_BINLOG_SETTING = "https://dev.mysql.com/doc/refman/8.0/en/binary-log-setting.html"
_LOOSE = frozenset({"READ-COMMITTED", "READ-UNCOMMITTED"})


def _statement_conflict(ctx: AuditContext) -> tuple[Evidence, ...] | None:
    """Evidence when the default level is READ COMMITTED/UNCOMMITTED and binlog_format is STATEMENT."""
    level_setting = isolation_setting(ctx)
    format_setting = ctx.config.get("binlog_format")
    if level_setting is None or format_setting is None:
        return None
    if isolation_level(level_setting) not in _LOOSE or binlog_format(ctx) != "STATEMENT":
        return None
    return (setting_evidence(level_setting), setting_evidence(format_setting))


@rule(
    "isolation.read_committed_statement_binlog",
    Severity.CRITICAL,
    [_BINLOG_SETTING, LEVELS_DOC, MARIADB_BINLOG_FORMATS],
    versions=Versions(mysql=((5, 1, 5), (99,)), mariadb=((0,), (99,))),
)
def read_committed_statement_binlog(ctx: AuditContext) -> Iterator[Proposal]:
    """What it checks: the default isolation level is READ COMMITTED or READ UNCOMMITTED, binary logging
    is on and binlog_format=STATEMENT.

    Why it matters: InnoDB can only be logged row by row at those levels, so every write to an InnoDB
    table fails ("impossible to write to binary log since BINLOG_FORMAT = STATEMENT", error 1665;
    "Binary logging not possible", error 1598, on MySQL 5.1).

    What we recommend: binlog_format=ROW (MIXED also works); on MySQL 8.0.34+, where binlog_format is
    deprecated and ROW is the default, remove the STATEMENT line instead.

    Caveats: sessions that set their own level are not visible here. 5.1 development releases from
    before InnoDB's check (MySQL Bug #23051) replicate such writes wrongly instead of refusing them.
    This rule owns the combination, so replication.binlog_format_statement stays quiet for it.
    """
    evidence = _statement_conflict(ctx)
    if evidence is None or not binlog_enabled(ctx):
        return
    yield Proposal(
        title="READ COMMITTED with statement-based binary logging: InnoDB writes fail",
        rationale="At READ COMMITTED or READ UNCOMMITTED InnoDB refuses statement-format logging, so "
        "every INSERT, UPDATE or DELETE on an InnoDB table returns an error instead of committing. "
        "Row-based logging removes the conflict.",
        evidence=(*evidence, Evidence("log_bin", "ON", "effective configuration")),
        **row_format_change(ctx),
    )


@rule(
    "isolation.read_committed_fails_without_binlog",
    Severity.CRITICAL,
    [
        "https://bugs.mysql.com/bug.php?id=40360",
        "https://dev.mysql.com/doc/refman/5.1/en/binary-log-setting.html",
    ],
    versions=mysql_only((5, 1, 5), (5, 1, 30)),
)
def read_committed_fails_without_binlog(ctx: AuditContext) -> Iterator[Proposal]:
    """What it checks: MySQL 5.1 before 5.1.30 at READ COMMITTED or READ UNCOMMITTED with
    binlog_format=STATEMENT and binary logging off.

    Why it matters: these releases raised the statement-format error even with the binary log off
    (MySQL Bug #40360, fixed in 5.1.30), so InnoDB writes fail although nothing is logged.

    What we recommend: binlog_format=ROW, harmless while the binary log is off; better, upgrade.

    Caveats: the default binlog_format was MIXED from 5.1.12 to 5.1.28, so this needs an explicit
    STATEMENT there. The per-row statement rescan of READ COMMITTED before 5.1.37 is
    isolation.read_committed_statement_rescan.
    """
    evidence = _statement_conflict(ctx)
    if evidence is None or binlog_enabled(ctx) is not False:
        return
    yield Proposal(
        title="READ COMMITTED fails on this 5.1 release even without a binary log",
        rationale="Before 5.1.30 InnoDB checked binlog_format even when binary logging was off (Bug "
        "#40360): at READ COMMITTED every InnoDB write fails with 'Binary logging not possible'. "
        "binlog_format=ROW avoids it; upgrading to a current release is the real fix.",
        evidence=evidence,
        variable="binlog_format",
        recommended="ROW",
    )


@rule(
    "isolation.read_committed_statement_rescan",
    Severity.WARNING,
    [
        "https://dev.mysql.com/doc/refman/5.1/en/set-transaction.html",
        "https://dev.mysql.com/doc/relnotes/mysql/5.1/en/news-5-1-37.html",
    ],
    versions=mysql_only((5, 0), (5, 1, 37)),
)
def read_committed_statement_rescan(ctx: AuditContext) -> Iterator[Proposal]:
    """What it checks: the default isolation level is READ COMMITTED on MySQL 5.0 or 5.1 before 5.1.37.

    Why it matters: in these releases InnoDB, at READ COMMITTED, decided how to lock a duplicate key by
    looking at the statement's text (is it a REPLACE, an INSERT ... ON DUPLICATE KEY UPDATE, an
    UPDATE?) for every row it touched. A big multi-row REPLACE, upsert or UPDATE therefore rescans its
    own statement text once per row: the cost grows with rows × statement length, and bulk loads of
    long multi-row statements crawl.

    What we recommend: REPEATABLE READ (the default), or an upgrade to 5.1.37 or later where the
    statement type is passed to InnoDB instead of being searched for in the text.

    Caveats: the boundary is the one stated for this check by the InnoTune team; we did not find the
    bug number in the release notes, so the references point at the isolation-level page and the
    5.1.37 notes. Applications that rely on READ COMMITTED semantics must be checked before changing
    the default.
    """
    setting = isolation_setting(ctx)
    if setting is None or isolation_level(setting) != "READ-COMMITTED":
        return
    yield Proposal(
        title="READ COMMITTED on this release rescans each statement's text per row",
        rationale=f"On {ctx.version.describe()} InnoDB at READ COMMITTED searches the statement text "
        "for every row a REPLACE, INSERT ... ON DUPLICATE KEY UPDATE or UPDATE touches, so large "
        "multi-row statements slow down with their own length. REPEATABLE READ avoids it; 5.1.37 and "
        "later fix it.",
        evidence=(setting_evidence(setting),),
        variable=isolation_variable(ctx),
        recommended="REPEATABLE-READ",
    )
