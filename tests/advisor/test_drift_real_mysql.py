"""Drift and live SQL against real MySQL servers: mysqld 8.0.46 and 5.7.42 (Ubuntu builds) started from
exactly drift_inputs/mysql-8.0.46/my.cnf and drift_inputs/mysql-5.7.42/my.cnf, their SHOW GLOBAL VARIABLES
saved beside. What each server did with the lines is in its error log, quoted in the assertions: a boolean
the server shows as ON is no drift from the file's `1`, a 1 KiB-block size runs rounded, and the values it
could not run (capped, ignored, refused) carry a reason and no SQL."""

from __future__ import annotations

from pathlib import Path

import pytest

from advisor.audit import AuditInputs, run_audit
from advisor.catalog import get_catalog
from advisor.sql import apply_sql, refused_at_runtime
from advisor.version import parse_version

INPUTS = Path(__file__).parent / "drift_inputs"


def _audit(server: str, cnf: str | None = None, profile: str = "production") -> tuple[dict, dict]:  # type: ignore[type-arg]
    folder = INPUTS / server
    text = (folder / "my.cnf").read_text() if cnf is None else cnf
    variables = (folder / "variables.tsv").read_text()
    result = run_audit(AuditInputs(mycnf={"/etc/mysql/my.cnf": text}, variables=variables, profile=profile))
    drift = {entry.setting.name: entry.to_dict() for entry in result.drift}
    findings: dict[str, list[object]] = {}
    for finding in result.findings:
        findings.setdefault(finding.rule, []).append(finding)
    return drift, findings


def _with(server: str, old: str, new: str) -> str:
    text = (INPUTS / server / "my.cnf").read_text()
    assert old in text
    return text.replace(old, new)


def test_mysql80_runs_its_booleans_and_blocks_as_the_file_says() -> None:
    """8.0.46 shows `1` as ON and `0` as OFF for names outside the catalog (log_slow_slave_statements,
    innodb_print_ddl_logs, innodb_status_output_locks) and runs query_alloc_block_size 10000 as 9216: no drift.
    What stays is what the server could not run, each with its reason and no SQL."""
    drift, _ = _audit("mysql-8.0.46")
    assert set(drift) == {
        "innodb_print_all_deadlocks",
        "expire_logs_days",
        "innodb_open_files",
        "open_files_limit",
    }
    for entry in drift.values():
        assert entry["apply_sql"] is None and entry["reason"]
    # Raising the open-files limit (LimitNOFILE) takes a restart, and the reason says so; a value that can
    # never run (ignored beside another option, or no boolean) is fixed in the file alone.
    restarts = {name: entry["restart_required"] for name, entry in drift.items()}
    assert restarts == {
        "innodb_print_all_deadlocks": False,
        "expire_logs_days": False,
        "innodb_open_files": True,
        "open_files_limit": True,
    }


def test_mysql80_values_it_could_not_run_say_why() -> None:
    """`yes` is no boolean to 8.0.46 ("boolean value 'yes' was not recognized. Set to OFF"); innodb_open_files
    above open_files_limit is ignored ("should not be greater than the open_files_limit"); expire_logs_days
    beside binlog_expire_logs_seconds is ignored (MY-011079) and SET refuses it (ERROR 3683)."""
    drift, _ = _audit("mysql-8.0.46")
    assert "'yes'" in str(drift["innodb_print_all_deadlocks"]["reason"])
    assert "innodb_print_all_deadlocks = ON" in str(drift["innodb_print_all_deadlocks"]["reason"])
    assert "open_files_limit 20000" in str(drift["innodb_open_files"]["reason"])
    assert "ERROR 3683" in str(drift["expire_logs_days"]["reason"])


def test_mysql80_ignored_undo_tablespaces_is_a_line_to_comment_out_not_drift() -> None:
    """innodb_undo_tablespaces = 95 runs as 2 on 8.0.46 ("deprecated and is no longer used"): the catalog calls
    it ignored from 8.0.14, so config_validity comments it out and drift does not offer a restart for it."""
    drift, findings = _audit("mysql-8.0.46")
    assert "innodb_undo_tablespaces" not in drift
    ignored = findings["config_validity.ignored_option"]
    assert any(f.variable == "innodb_undo_tablespaces" and f.change == "comment_out" for f in ignored)  # type: ignore[attr-defined]


def test_expire_logs_days_beside_the_seconds_is_commented_out_on_mysql80() -> None:
    """The file sets both retention options: a warning comments expire_logs_days out; no SQL for it anywhere."""
    drift, findings = _audit("mysql-8.0.46")
    (finding,) = findings["replication.expire_logs_days_ignored"]
    assert finding.change == "comment_out" and finding.apply_sql is None  # type: ignore[attr-defined]
    assert drift["expire_logs_days"]["apply_sql"] is None


