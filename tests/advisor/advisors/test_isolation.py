"""isolation: read views in real InnoDB status dumps, and the read-committed binlog conflict."""

from __future__ import annotations

from advisor.advisors.isolation import read_committed_statement_binlog, read_view_held
from advisor.audit import AuditInputs
from tests.advisor.advisors._audit import context
from tests.corpus import corpus_file

WRITERS = "percona-toolkit/t/pt-mysql-summary/samples/innodb-status.004.txt"
NO_VIEW = "realworld/innodb_status/innotop_innotop__innodb-status-007.txt"


def test_long_writers_with_read_views_are_left_to_undo_history() -> None:
    """Real dump: the 254 s and 263 s transactions hold read views but wrote undo, so this rule is quiet."""
    text = corpus_file(WRITERS).read_text()
    ctx = context(AuditInputs(innodb_status=text, server_version="5.1.45"))
    assert ctx.innodb is not None
    long_views = [t for t in ctx.innodb.transactions if t.read_view and (t.active_seconds or 0) >= 120]
    assert len(long_views) == 2 and all(t.undo_entries for t in long_views)
    assert list(read_view_held.check(ctx)) == []


def test_same_snapshots_without_undo_are_reported() -> None:
    """The same real transactions without their undo entries are read-only snapshot holders."""
    text = (
        corpus_file(WRITERS)
        .read_text()
        .replace(", undo log entries 153341", "")
        .replace(", undo log entries 123335", "")
    )
    ctx = context(AuditInputs(innodb_status=text, server_version="5.1.45"))
    (proposal,) = read_view_held.check(ctx)
    assert "oldest 263 s" in proposal.title
    assert [e.value for e in proposal.evidence][-1] == "1282"  # History list length from the dump


def test_long_transaction_without_read_view_is_not_ours() -> None:
    """Real dump: a 354 s INSERT ... SELECT holds locks but no read view."""
    ctx = context(AuditInputs(innodb_status=corpus_file(NO_VIEW).read_text(), server_version="5.5.28"))
    assert list(read_view_held.check(ctx)) == []


def test_read_committed_with_statement_binlog_needs_row() -> None:
    """READ COMMITTED + STATEMENT + log_bin on MySQL 5.7: critical, ROW proposed."""
    cnf = "[mysqld]\nlog_bin = mysql-bin\nbinlog_format = STATEMENT\ntransaction-isolation = READ-COMMITTED\n"
    ctx = context(AuditInputs(mycnf={"my.cnf": cnf}, server_version="5.7.44"))
    (proposal,) = read_committed_statement_binlog.check(ctx)
    assert (proposal.variable, proposal.recommended) == ("binlog_format", "ROW")
