"""durability: real configurations judged by profile and role."""

from __future__ import annotations

from advisor.advisors.durability import ci_relaxations, crash_safe_replica, flush_log_at_trx_commit
from advisor.audit import AuditInputs
from tests.advisor.advisors._audit import context
from tests.corpus import corpus_file

SYSBENCH = "mariadb-10.11-sysbench/s02_load_rw_default"


def _variable(text: str, name: str) -> str:
    for line in text.splitlines():
        key, _, value = line.partition("\t")
        if key == name:
            return value
    raise KeyError(name)


def test_sysbench_server_in_ci_profile_relaxes_redo_and_doublewrite() -> None:
    """Real MariaDB 10.11 defaults audited as CI: redo flush and doublewrite relaxed, no binlog advice."""
    variables = corpus_file(f"{SYSBENCH}.global_variables.tsv").read_text()
    ctx = context(AuditInputs(variables=variables, profile="ci"))
    proposals = {p.variable: (p.recommended, p.evidence[0].value) for p in ci_relaxations.check(ctx)}
    assert proposals == {
        "innodb_flush_log_at_trx_commit": ("2", _variable(variables, "innodb_flush_log_at_trx_commit")),
        "innodb_doublewrite": ("OFF", _variable(variables, "innodb_doublewrite")),
    }
    assert _variable(variables, "log_bin") == "OFF"


def test_sysbench_server_in_production_is_durable() -> None:
    """The same real server in production: innodb_flush_log_at_trx_commit=1 draws nothing."""
    variables = corpus_file(f"{SYSBENCH}.global_variables.tsv").read_text()
    assert list(flush_log_at_trx_commit.check(context(AuditInputs(variables=variables)))) == []


def test_trx_commit_2_states_the_loss_in_seconds_and_transactions() -> None:
    """The rationale names the flush interval and the transactions it holds at the real commit rate."""
    variables = (
        corpus_file(f"{SYSBENCH}.global_variables.tsv").read_text() + "innodb_flush_log_at_trx_commit\t2\n"
    )
    status = (
        corpus_file(f"{SYSBENCH}.global_status.t20s.tsv").read_text(),
        corpus_file(f"{SYSBENCH}.global_status.tsv").read_text(),
    )
    (proposal,) = flush_log_at_trx_commit.check(context(AuditInputs(variables=variables, status=status)))
    assert proposal.recommended == "1"
    assert f"up to ~{_variable(variables, 'innodb_flush_log_at_timeout')} s" in proposal.rationale
    assert "commits/s" in proposal.rationale


def test_percona_replica_conf_with_gtids_is_crash_safe_on_80() -> None:
    """Real Percona 8.0 replica config (GTIDs, default TABLE repository) needs no crash-safety change."""
    text = corpus_file("realworld/mycnf/DataDog_integrations-core__percona-replica.conf").read_text()
    ctx = context(AuditInputs(mycnf={"my.cnf": text}, server_version="8.0.36-28", role="replica"))
    assert list(crash_safe_replica.check(ctx)) == []


def test_percona_57_example_as_replica_is_not_crash_safe_without_recovery() -> None:
    """Real Percona 5.7 example config (TABLE repositories, no relay_log_recovery) used as a replica."""
    text = corpus_file(
        "realworld/mycnf/percona_percona-docker__percona-server-master-slave__my.cnf"
    ).read_text()
    ctx = context(AuditInputs(mycnf={"my.cnf": text}, server_version="5.7.44-48", role="replica"))
    proposals = {p.variable: p.recommended for p in crash_safe_replica.check(ctx)}
    assert proposals == {"relay_log_recovery": "ON"}


def test_flush_timeout_counts_only_where_the_variable_exists() -> None:
    """innodb_flush_log_at_timeout (MySQL 5.6.6+) sets the loss window; 5.6.5 flushes once a second."""
    cnf = "[mysqld]\ninnodb_flush_log_at_trx_commit = 2\ninnodb_flush_log_at_timeout = 5\n"
    windows = {}
    for version in ("5.6.5", "5.6.6"):
        ctx = context(AuditInputs(mycnf={"my.cnf": cnf}, server_version=version))
        (proposal,) = flush_log_at_trx_commit.check(ctx)
        windows[version] = proposal.rationale
    assert "up to ~1 s" in windows["5.6.5"]
    assert "up to ~5 s" in windows["5.6.6"]
