"""group_commit: commit rates from real status snapshots, and when a delay is proposed."""

from __future__ import annotations

from advisor.advisors.group_commit import delay_would_help
from advisor.audit import AuditInputs
from advisor.derived.workload import commit_rate
from tests.advisor.advisors._audit import context
from tests.corpus import corpus_file

SYSBENCH = "mariadb-10.11-sysbench/s02_load_rw_default"


def _status_value(text: str, name: str) -> int:
    for line in text.splitlines():
        key, _, value = line.partition("\t")
        if key == name:
            return int(value)
    raise KeyError(name)


def _sysbench_inputs(**overrides: str) -> AuditInputs:
    variables = corpus_file(f"{SYSBENCH}.global_variables.tsv").read_text()
    for name, value in overrides.items():
        variables += f"{name}\t{value}\n"
    earlier = corpus_file(f"{SYSBENCH}.global_status.t20s.tsv").read_text()
    later = corpus_file(f"{SYSBENCH}.global_status.tsv").read_text()
    return AuditInputs(variables=variables, status=(earlier, later), storage="hdd", memory="24G", cpus=2)


def test_sysbench_commit_rate_counts_explicit_commits_only() -> None:
    """sysbench wraps its DML in BEGIN ... COMMIT: the rate is Com_commit over the 20 s window."""
    earlier = corpus_file(f"{SYSBENCH}.global_status.t20s.tsv").read_text()
    later = corpus_file(f"{SYSBENCH}.global_status.tsv").read_text()
    seconds = _status_value(later, "Uptime") - _status_value(earlier, "Uptime")
    expected = (_status_value(later, "Com_commit") - _status_value(earlier, "Com_commit")) / seconds
    rate = commit_rate(context(_sysbench_inputs()))
    assert rate is not None
    assert rate.per_second == expected
    assert "Com_commit" in rate.counters and "20 s between two snapshots" in rate.source


def test_sysbench_without_binary_log_gets_no_delay() -> None:
    """The real server runs without a binary log, so there is no binlog fsync to share."""
    assert list(delay_would_help.check(context(_sysbench_inputs()))) == []


def test_sysbench_load_with_binlog_on_hdd_over_20_s_proposes_no_delay_yet() -> None:
    """The same real load with sync_binlog=1 on a hard disk, but its two snapshots are 20 s apart: weak
    evidence, so no delay every commit would pay; a notice says the window is too short and how to measure."""
    ctx = context(_sysbench_inputs(log_bin="ON", sync_binlog="1"))
    proposals = list(delay_would_help.check(ctx))
    assert [(p.variable, p.recommended) for p in proposals] == [(None, None)]
    assert "too short to change binlog_commit_wait_usec" in proposals[0].rationale
    assert "10 minutes apart" in proposals[0].rationale


def test_no_status_means_no_rate() -> None:
    """Without SHOW GLOBAL STATUS there is no rate at all (and so no rate-based advice)."""
    ctx = context(AuditInputs(mycnf={"my.cnf": "[mysqld]\nsync_binlog = 1\n"}, server_version="8.0.36"))
    assert commit_rate(ctx) is None
