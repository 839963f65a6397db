"""The image's steps without a container engine: build the wheel from the files the Dockerfile
copies, install requirements.lock (hashes required) and then the wheel into a clean venv, and start
`serve`, `worker`, `beat` and `collect` from it as the unprivileged user `nobody`, with the code
directory read-only and the working directory not writable — against the run's real PostgreSQL,
Redis and MariaDB. The venv is built once per test run (a module fixture).
"""

from __future__ import annotations

import os
import shutil
import signal
import stat
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest

from tests.api.helpers import Tenants, corpus_json
from tests.fixtures.real_services import IN_CI, RUN_ID, ServiceUrls
from tests.fixtures.server_process import free_port

ROOT = Path(__file__).resolve().parents[2]
#: what the Dockerfile copies into its build stage.
BUILD_FILES = ("pyproject.toml", "README.md")
PACKAGES = ("advisor", "api", "worker", "store", "services", "cli", "conf", "migrations", "collector")
UNPRIVILEGED = "nobody"
#: the image's interpreter is a system one: this machine's, which `nobody` may run (a pyenv under
#: /root may not be).
DEPLOY_PYTHON = shutil.which("python3.11", path="/usr/local/bin:/usr/bin") or sys.executable
pytestmark = pytest.mark.service


@dataclass(frozen=True)
class Installation:
    bin: Path
    #: the only place the unprivileged user may write (HOME, beat's schedule, collected files).
    work: Path


def _run(argv: list[str], **kwargs: object) -> subprocess.CompletedProcess[str]:
    result = subprocess.run(argv, capture_output=True, text=True, timeout=600, **kwargs)  # type: ignore[call-overload]
    assert result.returncode == 0, f"{argv}:\n{result.stdout[-2000:]}\n{result.stderr[-3000:]}"
    return result  # type: ignore[no-any-return]


def _as_unprivileged() -> list[str]:
    """The prefix that runs a command as `nobody`; none when this user cannot switch (not root)."""
    if os.geteuid() != 0:
        message = "not root: the processes run as this user (the code directory is still read-only)"
        if IN_CI:
            print(message, file=sys.stderr)
        return []
    return ["setpriv", f"--reuid={UNPRIVILEGED}", "--regid=nogroup", "--clear-groups", "--"]


def _read_only(tree: Path) -> None:
    for path in [tree, *tree.rglob("*")]:
        if not path.is_symlink():
            mode = path.stat().st_mode
            path.chmod(mode & ~(stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH) | stat.S_IRGRP | stat.S_IROTH)


@pytest.fixture(scope="module")
def installation() -> Iterator[Installation]:
    # Not under pytest's tmp_path: its directories are private to root, and `nobody` must read the code.
    top = Path(tempfile.mkdtemp(prefix=f"innotune-deploy-{RUN_ID}-"))
    top.chmod(0o755)
    try:
        source = top / "src"
        source.mkdir()
        for name in BUILD_FILES:
            shutil.copy2(ROOT / name, source / name)
        for package in PACKAGES:
            shutil.copytree(ROOT / package, source / package, ignore=shutil.ignore_patterns("__pycache__"))
        wheels = top / "wheels"
        _run(
            [
                sys.executable,
                "-m",
                "pip",
                "wheel",
                "--quiet",
                "--no-deps",
                "--wheel-dir",
                str(wheels),
                str(source),
            ]
        )
        venv = top / "venv"
        _run([DEPLOY_PYTHON, "-m", "venv", str(venv)])
        pip = [str(venv / "bin" / "python"), "-m", "pip", "install", "--quiet", "--disable-pip-version-check"]
        _run([*pip, "--require-hashes", "-r", str(ROOT / "requirements.lock")])
        _run([*pip, "--no-deps", *map(str, wheels.glob("*.whl"))])
        _read_only(venv)
        work = top / "work"
        work.mkdir()
        work.chmod(0o777)
        yield Installation(venv / "bin", work)
    finally:
        for path in [top, *top.rglob("*")]:
            if path.is_dir() and not path.is_symlink():
                path.chmod(0o755)
        shutil.rmtree(top, ignore_errors=True)


