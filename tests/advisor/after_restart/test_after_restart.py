"""The file as the server reads it at its next restart: live values that depart from the file must not
hide the file's bad lines (a DBA installs the file we hand back and restarts)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from advisor.audit import AuditInputs, run_audit
from tests.corpus import corpus_file

HERE = Path(__file__).parent
SYSBENCH = "mariadb-10.11-sysbench/s02_load_rw_default"


def _audit(case: str, *, variables: bool = True, memory: str = "24G", cpus: int = 2) -> dict[str, Any]:
    inputs = AuditInputs(
        mycnf={"/etc/mysql/my.cnf": (HERE / case).read_text()},
        variables=corpus_file(f"{SYSBENCH}.global_variables.tsv").read_text() if variables else None,
        memory=memory,
        cpus=cpus,
        storage="ssd",
        server_version=None if variables else "10.11.19-MariaDB",
    )
    return run_audit(inputs).to_dict()


def _by_variable(result: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {finding["variable"]: finding for finding in result["findings"] if finding["variable"]}


def test_durability_off_in_the_file_is_found_although_the_live_server_is_durable() -> None:
    """Live: innodb_flush_log_at_trx_commit = 1, doublewrite ON (the sysbench dump); the file: 0 and 0."""
    result = _audit("durability_off_in_file.cnf")
    findings = _by_variable(result)
    flush = findings["innodb_flush_log_at_trx_commit"]
    assert flush["rule"] == "durability.flush_log_at_trx_commit"
    assert (flush["current"], flush["recommended"]) == ("0", "1")
    assert flush["rationale"].startswith("At the next restart, not now: /etc/mysql/my.cnf:4 sets")
    # The server runs 1 already: only the file changes, nothing to run live, no restart.
    assert flush["apply_sql"] is None and flush["restart_required"] is False
    assert findings["innodb_doublewrite"]["rule"] == "durability.doublewrite_off"
    assert "-innodb_flush_log_at_trx_commit = 0" in result["diff"]
    assert "+innodb_flush_log_at_trx_commit = 1" in result["diff"]
    assert "-innodb_doublewrite = 0" in result["diff"]


def test_the_same_file_without_live_values_draws_the_same_findings() -> None:
    """The findings the second pass adds are the ones the file alone draws (the first pass had none)."""
    alone = _by_variable(_audit("durability_off_in_file.cnf", variables=False))
    with_live = _by_variable(_audit("durability_off_in_file.cnf"))
    for name in ("innodb_flush_log_at_trx_commit", "innodb_doublewrite"):
        assert alone[name]["rule"] == with_live[name]["rule"]
        assert alone[name]["recommended"] == with_live[name]["recommended"]
        assert "next restart" not in alone[name]["rationale"]


def test_drift_offers_no_sql_that_applies_a_refused_or_advised_against_file_value() -> None:
    """`SET GLOBAL innodb_flush_log_at_trx_commit = 0` (against our own advice) and `SET GLOBAL
    innodb_checksum_algorithm = 'NONE'` (the server refuses it) were offered as drift SQL."""
    drift = {entry["name"]: entry for entry in _audit("durability_off_in_file.cnf")["drift"]}
    assert drift["innodb_flush_log_at_trx_commit"]["file_value"] == "0"
    assert drift["innodb_flush_log_at_trx_commit"]["apply_sql"] is None
    assert drift["innodb_checksum_algorithm"]["apply_sql"] is None


def test_a_file_that_matches_the_live_server_draws_nothing_about_the_next_restart() -> None:
    result = _audit("file_matches_live.cnf")
    assert not result["drift"]
    # live_only.lost_at_restart speaks of the next restart for what the file does NOT set (the corpus
    # server's binlog_expire_logs_seconds, from a Debian drop-in not uploaded here); nothing the file sets
    drifted = [f for f in result["findings"] if "next restart" in f["rationale"]]
    assert [f["rule"] for f in drifted] == ["live_only.lost_at_restart"] * len(drifted)
    assert "binlog_expire_logs_seconds" in {f["variable"] for f in drifted}
    assert not [
        f for f in result["findings"] if (f["variable"] or "").startswith(("innodb_flush_log", "innodb_dou"))
    ]


def _rerun(mycnf: str) -> tuple[Any, list[str]]:
    """The context after a first run of every rule, and the ids of the rules the file's values rerun."""
    from advisor.after_restart import rules_to_rerun
    from advisor.engine import build_context, parse_inputs, run_rules

    inputs = AuditInputs(
        mycnf={"/etc/mysql/my.cnf": mycnf},
        variables=corpus_file(f"{SYSBENCH}.global_variables.tsv").read_text(),
        memory="24G",
        cpus=2,
        storage="ssd",
    )
    ctx = build_context(parse_inputs(inputs), inputs)
    reads: dict[str, set[str] | None] = {}
    run_rules(ctx, reads=reads)
    return ctx, [rule.id for rule in rules_to_rerun(ctx, reads)]


