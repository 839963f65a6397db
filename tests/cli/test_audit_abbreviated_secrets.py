"""`innotune audit` never echoes a secret written under an abbreviated name, in any format.

The mariadb client takes `passw` for `--password` ('Using unique option prefix passw'), and mariadbd
takes `file_key_management_filek` for the file key: their values are as secret as under the full name.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from advisor.redact import REDACTED
from cli.main import cli
from tests.recommended import EDIT_YOUR_OWN, KEPT_OUT

SECRETS = ("Hunter2Client", "Hunter2Dump", "Hunter2Admin", "S3cretA", "SstPw9")
MYCNF = (
    "[client]\nuser = u1\npassw = Hunter2Client\nsocket = /tmp/s1.sock\n"
    "[mysqldump]\npasswo = 'Hunter2Dump'\n"
    "[mysqladmin]\nloose-passwor = Hunter2Admin\n"
    "[mysqld]\ninnodb_buffer_pool_size = 128M\n"
    # The key plugin is not loaded: the line is refused, and commented out by a finding.
    "file_key_management_filek = S3cretA\n"
    "wsrep_sst_a = sst:SstPw9\n"
    "innodb_io_capacity = 100\n"
)
ARGS = ("--server-version", "10.11.19-MariaDB", "--memory", "8G", "--cpus", "4", "--storage", "ssd")


def _audit(tmp_path: Path, *args: str) -> tuple[str, str]:
    cnf = tmp_path / "my.cnf"
    cnf.write_text(MYCNF)
    result = CliRunner().invoke(cli, ["audit", "--mycnf", str(cnf), *ARGS, *args])
    assert result.exit_code in (0, 1), result.output
    return result.stdout, result.stderr


def _assert_no_secret(text: str) -> None:
    assert not [secret for secret in SECRETS if secret in text]


@pytest.mark.parametrize("output", ["text", "json", "diff", "mycnf", "dropin"])
def test_no_format_echoes_an_abbreviated_secret(tmp_path: Path, output: str) -> None:
    out, err = _audit(tmp_path, "--format", output)
    _assert_no_secret(out + err)


def test_the_refused_abbreviated_filekey_is_named_without_its_value(tmp_path: Path) -> None:
    """The finding that comments the line out still says which line and why, the value redacted."""
    out, _ = _audit(tmp_path, "--format", "text")
    assert f"file_key_management_filek = {REDACTED}" in out
    out, err = _audit(tmp_path, "--format", "dropin")
    assert "my.cnf:12 must be commented out in the file itself" in out + err


def test_recommended_files_hold_no_placeholder_and_keep_the_secret_lines_out(tmp_path: Path) -> None:
    """The recommended copy (stdout, JSON `mycnf`/`files`, --output-dir) has a comment where each
    secret line is, never the secret and never `[REDACTED]` as a value."""
    printed, _ = _audit(tmp_path, "--format", "mycnf")
    report = json.loads(_audit(tmp_path, "--format", "json")[0])
    written_dir = tmp_path / "out"
    _audit(tmp_path, "--format", "mycnf", "--output-dir", str(written_dir))
    written = [path.read_text() for path in written_dir.rglob("*") if path.is_file()]
    assert written
    _assert_no_secret(json.dumps(report["files"]))
    copies = [printed, report["mycnf"], *(file["recommended"] for file in report["files"]), *written]
    for copy in copies:
        _assert_no_secret(copy)
        assert REDACTED not in copy
    lines = report["mycnf"].splitlines()
    assert lines[2] == KEPT_OUT  # [client] passw
    assert lines[5] == KEPT_OUT  # [mysqldump] passwo
    assert lines[7] == KEPT_OUT  # [mysqladmin] loose-passwor
    assert lines[10].startswith(EDIT_YOUR_OWN)  # the refused filekey: the user comments out their own
    assert "innodb_io_capacity = 100" not in lines  # the rest is still advised