def test_a_name_outside_the_catalog_does_not_claim_a_restart() -> None:
    """A real change to log_slow_slave_statements (not in the catalog) is drift, but whether SET GLOBAL takes it
    is not on record: restart_required is None, not True."""
    drift, _ = _audit(
        "mysql-8.0.46",
        _with("mysql-8.0.46", "log_slow_slave_statements = 1", "log_slow_slave_statements = 0"),
    )
    entry = drift["log_slow_slave_statements"]
    assert (entry["apply_sql"], entry["restart_required"], entry["reason"]) == (None, None, None)


def test_optimizer_switch_drift_gets_live_sql() -> None:
    """optimizer_switch is dynamic: a flag the server does not run yet gets SET PERSIST (ran on 8.0.46)."""
    cnf = _with(
        "mysql-8.0.46", "optimizer_switch = 'index_merge=off'", "optimizer_switch = 'index_merge=on,mrr=off'"
    )
    drift, _ = _audit("mysql-8.0.46", cnf)
    assert (
        drift["optimizer_switch"]["apply_sql"] == "SET PERSIST optimizer_switch = 'index_merge=on,mrr=off';"
    )


def test_doublewrite_at_its_default_is_not_lost_at_restart() -> None:
    """8.0.46 shows innodb_doublewrite ON (an enum since 8.0.30), the catalog's default is True: the same,
    so live_only has nothing to keep."""
    _, findings = _audit("mysql-8.0.46")
    assert not [
        f for f in findings.get("live_only.lost_at_restart", []) if f.variable == "innodb_doublewrite"
    ]  # type: ignore[attr-defined]


def test_ci_doublewrite_off_needs_a_restart() -> None:
    """The ci profile turns the doublewrite buffer off; 8.0.46 refuses that while running (ERROR 1210 "cannot
    change doublewrite mode to OFF ... Please shutdown") and refuses to persist it (ERROR 1238): no SQL."""
    _, findings = _audit("mysql-8.0.46", profile="ci")
    (finding,) = [f for f in findings["durability.ci_relaxations"] if f.variable == "innodb_doublewrite"]  # type: ignore[attr-defined]
    assert (finding.recommended, finding.apply_sql, finding.restart_required) == ("OFF", None, True)  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    ("current", "target", "refused"),
    [
        ("ON", "OFF", True),
        ("OFF", "ON", True),
        ("OFF", "DETECT_ONLY", True),
        ("ON", "DETECT_ONLY", False),
        ("DETECT_AND_RECOVER", "ON", False),
        ("1", "OFF", True),
        ("ON", "ON", False),
    ],
)
def test_doublewrite_switches_live_only_between_enabled_modes(
    current: str, target: str, refused: bool
) -> None:
    """8.0.46: ON ↔ DETECT_ONLY ↔ DETECT_AND_RECOVER ran with SET GLOBAL; to or from OFF failed (ERROR 1210)."""
    catalog, version = get_catalog(), parse_version("8.0.46")
    assert refused_at_runtime(catalog, version, "innodb_doublewrite", current, target) is refused


def test_variables_mysql_will_not_persist_get_set_global() -> None:
    """SET PERSIST innodb_doublewrite fails on 8.0.46 (ERROR 1238 "non persistent variable"); SET GLOBAL ran."""
    catalog, version = get_catalog(), parse_version("8.0.46")
    assert apply_sql(catalog, version, "innodb_doublewrite", "DETECT_ONLY") == (
        "SET GLOBAL innodb_doublewrite = 'DETECT_ONLY';"
    )
    assert apply_sql(catalog, version, "sync_binlog", "1") == "SET PERSIST sync_binlog = 1;"


def test_mysql57_booleans_and_open_files() -> None:
    """5.7.42 shows binlog_gtid_simple_recovery = 1 and log_slow_slave_statements = 1 as ON, query_alloc_block_size
    10000 as 9216: no drift; innodb_open_files 65535 above open_files_limit 20000 ran as 2048, with its reason."""
    drift, _ = _audit("mysql-5.7.42")
    assert set(drift) == {"innodb_open_files", "open_files_limit"}
    assert "open_files_limit 20000" in str(drift["innodb_open_files"]["reason"])


@pytest.mark.parametrize(
    ("written", "differs"), [("yes", True), ("enabled", True), ("no", False), ("ON", True)]
)
def test_loose_boolean_words_never_ran(written: str, differs: bool) -> None:
    """`yes`/`enabled` are no booleans to the option parser (8.0.46 warned and ran OFF): drift with a reason and
    no SQL; `no` meant OFF, which runs, so no drift; a real ON is plain drift with SQL."""
    cnf = _with("mysql-8.0.46", "innodb_print_all_deadlocks = yes", f"innodb_print_all_deadlocks = {written}")
    drift, _ = _audit("mysql-8.0.46", cnf)
    entry = drift.get("innodb_print_all_deadlocks")
    assert (entry is not None) is differs
    if entry is not None and written != "ON":
        assert entry["apply_sql"] is None and "ignored the line" in str(entry["reason"])
    if entry is not None and written == "ON":
        assert (
            entry["apply_sql"] == "SET PERSIST innodb_print_all_deadlocks = ON;" and entry["reason"] is None
        )
