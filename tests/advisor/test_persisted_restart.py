"""The rerun over the values a restart brings (advisor.after_restart) names mysqld-auto.cnf, not the option
file, when the departing value is a persisted one (capture of a real 8.0.46: tests/fixtures/persisted_mysql80)."""

from __future__ import annotations

from pathlib import Path

from advisor.audit import AuditInputs, run_audit

CAPTURE = Path(__file__).parents[1] / "fixtures" / "persisted_mysql80"


def test_restart_rerun_names_the_persisted_value_as_what_comes_back() -> None:
    """innodb_io_capacity runs 2000 over a persisted 1000 and a file's 400: a finding about the restart
    says mysqld-auto.cnf sets 1000, never that the file's 400 comes back."""
    result = run_audit(
        AuditInputs(
            mycnf={"/etc/mysql/my.cnf": (CAPTURE / "my.cnf").read_text()},
            variables=(CAPTURE / "variables.tsv").read_text(),
            persisted=(CAPTURE / "persisted.tsv").read_text(),
            memory="8G",
            cpus=2,
            storage="ssd",
        )
    )
    about_restart = [f for f in result.findings if f.rationale.startswith("At the next restart")]
    assert about_restart
    for finding in about_restart:
        assert (
            "mysqld-auto.cnf (SET PERSIST) sets innodb_io_capacity = 1000 (live now: 2000)"
            in finding.rationale
        )
        assert "innodb_io_capacity = 400" not in finding.rationale
        assert "mysqld-auto.cnf's persisted values over them" in finding.rationale
