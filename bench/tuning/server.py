"""A private MariaDB instance for the tuning-gain bench: its own datadir, socket, port, error log
and (optionally) its own memory cgroup, all under one temporary directory. Never the shared server."""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import time
from dataclasses import dataclass, field
from pathlib import Path

import pymysql

DEBIAN_CNF = Path("/etc/mysql/mariadb.conf.d/50-server.cnf")
BUNDLED_CNF = Path(__file__).with_name("debian-50-server.cnf")  # Debian 12's copy, for hosts without it
START_TIMEOUT = 600.0  # a redo log resized to many GiB is written out at start
STOP_TIMEOUT = 600.0


class BenchError(RuntimeError):
    """The bench cannot go on (the message says why)."""


@dataclass(frozen=True)
class StartResult:
    ok: bool
    seconds: float
    returncode: int | None
    errors: list[str]


@dataclass
class PrivateServer:
    root: Path
    port: int
    cgroup: Path | None = None
    proc: subprocess.Popen[bytes] | None = field(default=None, repr=False)

    @property
    def datadir(self) -> Path:
        return self.root / "data"

    @property
    def socket(self) -> Path:
        return self.root / "mysqld.sock"

    @property
    def error_log(self) -> Path:
        return self.root / "error.log"

    def initialise(self) -> None:
        """mariadb-install-db into a fresh datadir, root with an empty password (normal auth)."""
        for sub in ("data", "tmp", "binlog"):
            (self.root / sub).mkdir(parents=True, exist_ok=True)
        self.root.chmod(0o755)
        user = _chown_to_mysql(self.root)
        argv = ["mariadb-install-db", "--no-defaults", f"--datadir={self.datadir}"]
        argv += ["--auth-root-authentication-method=normal", "--skip-test-db"]
        argv += [f"--user={user}"] if user else []
        run = subprocess.run(argv, capture_output=True, text=True, check=False)
        if run.returncode != 0:
            raise BenchError(f"mariadb-install-db failed ({run.returncode}): {run.stderr[-2000:]}")

    def adapt_debian_cnf(self, binlog: bool) -> str:
        """The Debian default 50-server.cnf with this instance's paths (and the binary log on)."""
        source = DEBIAN_CNF if DEBIAN_CNF.exists() else BUNDLED_CNF
        text = source.read_text()
        edits = [
            (r"^#?user\s*=.*$", "user                    = mysql" if os.geteuid() == 0 else "#user = mysql"),
            (r"^pid-file\s*=.*$", f"pid-file                = {self.root / 'mysqld.pid'}"),
            (r"^#datadir\s*=.*$", f"datadir                 = {self.datadir}"),
            (r"^#tmpdir\s*=.*$", f"tmpdir                  = {self.root / 'tmp'}"),
            (r"^#log_error\s*=.*$", f"log_error = {self.error_log}"),
            (
                r"^bind-address\s*=.*$",
                f"bind-address            = 127.0.0.1\nport                    = {self.port}\n"
                f"socket                  = {self.socket}",
            ),
        ]
        if binlog:
            edits += [
                (r"^#server-id\s*=.*$", "server-id              = 1"),
                (r"^#log_bin\s*=.*$", f"log_bin                = {self.root / 'binlog' / 'mysql-bin.log'}"),
                (r"^#max_binlog_size\s*=.*$", "#max_binlog_size        = 100M\nsync_binlog            = 1"),
            ]
        for pattern, replacement in edits:
            text, count = re.subn(pattern, lambda _m, r=replacement: r, text, count=1, flags=re.M)
            if count != 1:
                raise BenchError(f"{source}: no line matches {pattern!r}; cannot adapt it")
        return text

    def start(self, cnf: Path) -> StartResult:
        """Start mariadbd with only `cnf` and wait until it answers; errors come from the log."""
        if self.proc is not None:
            raise BenchError("the private server is already running")
        offset = self.error_log.stat().st_size if self.error_log.exists() else 0
        began = time.monotonic()
        # --defaults-file alone: mariadbd reads that file and no other. (With --no-defaults before
        # it, mariadbd reads no file at all and the configuration would silently not apply.)
        argv = ["mariadbd", f"--defaults-file={cnf}"]
        self.proc = subprocess.Popen(
            argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, preexec_fn=self._join_cgroup
        )
        up = self._wait_up(began)
        errors = self._new_errors(offset)
        returncode = self.proc.poll()
        if not up or errors or returncode is not None:
            self.stop()
            return StartResult(False, time.monotonic() - began, returncode, errors or ["did not answer"])
        return StartResult(True, time.monotonic() - began, None, [])

    def stop(self) -> None:
        """SIGTERM (a clean shutdown) and wait; SIGKILL only past the timeout."""
        if self.proc is None:
            return
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=STOP_TIMEOUT)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.proc = None

    def connect(self, database: str | None = None) -> pymysql.connections.Connection:  # type: ignore[type-arg]
        return pymysql.connect(unix_socket=str(self.socket), user="root", password="", database=database)

    def died(self) -> str | None:
        """Why the server is no longer running (None while it runs): exit status, OOM kill, log."""
        if self.proc is None or self.proc.poll() is None:
            return None
        why = f"mariadbd exited with status {self.proc.returncode}"
        if self.cgroup is not None and (self.cgroup / "memory.failcnt").exists():
            failcnt = (self.cgroup / "memory.failcnt").read_text().strip()
            why += f"; memory cgroup failcnt {failcnt} (a SIGKILL here is the OOM killer)"
        tail = self.error_log.read_text(errors="replace").splitlines()[-5:] if self.error_log.exists() else []
        self.proc = None
        return f"{why}; error log tail: {tail}"

    def prewarm(self, tables: int) -> None:
        """Read every table's primary and secondary index once, by full index scans (no temporary
        table: sysbench's own `prewarm` materialises each table and needs ~2 GiB for 1.2M rows,
        which gets the server OOM-killed under a 2 GiB container limit)."""
        with self.connect("sbtest") as conn, conn.cursor() as cur:
            for number in range(1, tables + 1):
                cur.execute(f"SELECT COUNT(*) FROM sbtest{number} FORCE INDEX (PRIMARY)")
                cur.execute(f"SELECT COUNT(k) FROM sbtest{number} FORCE INDEX (k_{number})")

    def cleanup(self) -> None:
        self.stop()
        if self.cgroup is not None:
            _remove_cgroup(self.cgroup)
        shutil.rmtree(self.root, ignore_errors=True)

    def _join_cgroup(self) -> None:
        if self.cgroup is not None:
            (self.cgroup / "cgroup.procs").write_text(str(os.getpid()))

    def _wait_up(self, began: float) -> bool:
        assert self.proc is not None
        while time.monotonic() - began < START_TIMEOUT:
            if self.proc.poll() is not None:
                return False
            try:
                self.connect().close()
                return True
            except pymysql.err.OperationalError:
                time.sleep(0.5)
        return False

    def _new_errors(self, offset: int) -> list[str]:
        if not self.error_log.exists():
            return ["no error log written"]
        with self.error_log.open("rb") as log:
            log.seek(offset)
            lines = log.read().decode(errors="replace").splitlines()
        return [line for line in lines if "[ERROR]" in line]


