"""The embedded default: `innotune migrate` then `innotune serve` on SQLite, no Redis, no PostgreSQL."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def test_embedded_default_migrates_and_serves(tmp_path: Path) -> None:
    """With nothing configured but a SQLite file, the service starts and is ready."""
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "CELERY_BROKER_URL")}
    env["DATABASE_URL"] = f"sqlite:///{tmp_path / 'var' / 'innotune.db'}"
    cli = [sys.executable, "-m", "cli.main"]
    subprocess.run([*cli, "migrate"], env=env, check=True, capture_output=True, timeout=120)
    assert (tmp_path / "var" / "innotune.db").is_file()
    port = _free_port()
    server = subprocess.Popen(
        [*cli, "serve", "--port", str(port)], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
    )
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                response = httpx.get(f"http://127.0.0.1:{port}/readyz", timeout=2)
                break
            except httpx.TransportError:
                assert server.poll() is None, server.stderr.read().decode() if server.stderr else ""
                assert time.monotonic() < deadline, "server did not start"
                time.sleep(0.2)
        assert response.status_code == 200
        assert response.json()["checks"] == {"database": "ok", "broker": "ok"}
        assert httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=2).json() == {"status": "ok"}
    finally:
        server.terminate()
        server.wait(timeout=20)
