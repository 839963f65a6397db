"""What `innotune` imports before it does anything: `--help` and `--version` cost click alone, and
`innotune audit` never builds a pydantic model or touches the service layers."""

from __future__ import annotations

import subprocess
import sys

from click.testing import CliRunner

from cli import __version__
from cli.main import LazyGroup, cli


def _modules_after(*argv: str) -> set[str]:
    code = (
        "import sys\n"
        "from cli.main import cli\n"
        "try:\n"
        f"    cli.main({list(argv)!r}, standalone_mode=False)\n"
        "except SystemExit:\n"
        "    pass\n"
        "print(' '.join(sys.modules), file=sys.stderr)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return set(done.stderr.split())


def test_version_prints_the_package_version() -> None:
    result = CliRunner().invoke(cli, ["--version"])
    assert result.exit_code == 0
    assert result.output == f"innotune {__version__}\n"


def test_the_console_script_answers_version_without_click() -> None:
    code = "import sys; sys.argv = ['innotune', '--version']; import cli; cli.main(); print('click' in sys.modules)"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.split("\n")[:2] == [f"innotune {__version__}", "False"]


def test_help_and_version_import_no_command_module() -> None:
    for argv in (["--help"], ["--version"]):
        loaded = _modules_after(*argv)
        assert not any(
            name.startswith(("advisor", "collector", "pydantic", "importlib.metadata")) for name in loaded
        )


def test_the_listing_shows_each_lazy_commands_own_summary() -> None:
    """The table of one-line summaries says what each command's own help says."""
    group = LazyGroup()
    context = cli.make_context("innotune", [], resilient_parsing=True)
    for name, (_, summary) in LazyGroup.LAZY.items():
        command = group.get_command(context, name)
        assert command is not None and command.help is not None
        assert command.help.strip().splitlines()[0] == summary


def test_an_audit_imports_no_pydantic_nor_service_layers(tmp_path) -> None:  # type: ignore[no-untyped-def]
    variables = tmp_path / "variables.tsv"
    variables.write_text("version\t10.11.6-MariaDB\ninnodb_buffer_pool_size\t134217728\n")
    loaded = _modules_after("audit", "--variables", str(variables), "--memory", "8G", "--format", "json")
    assert "advisor.engine" in loaded
    assert not any(
        name.split(".")[0] in {"pydantic", "sqlalchemy", "services", "store", "api"} for name in loaded
    )
