"""`innotune collect` against private MariaDB instances made by mariadb-install-db, as a new user meets
them: a primary (binary log on, in a memory cgroup of its own) and a real replica replicating from
it, beside the shared system server — three mariadbd processes on this machine.

* the documented `'innotune'@'%'` is refused because the installer's anonymous `''@'localhost'` wins,
  and the collector says so and what to do; the host-specific account of the docs works;
* the server process is matched by its port/socket and datadir among the three, and its own cgroup
  limit is read;
* the role: primary and replica, detected and used by the audit unless --role overrides;
* the storage probe on this disk (its figures printed), uptime and measured interval in the manifest;
* `collect --audit` prints the report `innotune audit` prints for the same files.

One primary+replica pair serves the module; the collector runs overlap (each takes --interval 10).
"""

from __future__ import annotations

import json
import os
import secrets
import shlex
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tests.collector.test_collect_mariadb import documented_grants
from tests.fixtures.private_mariadb import PrivateMariadb, memory_cgroup, private_mariadb

pytestmark = pytest.mark.mariadb

ROOT = Path(__file__).resolve().parents[2]
GIB = 1024**3
CGROUP_LIMIT = 3 * GIB
SCHEMA = "shop"
PASSWORD = f"pw-{secrets.token_urlsafe(12)}"


@dataclass(frozen=True)
class Pair:
    primary: PrivateMariadb
    replica: PrivateMariadb
    cgroup: Path | None
    password_file: Path


def _replicate(primary: PrivateMariadb, replica: PrivateMariadb) -> None:
    replica.execute(
        f"CHANGE MASTER TO MASTER_HOST='127.0.0.1', MASTER_PORT={primary.port}, MASTER_USER='root', "
        "MASTER_PASSWORD='', MASTER_USE_GTID=slave_pos",
        "START SLAVE",
    )
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        with replica.connect() as connection, connection.cursor(dictionary_cursor()) as cursor:
            cursor.execute("SHOW SLAVE STATUS")
            row = cursor.fetchone()
        if row and row["Slave_IO_Running"] == "Yes" and row["Slave_SQL_Running"] == "Yes":
            return
        time.sleep(0.2)
    raise AssertionError(f"the replica did not start replicating: {row}")


def dictionary_cursor() -> Any:
    import pymysql.cursors

    return pymysql.cursors.DictCursor


@pytest.fixture(scope="module")
def pair(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Pair]:
    password_file = tmp_path_factory.mktemp("account") / "password"
    password_file.write_text(PASSWORD + "\n")
    password_file.chmod(0o600)
    with (
        memory_cgroup(CGROUP_LIMIT, f"innotune-test-{secrets.token_hex(4)}") as cgroup,
        private_mariadb("--log-bin=mysql-bin", "--binlog-format=ROW", server_id=1, cgroup=cgroup) as primary,
        private_mariadb(server_id=2) as replica,
    ):
        primary.execute(
            f"CREATE DATABASE {SCHEMA}",
            f"CREATE TABLE {SCHEMA}.orders (id INT PRIMARY KEY, amount INT) ENGINE=InnoDB",
            f"INSERT INTO {SCHEMA}.orders VALUES (1, 10), (2, 20)",
        )
        _replicate(primary, replica)
        yield Pair(primary, replica, cgroup, password_file)