def _chown_to_mysql(root: Path) -> str | None:
    """As root, the server runs as `mysql` (as Debian's does): give it the directory."""
    if os.geteuid() != 0:
        return None
    shutil.chown(root, "mysql", "mysql")
    for path in root.rglob("*"):
        shutil.chown(path, "mysql", "mysql")
    return "mysql"


def make_memory_cgroup(limit_bytes: int, name: str) -> Path:
    """A child memory cgroup of our own (v2, else v1) capped at `limit_bytes`, page cache included,
    as a container limit would be. Raises BenchError when the cgroup tree is not writable."""
    own = Path("/proc/self/cgroup").read_text().splitlines()
    v1 = next((line.split(":", 2)[2] for line in own if line.split(":")[1] == "memory"), None)
    v2 = next((line.split(":", 2)[2] for line in own if line.startswith("0::")), None)
    candidates = []
    if v1 is not None:
        candidates.append((Path("/sys/fs/cgroup/memory") / v1.lstrip("/") / name, "memory.limit_in_bytes"))
    if v2 is not None:
        for base in (Path("/sys/fs/cgroup"), Path("/sys/fs/cgroup/unified")):
            if (base / "cgroup.controllers").exists() and "memory" in (
                base / "cgroup.controllers"
            ).read_text():
                candidates.append((base / v2.lstrip("/") / name, "memory.max"))
    for path, knob in candidates:
        try:
            path.mkdir(exist_ok=True)
            (path / knob).write_text(str(limit_bytes))
            return path
        except OSError:
            continue
    raise BenchError("no writable memory cgroup: cannot impose the container-like memory limit")


def _remove_cgroup(path: Path) -> None:
    for _ in range(20):
        try:
            path.rmdir()
            return
        except OSError:
            time.sleep(0.5)
