"""The rerun over the values a restart brings (advisor.after_restart) names mysqld-auto.cnf, not the option
file, when the departing value is a persisted one (capture of a real 8.0.46: tests/fixtures/persisted_mysql80)."""

from __future__ import annotations

from pathlib import Path

from advisor.audit import AuditInputs, run_audit

CAPTURE = Path(__file__).parents[1] / "fixtures" / "persisted_mysql80"


def test_restart_rerun_names_the_persisted_value_as_what_comes_back() -> None:
    """innodb_flush_log_at_trx_commit runs 1 over a persisted 2 (added to the capture; no file line): the
    finding about the restart says mysqld-auto.cnf sets 2, and its SQL removes the persisted value."""
    result = run_audit(
        AuditInputs(
            mycnf={"/etc/mysql/my.cnf": (CAPTURE / "my.cnf").read_text()},
            variables=(CAPTURE / "variables.tsv").read_text(),
            persisted=(CAPTURE / "persisted.tsv").read_text() + "innodb_flush_log_at_trx_commit\t2\n",
            memory="8G",
            cpus=2,
            storage="ssd",
        )
    )
    about_restart = [f for f in result.findings if f.rationale.startswith("At the next restart")]
    assert [f.variable for f in about_restart] == ["innodb_flush_log_at_trx_commit"]
    finding = about_restart[0]
    assert (
        "mysqld-auto.cnf (SET PERSIST) sets innodb_flush_log_at_trx_commit = 2 (live now: 1)"
        in finding.rationale
    )
    assert "mysqld-auto.cnf's persisted values over them" in finding.rationale
    assert finding.apply_sql == "RESET PERSIST IF EXISTS innodb_flush_log_at_trx_commit;"
