"""`--format dropin` installed exactly as the audit says, then `mariadbd --defaults-file=F --print-defaults`
run from `/` (systemd's working directory): the drop-in's values must be the last ones the server reads
(DBA review, mariadbd 10.11.19: a relative `!include innotune.cnf` beside my.cnf was skipped without a
word, and a nested `!includedir` put the drop-in before the files that then overrode it)."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner

from cli.main import cli
from tests.advisor.test_dropin_placement import nested
from tests.fixtures.real_services import missing

pytestmark = pytest.mark.mariadb

FACTS = ["--server-version", "10.11.19-MariaDB", "--memory", "8G", "--cpus", "4", "--storage", "ssd"]
MAIN = "[mysqld]\nmax_connections = 100\ninnodb_buffer_pool_size = 128M\ninnodb_flush_neighbors = 1\n"


def _dropin_audit(*mycnf: str) -> tuple[str, str]:
    args = ["audit", *FACTS, "--format", "dropin"]
    for path in mycnf:
        args += ["--mycnf", path]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code in (0, 1), result.stderr
    return result.stdout, result.stderr


def _dropin_settings(text: str) -> dict[str, str]:
    found = dict(re.findall(r"^(\w+) = (\S+)$", text, re.MULTILINE))
    assert found, text
    return found


def _read_from_root(main: Path) -> dict[str, str]:
    """Name → the last value `mariadbd --print-defaults` lists for it, run from `/`."""
    if shutil.which("mariadbd") is None:
        missing("mariadbd is not installed: cannot check what the server reads")
    run = subprocess.run(
        ["mariadbd", f"--defaults-file={main}", "--print-defaults"],
        cwd="/",
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert run.returncode == 0, run.stderr
    return dict(re.findall(r"--(\w+)=(\S*)", run.stdout))  # later pairs overwrite earlier ones


def _install(out: str, err: str) -> Path:
    """Write the drop-in where the audit says and append the `!include` line it names, if any."""
    place = re.search(r"install it as (\S+)", err)
    assert place is not None, err
    Path(place[1]).write_text(out)
    append = re.search(r"and append `(.+)` to (\S+)", err)
    if append is not None:
        with Path(append[2]).open("a") as main:
            main.write(f"{append[1]}\n")
    return Path(place[1])


def test_beside_a_main_file_given_relative_the_dropin_is_never_silently_unread(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """From my.cnf's folder, `--mycnf my.cnf`: the audit gave `!include innotune.cnf`, which mariadbd run
    from `/` skips (its values were not read). Now no relative line: it says the path must be absolute,
    and audited again with my.cnf's absolute path, the line it gives makes the server read the drop-in."""
    (tmp_path / "my.cnf").write_text(MAIN)
    monkeypatch.chdir(tmp_path)
    out, err = _dropin_audit("my.cnf")
    _install(out, err)
    read = _read_from_root(tmp_path / "my.cnf")
    wanted = _dropin_settings(out)
    if {name: read.get(name) for name in wanted} != wanted:  # the server does not read it yet: say so
        assert "!include innotune.cnf" not in (tmp_path / "my.cnf").read_text()
        assert "the server does not read it yet: my.cnf was given by a relative path" in err, err
        assert "absolute path" in err
    out, err = _dropin_audit(str(tmp_path / "my.cnf"))
    assert f"append `!include {tmp_path}/innotune.cnf` to {tmp_path}/my.cnf" in err, err
    _install(out, err)
    read = _read_from_root(tmp_path / "my.cnf")
    assert {name: read.get(name) for name in _dropin_settings(out)} == _dropin_settings(out)


def test_with_a_nested_includedir_the_dropin_is_read_after_every_file(tmp_path: Path) -> None:
    """The review's layout: the drop-in went to extra.d/zz-innotune.cnf (read before 50-server.cnf,
    zzz-local.cnf and ~override.cnf, whose values then won); now after ~override.cnf in mariadb.conf.d,
    where the server reads it last."""
    for path, text in nested(str(tmp_path)).items():
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        Path(path).write_text(text)
    (tmp_path / "conf.d").mkdir()
    out, err = _dropin_audit(*nested(str(tmp_path)))
    assert _install(out, err) == tmp_path / "mariadb.conf.d" / "~override~innotune.cnf"
    assert "cannot fix" not in err
    wanted = _dropin_settings(out)
    assert {"innodb_io_capacity", "innodb_flush_neighbors", "innodb_buffer_pool_size"} <= set(wanted)
    read = _read_from_root(tmp_path / "my.cnf")
    assert {name: read.get(name) for name in wanted} == wanted
