"""`innotune audit --persisted`: MySQL 8.0+'s persisted values (a capture of a real 8.0.46,
tests/fixtures/persisted_mysql80) read by both ways the command line is parsed, and refused naming file
and line."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from click.testing import CliRunner

from cli.main import cli

CAPTURE = Path(__file__).parents[1] / "fixtures" / "persisted_mysql80"
FACTS = ["--memory", "8G", "--cpus", "2", "--storage", "ssd", "--format", "json"]


def _arguments(persisted: Path) -> list[str]:
    return [
        "audit", "--mycnf", str(CAPTURE / "my.cnf"), "--variables", str(CAPTURE / "variables.tsv"),
        "--persisted", str(persisted), *FACTS,
    ]  # fmt: skip


def _drift(stdout: str) -> dict[str, dict[str, object]]:
    return {entry["name"]: entry for entry in json.loads(stdout)["drift"]}


def test_persisted_flag_takes_the_persisted_value_as_what_a_restart_brings() -> None:
    """With --persisted, the live max_connections 300 that mysqld-auto.cnf persists is no drift from the
    file's 200 (without it, the audit offered `SET PERSIST max_connections = 200`, undoing the DBA's own
    SET PERSIST); the I/O capacity set live over its persisted 1000 is drift from 1000."""
    result = CliRunner().invoke(cli, _arguments(CAPTURE / "persisted.tsv"))
    assert result.exit_code in (0, 1), result.stderr
    drift = _drift(result.stdout)
    assert "max_connections" not in drift
    assert drift["innodb_io_capacity"]["apply_sql"] == "SET PERSIST innodb_io_capacity = 1000;"


def test_the_console_script_reads_mysqld_auto_cnf_given_with_persisted() -> None:
    """The fast command-line path (no click) passes --persisted too; the datadir's file itself is read."""
    done = subprocess.run(
        [sys.executable, "-c", "import cli; cli.main()", *_arguments(CAPTURE / "mysqld-auto.cnf")],
        capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert done.returncode in (0, 1), done.stderr
    assert "max_connections" not in _drift(done.stdout)


def test_bad_persisted_file_exits_2_naming_file_and_line(tmp_path: Path) -> None:
    """A line no listing has exits 2 with `file:line:` on stderr."""
    broken = tmp_path / "persisted.tsv"
    broken.write_text("VARIABLE_NAME\tVARIABLE_VALUE\nmax_connections\t300\n+---+\n")
    result = CliRunner().invoke(cli, _arguments(broken))
    assert result.exit_code == 2
    assert f"{broken}:3:" in result.stderr
