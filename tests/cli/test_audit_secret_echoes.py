"""`innotune audit` never echoes a secret from its inputs: not in an error that quotes a line, not in
the JSON `drift` (review 3: file and live values of `file_key_management_filekey` and `wsrep_sst_auth`
were printed beside `secrets_kept_out`)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from cli.main import cli
from tests.corpus import corpus_file

VARIABLES = "mariadb-10.11-sysbench/s02_load_rw_default.global_variables.tsv"
ARGS = ("--memory", "8G", "--cpus", "4", "--storage", "ssd")


def _run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli, ["audit", *args])
    return result.exit_code, result.stdout + result.stderr


def test_an_error_quoting_a_secret_line_of_a_mycnf_hides_the_value(tmp_path: Path) -> None:
    cnf = tmp_path / "my.cnf"
    cnf.write_text("[client]\n--password=Hunter2Secret\n")
    code, output = _run("--mycnf", str(cnf), "--server-version", "10.11.19-MariaDB", *ARGS)
    assert code == 2 and f"{cnf}:2" in output  # still names the file and line
    assert "Hunter2Secret" not in output and "[REDACTED]" in output


def test_an_error_quoting_a_secret_row_of_a_variables_dump_hides_the_value(tmp_path: Path) -> None:
    dump = tmp_path / "variables.tsv"
    dump.write_text("version\t10.11.19-MariaDB\nwsrep_sst_auth root:Hunter2Secret extra words\n")
    code, output = _run("--variables", str(dump), *ARGS)
    assert code == 2 and f"{dump}:2" in output
    assert "Hunter2Secret" not in output


def test_json_drift_holds_no_secret_and_no_masked_value(tmp_path: Path) -> None:
    """A secret is never compared with the live server: it is not echoed, and the server masks some
    (`wsrep_sst_auth` reads `********`), so a comparison would be a false drift too."""
    cnf = tmp_path / "sec.cnf"
    cnf.write_text(
        "[mysqld]\nplugin_load_add = file_key_management\n"
        "file_key_management_filename = /etc/mysql/keys.enc\n"
        "file_key_management_filekey = Hunter2Secret\n"
        "file_key_management_encryption_algorithm = AES_CTR\n"
        "wsrep_sst_auth = root:Hunter2Secret\n"
        "innodb_io_capacity = 300\n"
    )
    dump = tmp_path / "variables.tsv"
    live = corpus_file(VARIABLES).read_text()
    dump.write_text(f"{live}wsrep_sst_auth\t********\nfile_key_management_filekey\tOtherSecretZZ\n")
    code, output = _run("--mycnf", str(cnf), "--variables", str(dump), *ARGS, "--format", "json")
    assert code in (0, 1), output
    assert "Hunter2Secret" not in output and "OtherSecretZZ" not in output
    drifted = {entry["name"] for entry in json.loads(output)["drift"]}
    assert "innodb_io_capacity" in drifted  # drift itself still works
    assert not drifted & {"wsrep_sst_auth", "file_key_management_filekey"}


@pytest.mark.parametrize("output", ["text", "json", "diff", "mycnf", "dropin"])
def test_a_password_inside_wsrep_provider_options_is_never_echoed(tmp_path: Path, output: str) -> None:
    """The line stays in the user's file (kept out of the recommended copy like any secret line)."""
    cnf = tmp_path / "galera.cnf"
    cnf.write_text(
        "[galera]\nwsrep_on = ON\n"
        'wsrep_provider_options = "gcache.size=1G; socket.ssl_password=Hunter2Secret"\n'
        "[mysqld]\ninnodb_buffer_pool_size = 128M\n"
    )
    code, text = _run("--mycnf", str(cnf), "--server-version", "10.11.19-MariaDB", *ARGS, "--format", output)
    assert code in (0, 1), text
    assert "Hunter2Secret" not in text


@pytest.mark.parametrize("side", ["file", "live"])
def test_json_drift_holds_no_secret_pair(tmp_path: Path, side: str) -> None:
    """Drift of wsrep_provider_options whose file or live value holds a password pair is left out (review 4)."""
    secret = "socket.ssl_password=FileSecret9" if side == "file" else "socket.ssl_password = LiveSecret9"
    file_value = f"gcache.size=2G;{secret}" if side == "file" else "gcache.size=2G"
    live_value = f"gcache.size = 1G; {secret}; socket.ssl = YES" if side == "live" else "gcache.size = 1G"
    cnf = tmp_path / "my.cnf"
    cnf.write_text(f'[mysqld]\ninnodb_io_capacity = 300\nwsrep_provider_options = "{file_value}"\n')
    dump = tmp_path / "variables.tsv"
    rows = [
        line
        for line in corpus_file(VARIABLES).read_text().splitlines()
        if not line.startswith("wsrep_provider_options\t")
    ]
    dump.write_text("\n".join([*rows, f"wsrep_provider_options\t{live_value}"]) + "\n")
    code, output = _run("--mycnf", str(cnf), "--variables", str(dump), *ARGS, "--format", "json")
    assert code in (0, 1), output
    assert "Secret9" not in output
    assert "innodb_io_capacity" in {entry["name"] for entry in json.loads(output)["drift"]}
