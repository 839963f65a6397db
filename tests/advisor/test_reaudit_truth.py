"""A re-audit of our own recommended file tells the truth: a value in the file but not running yet is
drift (restart or run the SQL), never fixed; the diff holds no no-op lines and never rewrites a value
no finding asks to change (an existing `log-bin = mysql-bin` stays)."""

from __future__ import annotations

from typing import Any

from advisor.audit import AuditInputs, run_audit
from advisor.model import Role
from advisor.unidiff import unified_diff
from tests.corpus import corpus_file

SYSBENCH = "mariadb-10.11-sysbench/s02_load_rw_default"
POOL = "innodb_buffer_pool_size"


def _text(suffix: str) -> str:
    return corpus_file(f"{SYSBENCH}.{suffix}").read_text()


def _audit(mycnf: str, *, variables: bool = True) -> dict[str, Any]:
    inputs = AuditInputs(
        mycnf={"/etc/mysql/my.cnf": mycnf},
        variables=_text("global_variables.tsv") if variables else None,
        status=(_text("global_status.t20s.tsv"), _text("global_status.tsv")),
        memory="24G",
        cpus=2,
        storage="ssd",
        role=Role.PRIMARY,
        server_version=None if variables else "10.11.6-MariaDB",
    )
    return run_audit(inputs).to_dict()


def _finding(result: dict[str, Any], variable: str) -> dict[str, Any]:
    return next(finding for finding in result["findings"] if finding["variable"] == variable)


def test_an_existing_log_bin_base_name_is_never_rewritten() -> None:
    """The live server runs without a binary log but the file enables it as `mysql-bin`: the finding
    says restart, the file keeps its base name (replicas and backups follow it), the drift says so."""
    result = _audit("[mysqld]\nlog-bin = mysql-bin\n")
    changed = [line for line in result["diff"].splitlines() if line[:1] in "+-"]
    assert not [line for line in changed if "log-bin" in line or "log_bin" in line]
    assert "log-bin = mysql-bin\n" in result["mycnf"]
    finding = _finding(result, "log_bin")
    assert finding["rule"] == "replication.binlog_off_on_primary"
    assert finding["recommended"] is None
    assert "restart" in finding["rationale"]
    drift = {entry["name"]: entry for entry in result["drift"]}
    assert drift["log_bin"]["file_value"] == "mysql-bin"
    assert drift["log_bin"]["live_value"] == "OFF"
    assert drift["log_bin"]["restart_required"] is True


def test_reaudit_of_the_recommended_file_with_unchanged_live_values_keeps_the_pool_finding() -> None:
    """The recommended file installed, the server not restarted: the pool finding stays (the server
    still runs 128 MiB), the diff is empty of no-ops, and the drift says how to apply each value."""
    first = _audit("[mysqld]\ninnodb_flush_log_at_trx_commit = 1\n")
    recommended = _finding(first, POOL)["recommended"]
    again = _audit(first["mycnf"])
    finding = _finding(again, POOL)
    assert finding["current"] == "128M" and finding["recommended"] == recommended
    assert f"+{POOL}" not in again["diff"] and f"-{POOL}" not in again["diff"]
    drift = {entry["name"]: entry for entry in again["drift"]}
    assert drift[POOL]["file_value"] == recommended
    assert drift[POOL]["live_value"] == "134217728"
    assert drift[POOL]["apply_sql"].startswith(f"SET GLOBAL {POOL} = ")
    assert drift[POOL]["restart_required"] is False


def test_without_a_variables_dump_the_status_shows_the_running_pool() -> None:
    """No SHOW GLOBAL VARIABLES: Innodb_buffer_pool_pages_total × Innodb_page_size is the running pool,
    so a file saying 16G is not taken as applied; the evidence names the status as its source."""
    again = _audit("[mysqld]\ninnodb_buffer_pool_size = 16G\n", variables=False)
    finding = _finding(again, POOL)
    assert finding["current_value"] == 8112 * 16384
    sources = [item["source"] for item in finding["evidence"] if item["label"] == POOL]
    assert sources == ["SHOW GLOBAL STATUS (Innodb_buffer_pool_pages_total × Innodb_page_size)"]
    drift = {entry["name"]: entry for entry in again["drift"]}
    assert drift[POOL]["file_value"] == "16G"


def test_a_pool_file_that_matches_the_status_is_no_drift() -> None:
    """MariaDB counts about 1% fewer pages than the size: a file of 128M matches 8112 pages of 16 KiB."""
    result = _audit("[mysqld]\ninnodb_buffer_pool_size = 128M\n", variables=False)
    assert POOL not in {entry["name"] for entry in result["drift"]}


def test_a_line_written_back_unchanged_is_no_diff() -> None:
    """An edited copy whose line reads as before (origin lost, text the same) gives no `-x`/`+x` pair."""
    old = ["[mysqld]\n", "log_bin = binlog\n", "port = 3306\n"]
    new = ["[mysqld]\n", "log_bin = binlog\n", "port = 3306\n"]
    assert unified_diff("/etc/my.cnf", old, new, [1, None, 3]) == ""
    changed = unified_diff("/etc/my.cnf", old, [*new[:2], "port = 3307\n"], [1, None, None])
    assert "-log_bin" not in changed and "+port = 3307" in changed


def test_evidence_names_its_true_source() -> None:
    """innodb_io_capacity_max judged against the io_capacity we recommend cites that value as our
    recommendation, not as read from SHOW GLOBAL VARIABLES."""
    variables = _text("global_variables.tsv").replace(
        "innodb_io_capacity_max\t2000", "innodb_io_capacity_max\t300"
    )
    result = run_audit(AuditInputs(variables=variables, memory="24G", storage="ssd")).to_dict()
    finding = next(f for f in result["findings"] if f["rule"] == "flushing.io_capacity_max")
    by_label = {item["label"]: item for item in finding["evidence"]}
    assert by_label["innodb_io_capacity_max"]["source"] == "SHOW GLOBAL VARIABLES"
    assert by_label["innodb_io_capacity (recommended)"]["source"] == "recommended by flushing.io_capacity"
