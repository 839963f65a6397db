"""The `innotune` command line: its subcommands and the stubs of those not built yet."""

from __future__ import annotations

import subprocess
import sys

import pytest
from click.testing import CliRunner

from cli.main import cli

SUBCOMMANDS = ("audit", "serve", "worker", "beat", "migrate", "admin", "collect")
NOT_YET = (["collect", "--host", "db1"],)


def test_help_lists_every_subcommand() -> None:
    """`innotune --help` names audit, serve, worker, beat, migrate, admin and collect."""
    result = CliRunner().invoke(cli, ["--help"])
    assert result.exit_code == 0
    listed = {line.split()[0] for line in result.output.split("Commands:")[1].splitlines() if line.strip()}
    assert listed == set(SUBCOMMANDS)


@pytest.mark.parametrize("argv", NOT_YET, ids=lambda argv: argv[0])
def test_unbuilt_subcommands_exit_2_saying_so(argv: list[str]) -> None:
    """A subcommand whose issue has not landed exits 2 with "not implemented yet"."""
    result = CliRunner().invoke(cli, argv)
    assert result.exit_code == 2
    assert "not implemented yet" in result.output


def test_console_script_runs_as_a_module() -> None:
    """`python -m cli.main --help` works, which is what the worker fixture relies on."""
    completed = subprocess.run(
        [sys.executable, "-m", "cli.main", "--help"], capture_output=True, text=True, timeout=60, check=False
    )
    assert completed.returncode == 0
    assert "migrate" in completed.stdout
