"""A live InnoTune for the benches that attack it (bench/fuzz.py, bench/hostile_input.py): a scratch
PostgreSQL database, a queue of its own on the real Redis, `innotune serve` and `innotune worker`
as processes, one organisation with an API key; everything removed when the block ends.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
ADMIN_URL = os.environ.get(
    "INNOTUNE_TEST_POSTGRES_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/postgres"
)
BROKER_URL = os.environ.get("CELERY_BROKER_URL", "redis://127.0.0.1:6379/0")


@dataclass(frozen=True)
class LiveService:
    url: str
    key: str
    api_pid: int
    worker_pid: int
    log_dir: Path

    @property
    def headers(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.key}"}


def _admin(statement: str) -> None:
    from sqlalchemy import create_engine, text

    engine = create_engine(ADMIN_URL, isolation_level="AUTOCOMMIT")
    with engine.connect() as connection:
        connection.execute(text(statement))
    engine.dispose()


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def memory_mib(pid: int) -> tuple[float, float]:
    """(current RSS, peak RSS) of a process in MiB, from /proc."""
    values = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(("VmRSS:", "VmHWM:")):
            values[line.split(":")[0]] = int(line.split()[1]) / 1024
    return values.get("VmRSS", 0.0), values.get("VmHWM", 0.0)


def _stop(process: subprocess.Popen[bytes]) -> None:
    if process.poll() is None:
        os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait(timeout=10)


@contextmanager
def live_service(name: str, extra_env: dict[str, str] | None = None) -> Iterator[LiveService]:
    """The API and a worker on a scratch database and queue, with one organisation's key."""
    from sqlalchemy.engine import make_url

    suffix = uuid.uuid4().hex[:8]
    database = f"innotune_bench_{name}_{suffix}"
    database_url = make_url(ADMIN_URL).set(database=database).render_as_string(hide_password=False)
    log_dir = Path(tempfile.mkdtemp(prefix=f"innotune-bench-{name}-"))
    env = {
        **os.environ,
        "DATABASE_URL": database_url,
        "CELERY_BROKER_URL": BROKER_URL,
        "INNOTUNE_CELERY_QUEUE": f"innotune-bench-{name}-{suffix}",
        "INNOTUNE_LOG_LEVEL": "WARNING",
        "INNOTUNE_RATE_LIMIT_PER_MINUTE": "1000000",
        **(extra_env or {}),
    }
    _admin(f'CREATE DATABASE "{database}"')
    processes: list[subprocess.Popen[bytes]] = []
    try:
        subprocess.run(
            [sys.executable, "-m", "cli.main", "migrate"], env=env, cwd=ROOT, check=True, capture_output=True
        )
        created = subprocess.run(
            [sys.executable, "-m", "cli.main", "admin", "create-org", f"bench {name} {suffix}"],
            env=env, cwd=ROOT, check=True, capture_output=True, text=True,
        )  # fmt: skip
        key = created.stdout.strip().splitlines()[-1]
        port = _free_port()
        for argv, log in (
            (["serve", "--port", str(port)], "serve.log"),
            (["worker", "--concurrency", "1", "-n", f"bench-{name}-{suffix}@localhost"], "worker.log"),
        ):
            with (log_dir / log).open("wb") as out:
                processes.append(
                    subprocess.Popen(
                        [sys.executable, "-m", "cli.main", *argv],
                        env=env,
                        cwd=ROOT,
                        stdout=out,
                        stderr=subprocess.STDOUT,
                        start_new_session=True,
                    )
                )
        url = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 60
        while True:
            try:
                if httpx.get(f"{url}/readyz", timeout=2).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError(f"the API did not become ready; see {log_dir}")
            time.sleep(0.3)
        yield LiveService(url, key, processes[0].pid, processes[1].pid, log_dir)
    finally:
        for process in processes:
            _stop(process)
        _admin(f'DROP DATABASE IF EXISTS "{database}" WITH (FORCE)')
