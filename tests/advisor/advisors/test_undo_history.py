"""undo_history on real SHOW ENGINE INNODB STATUS dumps from the corpus."""

from __future__ import annotations

from msgspec.structs import replace

from advisor.advisors import undo_history
from advisor.audit import AuditInputs
from advisor.thresholds import THRESHOLDS
from tests.advisor.advisors._audit import context
from tests.corpus import corpus_file

WRITERS = "percona-toolkit/t/pt-mysql-summary/samples/innodb-status.004.txt"
SYSBENCH = "mariadb-10.11-sysbench/s02_load_rw_default.innodb_status.txt"


def test_real_batch_writers_are_large_transactions() -> None:
    """Real MySQL 5.1 dump: two upload transactions with 153,341 and 123,335 undo entries, biggest first,
    named by transaction and thread id with their locks — and no query text."""
    ctx = context(AuditInputs(innodb_status=corpus_file(WRITERS).read_text(), server_version="5.1.49"))
    (proposal,) = undo_history.large_transaction.check(ctx)
    values = [e.value for e in proposal.evidence]
    assert values == [
        "transaction 94892591 (thread 391236): ACTIVE 254 s, 581344 row locks, 153341 undo entries, read view open",
        "transaction 94886750 (thread 391259): ACTIVE 263 s, 140495 row locks, 123335 undo entries, read view open",
    ]
    assert "DELETE" not in proposal.rationale and "UPDATE" not in proposal.rationale
    assert list(undo_history.long_transaction.check(ctx)) == []  # 254 s and 263 s are under 600 s
    assert list(undo_history.history_list_length.check(ctx)) == []  # 1,282


def test_long_transaction_threshold_is_a_setting() -> None:
    """With the threshold at 4 minutes the same real transactions are long, the older (263 s) first."""
    ctx = context(AuditInputs(innodb_status=corpus_file(WRITERS).read_text(), server_version="5.1.49"))
    quick = replace(THRESHOLDS, undo_history=replace(THRESHOLDS.undo_history, long_transaction_seconds=240))
    (proposal,) = undo_history.long_transaction.check(replace(ctx, thresholds=quick))
    assert proposal.title == "2 transaction(s) open for over 4 minutes, the oldest 263 s"


def test_sysbench_mariadb_is_quiet() -> None:
    """Real MariaDB 10.11 under sysbench: history list 212 and only sub-second transactions."""
    ctx = context(
        AuditInputs(innodb_status=corpus_file(SYSBENCH).read_text(), server_version="10.11.19-MariaDB")
    )
    assert ctx.innodb is not None and ctx.innodb.history_list_length == 212
    for item in undo_history.RULES:
        assert list(item.check(ctx)) == [], item.id
