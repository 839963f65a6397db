"""`innotune serve` says where it listens only once the port is bound, with the real port."""

from __future__ import annotations

import re
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx

from tests.web.browser import ROOT, embedded_environment, migrate

LISTENING = re.compile(r"InnoTune listening on http://127\.0\.0\.1:(\d+)")


def _wait_for_line(log: Path, process: subprocess.Popen[bytes], timeout: float = 30) -> str:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        text = log.read_text(errors="replace")
        if LISTENING.search(text) or process.poll() is not None:
            return text
        time.sleep(0.05)
    return log.read_text(errors="replace")


def test_listening_is_announced_after_the_bind_with_the_real_port(tmp_path: Path) -> None:
    """--port 0 picks a free port; the line names it, and the port answers as soon as it is printed."""
    env = embedded_environment(tmp_path / "innotune.db")
    migrate(env)
    log = tmp_path / "serve.log"
    with log.open("wb") as out:
        process = subprocess.Popen(
            [sys.executable, "-m", "cli.main", "serve", "--port", "0"],
            env=env,
            cwd=ROOT,
            stdout=out,
            stderr=out,
        )
    try:
        text = _wait_for_line(log, process)
        match = LISTENING.search(text)
        assert match, text
        port = int(match.group(1))
        assert port != 0
        assert httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=5).status_code == 200
    finally:
        process.terminate()
        process.wait(timeout=20)


def test_a_taken_port_is_an_error_and_never_announced(tmp_path: Path) -> None:
    env = embedded_environment(tmp_path / "innotune.db")
    migrate(env)
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        result = subprocess.run(
            [sys.executable, "-m", "cli.main", "serve", "--port", str(port)],
            env=env,
            cwd=ROOT,
            capture_output=True,
            timeout=60,
        )
    output = (result.stdout + result.stderr).decode(errors="replace")
    assert result.returncode != 0
    assert "listening on" not in output and "address already in use" in output.lower()
