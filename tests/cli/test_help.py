"""The `innotune` command line: its subcommands, and that it runs as a module."""

from __future__ import annotations

import subprocess
import sys

from click.testing import CliRunner

from cli.main import cli

SUBCOMMANDS = ("audit", "serve", "worker", "beat", "migrate", "admin", "collect", "health")


def test_help_lists_every_subcommand() -> None:
    """`innotune --help` names audit, serve, worker, beat, migrate, admin, collect and health."""
    result = CliRunner().invoke(cli, ["--help"])
    assert result.exit_code == 0
    listed = {line.split()[0] for line in result.output.split("Commands:")[1].splitlines() if line.strip()}
    assert listed == set(SUBCOMMANDS)


def test_console_script_runs_as_a_module() -> None:
    """`python -m cli.main --help` works, which is what the worker fixture relies on."""
    completed = subprocess.run(
        [sys.executable, "-m", "cli.main", "--help"], capture_output=True, text=True, timeout=60, check=False
    )
    assert completed.returncode == 0
    assert "migrate" in completed.stdout