def _collect(
    *arguments: str, password_file: Path | None = None, wait: bool = True
) -> subprocess.Popen[str] | subprocess.CompletedProcess[str]:
    argv = [sys.executable, "-m", "cli.main", "collect", "--interval", "10", *arguments]
    if password_file is not None:
        argv += ["--password-file", str(password_file)]
    environment = {
        k: v for k, v in os.environ.items() if k not in ("INNOTUNE_COLLECT_PASSWORD", "INNOTUNE_API_KEY")
    }
    process = subprocess.Popen(
        argv, cwd=ROOT, env=environment, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    return _finish(process) if wait else process


def _finish(process: subprocess.Popen[str]) -> subprocess.CompletedProcess[str]:
    try:
        stdout, stderr = process.communicate(timeout=120)
    finally:
        if process.poll() is None:
            process.kill()
    return subprocess.CompletedProcess(process.args, process.returncode, stdout, stderr)


def test_the_anonymous_account_is_named_with_what_to_do(pair: Pair) -> None:
    """'innotune'@'%' on a fresh datadir: access denied, and the collector names ''@'localhost', the
    DROP USER and the host-specific CREATE USER; by TCP and by socket alike."""
    primary = pair.primary
    primary.execute(f"CREATE USER 'innotune'@'%' IDENTIFIED BY '{PASSWORD}'")
    try:
        by_tcp = _collect(
            "--host",
            "127.0.0.1",
            "--port",
            str(primary.port),
            "--user",
            "innotune",
            "--output",
            "/nonexistent",
            password_file=pair.password_file,
        )
        by_socket = _collect(
            "--socket",
            str(primary.socket),
            "--user",
            "innotune",
            "--output",
            "/nonexistent",
            password_file=pair.password_file,
        )
    finally:
        primary.execute("DROP USER 'innotune'@'%'")
    for run in (by_tcp, by_socket):
        assert isinstance(run, subprocess.CompletedProcess)
        assert run.returncode == 1, run.stderr
        assert "Access denied for user 'innotune'@'localhost'" in run.stderr
        assert "anonymous account ''@'localhost'" in run.stderr
        assert "DROP USER ''@'localhost'" in run.stderr and "CREATE USER 'innotune'@'localhost'" in run.stderr
        assert PASSWORD not in run.stderr
    print(f"\nthe collector's answer: {by_tcp.stderr.strip()}")  # type: ignore[union-attr]


@dataclass(frozen=True)
class Collected:
    directory: Path
    run: subprocess.CompletedProcess[str]

    @property
    def manifest(self) -> dict[str, Any]:
        result: dict[str, Any] = json.loads((self.directory / "manifest.json").read_text())
        return result

    @property
    def hardware(self) -> dict[str, Any]:
        result: dict[str, Any] = json.loads((self.directory / "hardware.json").read_text())
        return result


@dataclass(frozen=True)
class Runs:
    primary: Collected
    replica: Collected


@pytest.fixture(scope="module")
def runs(pair: Pair, tmp_path_factory: pytest.TempPathFactory) -> Runs:
    """The documented host-specific account on the primary (TCP, --audit); root on the replica by its
    socket. Both collectors run at once."""
    account = "'innotune'@'localhost'"
    pair.primary.execute(*documented_grants(account, PASSWORD, SCHEMA))
    primary_dir, replica_dir = tmp_path_factory.mktemp("primary"), tmp_path_factory.mktemp("replica")
    try:
        started = [
            _collect(
                "--host",
                "127.0.0.1",
                "--port",
                str(pair.primary.port),
                "--user",
                "innotune",
                "--output",
                str(primary_dir),
                "--audit",
                password_file=pair.password_file,
                wait=False,
            ),
            _collect(
                "--socket",
                str(pair.replica.socket),
                "--user",
                "root",
                "--output",
                str(replica_dir),
                wait=False,
            ),
        ]
        done = [_finish(process) for process in started if isinstance(process, subprocess.Popen)]
    finally:
        pair.primary.execute(f"DROP USER {account}")
    for run in done:
        assert run.returncode in (0, 1), run.stderr  # 1: the audit found something critical
    return Runs(Collected(primary_dir, done[0]), Collected(replica_dir, done[1]))


def test_the_role_is_detected_on_primary_and_replica(runs: Runs, pair: Pair) -> None:
    """The primary writes a binary log with read_only off; the replica's threads run."""
    assert runs.primary.manifest["role"]["role"] == "primary"
    assert runs.primary.manifest["role"]["how"]
    replica_role = runs.replica.manifest["role"]
    assert replica_role["role"] == "replica"
    assert "127.0.0.1" in replica_role["how"]


def _audit(command: str, *extra: str) -> subprocess.CompletedProcess[str]:
    argv = shlex.split(command)
    assert argv[:2] == ["innotune", "audit"]
    return subprocess.run(
        [sys.executable, "-m", "cli.main", *argv[1:], *extra],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_the_audit_takes_the_role_from_the_manifest_unless_role_overrides(runs: Runs) -> None:
    """The replica's printed audit command finds replica-only issues (no log_slave_updates, writable);
    --role standalone overrides the manifest and they are gone."""
    command = runs.replica.run.stdout.strip().splitlines()[-1]
    as_printed = json.loads(_audit(command, "--format", "json").stdout)
    overridden = json.loads(_audit(command, "--format", "json", "--role", "standalone").stdout)
    replica_only = {"replication.replica_updates_off", "replication.replica_writable"}
    assert replica_only <= {f["rule"] for f in as_printed["findings"]}
    assert not replica_only & {f["rule"] for f in overridden["findings"]}


def test_collect_audit_prints_the_report_innotune_audit_prints(runs: Runs) -> None:
    """--audit: the report on stdout is byte for byte what the shown `innotune audit` line prints."""
    run = runs.primary.run
    (shown,) = [line for line in run.stderr.splitlines() if "auditing as: " in line]
    command = shown.split("auditing as: ", 1)[1]
    alone = _audit(command)
    assert run.stdout.startswith("InnoTune audit of mariadb ")
    assert run.stdout == alone.stdout
    assert run.returncode == alone.returncode


def test_the_server_process_is_matched_among_three_and_its_cgroup_read(runs: Runs, pair: Pair) -> None:
    """Three mariadbd run here (the shared one and ours); each collector names its own server's pid,
    matched by port or socket and datadir, and the primary's memory limit is its cgroup's."""
    primary = runs.primary.manifest["host"]["server_process"]
    replica = runs.replica.manifest["host"]["server_process"]
    assert primary["pid"] == pair.primary.pid and f"port {pair.primary.port}" in primary["how"]
    assert replica["pid"] == pair.replica.pid and f"socket {pair.replica.socket}" in replica["how"]
    assert "datadir" in primary["how"] and "datadir" in replica["how"]
    if pair.cgroup is not None:
        assert runs.primary.hardware["memory_limit"] == CGROUP_LIMIT
    assert runs.replica.hardware.get("memory_limit") != CGROUP_LIMIT


def test_the_storage_probe_measures_this_disk(runs: Runs, pair: Pair) -> None:
    """The probe ran in the datadir (root may write there): figures in hardware.json and the manifest,
    a kind classified from them, no probe file left behind."""
    hardware, probe = runs.primary.hardware, runs.primary.manifest["host"]["storage"]["probe"]
    assert probe is not None, runs.primary.manifest["notes"]
    assert (
        probe["read_method"] == "O_DIRECT" and probe["read_queue_depth"] == 1 and probe["read_bytes"] == 16384
    )
    assert probe["seconds"] <= 3.0 and probe["file_bytes"] <= 8 * 1024 * 1024
    assert probe["reads"] > 0 and probe["fsyncs"] > 0
    assert hardware["storage"] == probe["kind"] in ("hdd", "ssd", "nvme")
    assert hardware["read_latency_ms"] == probe["read_ms"]["median"]
    assert hardware["fsync_latency_ms"] == probe["fsync_ms"]["median"]
    assert 0 < hardware["read_latency_ms"] <= hardware["read_latency_p99_ms"]
    assert not [p for p in pair.primary.datadir.iterdir() if p.name.startswith(".innotune-probe")]
    print(f"\nstorage probe on this disk: {json.dumps(probe)}")


def test_uptime_interval_and_every_note_are_in_the_manifest(runs: Runs) -> None:
    """Uptime and the measured interval; each note printed on stderr is in the manifest's notes."""
    manifest = runs.replica.manifest
    assert manifest["interval_seconds"] == 10
    assert 10 <= manifest["measured_interval_seconds"] < 12
    assert manifest["uptime_seconds"] >= 1
    printed = [
        line.removeprefix("innotune collect: ")
        for line in runs.replica.run.stderr.splitlines()
        if not line.startswith("innotune collect: waiting")
    ]
    assert printed and printed == manifest["notes"]
    print(f"\nreplica manifest: {json.dumps(manifest, indent=2)}")


def test_a_stopped_replica_is_not_counted_as_one(pair: Pair) -> None:
    """Replication configured but stopped: standalone (no binary log), with a note naming the source;
    running again: replica. Read through the collector's own detection on a live connection."""
    from collector.role import detect_role

    def role() -> tuple[str, tuple[str, ...]]:
        with pair.replica.connect() as connection, connection.cursor() as cursor:
            cursor.execute("SHOW GLOBAL VARIABLES")
            variables = {str(name).lower(): str(value) for name, value in cursor.fetchall()}
            cursor.execute("SHOW GLOBAL STATUS")
            status = {str(name).lower(): str(value) for name, value in cursor.fetchall()}
            found = detect_role(connection, variables, status)
        return found.role, found.notes

    pair.replica.execute("STOP SLAVE")
    try:
        stopped, notes = role()
    finally:
        pair.replica.execute("START SLAVE")
    assert stopped == "standalone"
    assert any("replication from 127.0.0.1 is configured but stopped" in note for note in notes)
    deadline = time.monotonic() + 30
    while role()[0] != "replica" and time.monotonic() < deadline:
        time.sleep(0.2)
    assert role()[0] == "replica"