def test_only_the_rules_that_read_a_drifted_setting_run_again() -> None:
    """Rules are pure functions of the context: a drifted name none of them looked up (a pid file's
    path) cannot change what they find, so nothing runs again for it; a drifted durability setting
    reruns its rule, and a derived fact's reads count for every rule that takes it from the cache."""
    ctx, rerun = _rerun("[mysqld]\npid_file = /run/elsewhere.pid\n")
    assert [setting.name for setting in ctx.config.drift] == ["pid_file"]
    assert rerun == []
    _, rerun = _rerun("[mysqld]\npid_file = /run/elsewhere.pid\ninnodb_flush_log_at_trx_commit = 0\n")
    assert "durability.flush_log_at_trx_commit" in rerun
    assert "buffer_pool.undersized" not in rerun
    _, rerun = _rerun("[mysqld]\nkey_buffer_size = 2G\n")  # in the memory budget, a derived fact
    assert {"memory.overcommitted", "buffer_pool.undersized"} <= set(rerun)


def test_rerunning_only_the_rules_that_read_drift_finds_what_rerunning_all_of_them_finds() -> None:
    """Every real-world my.cnf of the corpus against the live sysbench dump (drift on many settings):
    the findings of the selective rerun are exactly those of running every rule again."""
    from advisor.after_restart import with_the_file_at_restart
    from advisor.engine import build_context, parse_inputs, run_rules
    from advisor.errors import InputError

    variables = corpus_file(f"{SYSBENCH}.global_variables.tsv").read_text()
    compared = 0
    for path in sorted(corpus_file("realworld/mycnf").iterdir()):
        inputs = AuditInputs(
            mycnf={f"/etc/mysql/{path.name}": path.read_text()}, variables=variables, memory="24G"
        )
        try:
            ctx = build_context(parse_inputs(inputs), inputs)
        except InputError:
            continue
        reads: dict[str, set[str] | None] = {}
        found = run_rules(ctx, reads=reads)
        selective = with_the_file_at_restart(ctx, found, reads, run_rules)
        everything = {rule: None for rule in reads}  # as if every rule had read every setting
        full = with_the_file_at_restart(ctx, found, everything, run_rules)
        assert selective == full, path.name
        compared += bool(ctx.config.drift)
    assert compared >= 20


def _with_live(case: str, **live: str) -> dict[str, Any]:
    """The sysbench dump with some live values replaced."""
    lines = corpus_file(f"{SYSBENCH}.global_variables.tsv").read_text().splitlines()
    replaced = [
        f"{name}\t{live[name]}" if (name := line.partition("\t")[0]) in live else line for line in lines
    ]
    inputs = AuditInputs(
        mycnf={"/etc/mysql/my.cnf": (HERE / case).read_text()},
        variables="\n".join(replaced) + "\n",
        memory="16G",
        cpus=8,
        storage="ssd",
    )
    return run_audit(inputs).to_dict()


def test_a_numeric_value_that_reads_as_a_boolean_on_one_side_is_still_drift() -> None:
    result = _audit("relaxed_two_in_file.cnf")
    drift = {entry["name"]: entry for entry in result["drift"]}
    assert drift["innodb_flush_log_at_trx_commit"]["file_value"] == "2"
    flush = _by_variable(result)["innodb_flush_log_at_trx_commit"]
    assert (flush["current"], flush["recommended"]) == ("2", "1")


