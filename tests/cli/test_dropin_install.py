"""`--format dropin` with relative `--mycnf` paths under a Debian `!includedir /etc/mysql/conf.d/` (DBA
review): the drop-in must sort after the uploaded files of that folder, and, installed where the audit
says beside them, its settings must be the ones a real mariadbd runs with."""

from __future__ import annotations

import re
import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pymysql
import pytest
from click.testing import CliRunner

from cli.main import cli
from tests.corpus import corpus_file
from tests.fixtures.private_mariadb import PrivateMariadb, installed_mariadb

LOCAL = "[mysqld]\ninnodb_buffer_pool_size = 256M\n"
OVERRIDE = "[mysqld]\ninnodb_io_capacity = 100\n"
UPLOADS = ("etc/mysql/my.cnf", "etc/mysql/conf.d/zzz-local.cnf", "etc/mysql/conf.d/~override.cnf")


def _write_tree(root: Path, includedir: str) -> None:
    conf_d = root / "etc" / "mysql" / "conf.d"
    conf_d.mkdir(parents=True)
    (root / UPLOADS[0]).write_text(f"[mysqld]\nmax_connections=100\n!includedir {includedir}\n")
    (root / UPLOADS[1]).write_text(LOCAL)
    (root / UPLOADS[2]).write_text(OVERRIDE)


def _dropin_audit() -> tuple[str, str]:
    """The review's command, relative paths from the current directory: (stdout, stderr)."""
    corpus = "mariadb-10.11-sysbench/s02_load_rw_default"
    args = ["audit", "--variables", str(corpus_file(f"{corpus}.global_variables.tsv"))]
    args += ["--status", str(corpus_file(f"{corpus}.global_status.t20s.tsv"))]
    args += ["--status", str(corpus_file(f"{corpus}.global_status.tsv"))]
    args += ["--memory", "8G", "--cpus", "4", "--storage", "ssd", "--format", "dropin"]
    for upload in UPLOADS:
        args += ["--mycnf", upload]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code in (0, 1), result.stderr
    return result.stdout, result.stderr


def test_relative_uploads_of_the_debian_folder_put_the_dropin_after_them(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`install it as /etc/mysql/conf.d/~override~innotune.cnf`, nothing it cannot fix (it said
    `zz-innotune.cnf`, which mariadbd reads before `zzz-local.cnf` and `~override.cnf`)."""
    _write_tree(tmp_path, "/etc/mysql/conf.d/")
    monkeypatch.chdir(tmp_path)
    _, err = _dropin_audit()
    assert "install it as /etc/mysql/conf.d/~override~innotune.cnf" in err
    assert "cannot fix" not in err


@contextmanager
def _readable_root() -> Iterator[Path]:
    """A folder the server (mysql, when the tests run as root) can read; pytest's tmp_path is root's."""
    with tempfile.TemporaryDirectory(prefix="innotune-dropin-") as name:
        root = Path(name)
        root.chmod(0o755)
        yield root


def _start_with(server: PrivateMariadb, cnf: Path) -> dict[str, int]:
    """Start the installed datadir with `cnf` as its option file; the two values it runs with."""
    argv = [
        "mariadbd", f"--defaults-file={cnf}", f"--datadir={server.datadir}", f"--socket={server.socket}",
        "--port=0", "--skip-networking", f"--pid-file={server.root / 'p'}",
        f"--log-error={server.root / 'error.log'}", f"--tmpdir={server.root / 'tmp'}",
        # the drop-in also resizes the redo log; its size is not what this test is about
        "--innodb-log-file-size=16M", *server._user(),
    ]  # fmt: skip
    server.process = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        for _ in range(300):
            if server.process.poll() is not None:
                raise AssertionError((server.root / "error.log").read_text(errors="replace")[-2000:])
            try:
                rows = server.execute("SELECT @@innodb_buffer_pool_size, @@innodb_io_capacity")
                return {"innodb_buffer_pool_size": int(rows[0][0]), "innodb_io_capacity": int(rows[0][1])}
            except pymysql.err.OperationalError:  # not up yet
                time.sleep(0.2)
        raise AssertionError("mariadbd did not come up")
    finally:
        server.stop()


@pytest.mark.mariadb
def test_installed_where_the_audit_says_a_real_mariadbd_runs_the_dropins_values(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The three files with `!includedir` naming the test's own conf.d (absolute, as on a server), the
    audit run on their relative paths, its drop-in written where it says: mariadbd started with that
    `my.cnf` runs the drop-in's pool and io_capacity, not 256M and 100 (it ran those before)."""
    with _readable_root() as root:
        _write_tree(root, f"{root}/etc/mysql/conf.d/")
        monkeypatch.chdir(root)
        out, err = _dropin_audit()
        place = re.search(r"install it as (\S+)", err)
        assert place is not None, err
        assert Path(place[1]).parent == root / "etc" / "mysql" / "conf.d"
        Path(place[1]).write_text(out)
        for path in root.rglob("*"):
            path.chmod(0o755 if path.is_dir() else 0o644)
        pool = re.search(r"^innodb_buffer_pool_size = (\d+)M$", out, re.MULTILINE)
        io_capacity = re.search(r"^innodb_io_capacity = (\d+)$", out, re.MULTILINE)
        assert pool is not None and io_capacity is not None, out
        with installed_mariadb("innotune-dropin-server-") as server:
            running = _start_with(server, root / UPLOADS[0])
        assert running == {
            "innodb_buffer_pool_size": int(pool[1]) << 20,
            "innodb_io_capacity": int(io_capacity[1]),
        }
