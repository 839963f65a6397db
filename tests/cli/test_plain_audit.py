"""The console script reads a plain `innotune audit` command line without click (cli.audit_options):
it must answer exactly as click's command does — output, messages, exit status — and leave every
other command line to click."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.corpus import CORPUS

SYSBENCH = CORPUS / "mariadb-10.11-sysbench"
VARIABLES = str(SYSBENCH / "s02_load_rw_default.global_variables.tsv")
FULL = [
    "--variables", VARIABLES,
    "--status", str(SYSBENCH / "s02_load_rw_default.global_status.t20s.tsv"),
    "--status", str(SYSBENCH / "s02_load_rw_default.global_status.tsv"),
    "--innodb-status", str(SYSBENCH / "s02_load_rw_default.innodb_status.txt"),
    "--schema", str(SYSBENCH / "s02_load_rw_default.is_tables.tsv"),
    "--memory", "24G", "--cpus", "2", "--storage", "ssd",
]  # fmt: skip
#: the console script's entry point, and click's command with the same program name
SCRIPT = "import sys; sys.argv[0] = 'innotune'; import cli; cli.main()"
CLICK = "import sys; sys.argv[0] = 'innotune'; from cli.main import main; main()"


def _run(entry: str, args: list[str]) -> tuple[int, str, str]:
    done = subprocess.run(
        [sys.executable, "-c", entry, "audit", *args], capture_output=True, timeout=120, check=False
    )
    return done.returncode, done.stdout.decode(errors="replace"), done.stderr.decode(errors="replace")


def _cases(tmp: Path) -> list[list[str]]:
    mycnf = tmp / "my.cnf"
    mycnf.write_text("[mysqld]\ninnodb_buffer_pool_size = 1G\n# café — tuned\n")
    manifest = tmp / "manifest.json"
    manifest.write_text('{"role": {"role": "boss"}}')
    version = ["--server-version", "10.11.6-MariaDB"]
    return [
        [*FULL, "--format", "json"],
        FULL,
        [*FULL, "--format=diff", "--profile=ci", "--role", "replica"],
        [*version, "--mycnf", str(mycnf), "--format", "mycnf"],
        [*version, "--mycnf", str(mycnf), "--format", "dropin"],
        ["--variables", str(mycnf)],  # bad input: exit 2 naming file and line
        ["--variables", str(tmp / "missing.tsv")],  # click's usage error, after the plain run gave up
        ["--variables", str(tmp)],  # a directory: click refuses it
        ["--cpus", "two"],
        ["--storage", "SSD"],
        ["--format"],
        ["--status", VARIABLES, "--status", VARIABLES, "--status", VARIABLES],
        ["--variables", VARIABLES, "--manifest", str(manifest)],
        ["--bogus"],
        ["stray"],
        ["--help"],
    ]


def test_the_plain_path_answers_as_click_does(tmp_path: Path) -> None:
    for args in _cases(tmp_path):
        assert _run(SCRIPT, args) == _run(CLICK, args), args


@pytest.mark.parametrize(
    ("args", "clicked"),
    [
        (["--variables", VARIABLES, "--memory", "8G", "--format", "json"], False),
        (["--variables", VARIABLES, "--help"], True),
        (["--variables", VARIABLES, "--output-dir", "out"], True),
    ],
)
def test_only_unusual_command_lines_import_click(args: list[str], clicked: bool) -> None:
    code = (
        f"import sys; sys.argv = ['innotune', 'audit', *{args!r}]\n"
        "import cli\n"
        "try:\n"
        "    cli.main()\n"
        "except SystemExit:\n"
        "    pass\n"
        "print('click' in sys.modules, file=sys.stderr)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=False
    )
    assert done.stderr.splitlines()[-1] == str(clicked)