def _environment(urls: ServiceUrls, installation: Installation, queue: str) -> dict[str, str]:
    """A clean environment: nothing of this checkout on the path, HOME in the writable folder."""
    return {
        "PATH": f"{installation.bin}:/usr/bin:/bin",
        "HOME": str(installation.work),
        "DATABASE_URL": urls.database_url,
        "CELERY_BROKER_URL": urls.broker_url,
        "INNOTUNE_CELERY_QUEUE": queue,
        "INNOTUNE_BEAT_SCHEDULE": str(installation.work / "celerybeat-schedule"),
        "INNOTUNE_SWEEP_INTERVAL_SECONDS": "2",
        "PYTHONDONTWRITEBYTECODE": "1",
    }


def _start(argv: list[str], env: dict[str, str], log: Path) -> subprocess.Popen[bytes]:
    with log.open("wb") as out:
        # cwd "/": the processes must not need to write where they are started.
        return subprocess.Popen(
            argv, env=env, cwd="/", stdout=out, stderr=subprocess.STDOUT, start_new_session=True
        )


def _stop(process: subprocess.Popen[bytes]) -> None:
    if process.poll() is None:
        os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait(timeout=10)


def _wait_for(check: object, what: str, log: Path, timeout: float = 40) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if check():  # type: ignore[operator]
            return
        time.sleep(0.3)
    raise AssertionError(f"{what} within {timeout} s; log:\n{log.read_text(errors='replace')[-3000:]}")


def test_installed_wheel_serves_works_beats_and_collects_as_an_unprivileged_user(
    installation: Installation, service_urls: ServiceUrls, tenants: Tenants, tmp_path: Path
) -> None:
    prefix = _as_unprivileged()
    queue = f"innotune-test-{RUN_ID}-deploy"
    env = _environment(service_urls, installation, queue)
    innotune = str(installation.bin / "innotune")
    port = free_port()
    node = f"deploy-{RUN_ID}@localhost"
    logs = {name: installation.work / f"{name}.log" for name in ("serve", "worker", "beat")}
    processes = [
        _start([*prefix, innotune, "serve", "--port", str(port)], env, logs["serve"]),
        _start([*prefix, innotune, "worker", "--concurrency", "1", "-n", node], env, logs["worker"]),
        _start([*prefix, innotune, "beat"], env, logs["beat"]),
    ]
    try:
        url = f"http://127.0.0.1:{port}"
        _wait_for(
            lambda: "listening on" in logs["serve"].read_text(errors="replace"),
            "serve listening",
            logs["serve"],
        )
        assert httpx.get(f"{url}/readyz", timeout=10).status_code == 200
        health = [*prefix, innotune, "health"]
        _wait_for(
            lambda: (
                subprocess.run(
                    [*health, "worker", "--node", node], env=env, cwd="/", capture_output=True
                ).returncode
                == 0
            ),
            "the worker answering its healthcheck",
            logs["worker"],
        )
        response = httpx.post(
            f"{url}/v1/analyze",
            params={"wait": 30},
            json={**corpus_json(), "memory": "24G"},
            headers=tenants.mine.headers,
            timeout=60,
        )
        assert response.status_code == 200 and response.json()["status"] == "succeeded", response.text[:2000]
        _wait_for(
            lambda: (
                subprocess.run(
                    [*health, "beat", "--max-age", "30"], env=env, cwd="/", capture_output=True
                ).returncode
                == 0
            ),
            "beat writing its schedule",
            logs["beat"],
        )
        collected = installation.work / "collected"
        collect = subprocess.run(
            [*prefix, innotune, "collect", "--host", "127.0.0.1", "--port", "3306", "--user", "root",
             "--interval", "10", "--no-probe-storage", "--output", str(collected)],
            env=env, cwd="/", capture_output=True, text=True, timeout=120,
        )  # fmt: skip
        assert collect.returncode == 0, collect.stderr[-3000:]
        assert any(collected.iterdir())
        for name, log in logs.items():
            text = log.read_text(errors="replace")
            assert "Traceback" not in text and "Permission denied" not in text, (name, text[-3000:])
    finally:
        for process in processes:
            _stop(process)
