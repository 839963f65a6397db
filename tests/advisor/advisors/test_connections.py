"""connections on real status and variables dumps from the corpus."""

from __future__ import annotations

from advisor.advisors import connections
from advisor.audit import AuditInputs
from tests.advisor.advisors._audit import context
from tests.corpus import corpus_file

PT_SUMMARY = "percona-toolkit/t/pt-mysql-summary/samples/temp006"
SYSBENCH = "mariadb-10.11-sysbench/s02_load_rw_default"


def test_percona_55_without_thread_cache() -> None:
    """Real pt-mysql-summary sample (Percona Server 5.5.28, thread_cache_size 0): 14 connections in 10 s each
    created a thread; ten seconds is weak evidence, so the cache is left alone and a notice says why."""
    ctx = context(
        AuditInputs(
            variables=corpus_file(f"{PT_SUMMARY}/mysql-variables").read_text(),
            status=(corpus_file(f"{PT_SUMMARY}/mysql-status-defer").read_text(),),
        )
    )
    assert ctx.version.is_percona and ctx.version.number == "5.5.28"
    (proposal,) = connections.thread_cache_misses.check(ctx)
    assert (proposal.variable, proposal.recommended) == (None, None)
    assert proposal.title == "The thread cache missed 100% of new connections in a short window"
    assert "14 of 14 connections needed a new thread" in proposal.rationale
    assert "too short to change thread_cache_size" in proposal.rationale
    assert list(connections.near_limit.check(ctx)) == []  # 4 of 151


def test_sysbench_mariadb_is_quiet() -> None:
    """Real MariaDB 10.11 under sysbench: 17 of 151 connections, no thread created between the snapshots."""
    ctx = context(
        AuditInputs(
            variables=corpus_file(f"{SYSBENCH}.global_variables.tsv").read_text(),
            status=(
                corpus_file(f"{SYSBENCH}.global_status.t20s.tsv").read_text(),
                corpus_file(f"{SYSBENCH}.global_status.tsv").read_text(),
            ),
        )
    )
    assert ctx.status is not None and ctx.status.delta("Threads_created") == 0
    for item in connections.RULES:
        assert list(item.check(ctx)) == [], item.id


def test_no_status_no_rate_advice() -> None:
    """Without SHOW GLOBAL STATUS the peak-based rules say nothing; the configuration-only ones still speak."""
    ctx = context(
        AuditInputs(
            mycnf={"my.cnf": "[mysqld]\nmax_connections = 5000\ninnodb_thread_concurrency = 8\n"},
            server_version="8.0.36",
        )
    )
    assert list(connections.near_limit.check(ctx)) == []
    assert list(connections.max_connections_oversized.check(ctx)) == []
    assert list(connections.thread_cache_misses.check(ctx)) == []
    assert [p.recommended for p in connections.innodb_thread_concurrency.check(ctx)] == ["0"]
