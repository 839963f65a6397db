"""`innotune collect` as a command: its flags, its usage errors, and that `audit` does not pay for it."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from cli.main import cli

#: The synopsis of the issue: `innotune collect --host H [--port P] [--socket S] --user U
#: [--password-file F] [--interval 60] (--output DIR | --upload URL --api-key K --server ID)`, and
#: `--no-local-facts`; issue 15 added `--probe-storage` (with its `--no-` form) and `--audit`.
ISSUE_FLAGS = {
    "--probe-storage",
    "--audit",
    "--host",
    "--port",
    "--socket",
    "--user",
    "--password-file",
    "--interval",
    "--output",
    "--upload",
    "--api-key",
    "--server",
    "--no-local-facts",
}

UNREACHABLE = ["collect", "--host", "127.0.0.1", "--port", "1", "--user", "u"]


def test_help_lists_exactly_the_flags_of_the_issue() -> None:
    """`innotune collect --help` shows the issue's flags, no more, no fewer (besides --help)."""
    result = CliRunner().invoke(cli, ["collect", "--help"])
    assert result.exit_code == 0
    listed = set(re.findall(r"^\s+(--[a-z-]+)", result.output, re.M)) - {"--help"}
    assert listed == ISSUE_FLAGS
    assert "[default: 60" in result.output


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--host", "db1", "--user", "u"], "either --output DIR or --upload URL"),
        (["--host", "db1", "--user", "u", "--output", "d", "--upload", "http://x"], "either --output"),
        (["--host", "db1", "--user", "u", "--upload", "http://x", "--server", "s"], "needs --api-key"),
        (["--host", "db1", "--user", "u", "--output", "d", "--server", "s"], "go with --upload"),
        (["--user", "u", "--output", "d"], "give --host"),
        (["--host", "db1", "--user", "u", "--output", "d", "--interval", "0"], "--interval"),
        (["--host", "db1", "--user", "u", "--output", "d", "--interval", "9"], "--interval 9 is too short"),
        (
            [
                "--host",
                "db1",
                "--user",
                "u",
                "--upload",
                "http://x",
                "--api-key",
                "k",
                "--server",
                "s",
                "--audit",
            ],
            "--audit goes with --output",
        ),
        (["--host", "db1", "--output", "d"], "--user"),
    ],
)
def test_usage_errors_exit_2(argv: list[str], message: str) -> None:
    """A wrong combination of flags is refused before connecting, with exit status 2."""
    result = CliRunner().invoke(cli, ["collect", *argv], env={"INNOTUNE_API_KEY": ""})
    assert result.exit_code == 2
    assert message in result.output


def test_an_unreachable_server_exits_1_naming_it(tmp_path: Path) -> None:
    """Nothing listens on port 1: exit 1 with `cannot connect to u@127.0.0.1:1`, no traceback."""
    result = CliRunner().invoke(cli, [*UNREACHABLE, "--output", str(tmp_path)])
    assert result.exit_code == 1
    assert "cannot connect to u@127.0.0.1:1" in result.output
    assert "Traceback" not in result.output


def test_a_missing_password_file_exits_1(tmp_path: Path) -> None:
    """--password-file that cannot be read is reported before any connection is tried."""
    result = CliRunner().invoke(
        cli,
        [*UNREACHABLE, "--password-file", "/nonexistent/pw", "--output", str(tmp_path)],
    )
    assert result.exit_code == 1
    assert "/nonexistent/pw: cannot read the password file" in result.output


def test_starting_the_cli_imports_no_collector_module() -> None:
    """`innotune audit` stays fast: neither the collector, PyMySQL nor httpx load with cli.main."""
    code = "import sys, cli.main; print(sorted(m for m in sys.modules if m.split('.')[0] in ('collector', 'pymysql', 'httpx')))"
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True)
    assert run.stdout.strip() == "[]"