def test_a_finding_only_the_file_shows_never_carries_sql_for_the_running_server() -> None:
    result = _with_live("pool_smaller_in_file.cnf", innodb_buffer_pool_size=str(12 << 30))
    pool = _by_variable(result)["innodb_buffer_pool_size"]
    assert pool["current"] == "128M" and pool["rationale"].startswith("At the next restart")
    assert pool["apply_sql"] is None and pool["restart_required"] is False


def test_where_both_runs_change_a_variable_the_files_values_decide() -> None:
    """Live max_connections 151 and a 128M pool: the live run sizes the pool for 151 connections;
    the file brings back 20000, and the pool we write must fit those."""
    result = _with_live("many_connections_in_file.cnf")
    pool = _by_variable(result)["innodb_buffer_pool_size"]
    alone = _by_variable(_audit("many_connections_in_file.cnf", variables=False, memory="16G", cpus=8))
    alone = alone["innodb_buffer_pool_size"]
    assert pool["recommended"] == alone["recommended"]
    assert pool["rationale"].startswith("At the next restart")
    assert pool["apply_sql"] is not None  # the live pool is too small by both runs: raised live too


def test_where_the_files_run_leaves_the_pool_no_room_the_live_raise_is_dropped() -> None:
    """The live run (151 connections, 2M sort buffers) raises the 128M pool; the file brings back 3000
    connections with 256M sort buffers, which overcommit memory before the pool grows at all: the
    file's verdict wins — the pool stays, the finding says why, and no SQL raises it live either."""
    result = _with_live("overcommitted_in_file.cnf")
    pool = _by_variable(result)["innodb_buffer_pool_size"]
    assert pool["recommended"] is None and pool["apply_sql"] is None
    assert pool["rationale"].startswith("At the next restart")
    assert "no room to grow" in pool["title"] and "must come down by" in pool["rationale"]
    assert "innodb_buffer_pool_size" not in result["diff"]
    sort = _by_variable(result)["sort_buffer_size"]
    assert (sort["rule"], sort["recommended"]) == ("memory.per_connection_buffer_raised", "2M")


def _status_without_misses() -> tuple[str, str]:
    """The sysbench status pair, with no page read from disk between the two snapshots (0% misses)."""
    first = corpus_file(f"{SYSBENCH}.global_status.t20s.tsv").read_text()
    last = corpus_file(f"{SYSBENCH}.global_status.tsv").read_text()
    reads = re.search(r"^Innodb_buffer_pool_reads\t(\d+)$", last, re.M)
    assert reads is not None
    return re.sub(r"^Innodb_buffer_pool_reads\t\d+$", reads.group(0), first, flags=re.M), last


def test_a_miss_rate_measured_under_the_live_pool_says_nothing_of_the_files_smaller_pool() -> None:
    """The pool was raised live to 12G and misses nothing; the file still says 128M, which the server
    runs after a restart. The 0% was measured under 12G: it must not keep the file's 128M line."""
    variables = corpus_file(f"{SYSBENCH}.global_variables.tsv").read_text()
    live = re.sub(
        r"^innodb_buffer_pool_size\t\d+$", f"innodb_buffer_pool_size\t{12 << 30}", variables, flags=re.M
    )
    mycnf = {"/etc/mysql/my.cnf": (HERE / "pool_smaller_in_file.cnf").read_text()}
    common = {"status": _status_without_misses(), "memory": "24G", "cpus": 2, "storage": "ssd"}
    result = run_audit(AuditInputs(mycnf=mycnf, variables=live, **common)).to_dict()
    pool = _by_variable(result)["innodb_buffer_pool_size"]
    assert (pool["current"], pool["recommended"]) == ("128M", "16G")
    assert (
        "measured under the running pool of 12 GiB and says nothing of a pool of 128 MiB" in pool["rationale"]
    )
    assert pool["apply_sql"] is None  # the running 12G pool is fine
    # Measured under the very pool judged (no drift), the same 0% is evidence the pool suffices.
    same = run_audit(AuditInputs(mycnf=mycnf, variables=variables, **common)).to_dict()
    assert "innodb_buffer_pool_size" not in _by_variable(same)
