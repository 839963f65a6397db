"""sysbench 1.0 against the private instance: install, prepare, timed runs and their figures."""

from __future__ import annotations

import re
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

from .server import BenchError


@dataclass(frozen=True)
class Load:
    """One sysbench test with its data set and concurrency."""

    test: str
    tables: int
    table_size: int
    threads: int
    rand_type: str = "special"


@dataclass(frozen=True)
class RunResult:
    tps: float
    p95_ms: float
    errors_per_s: float


def ensure_sysbench() -> None:
    """`apt-get install -y sysbench` when it is missing (Debian's package, 1.0.20 on bookworm)."""
    if shutil.which("sysbench"):
        return
    print("sysbench is missing: apt-get install -y sysbench", flush=True)
    run = subprocess.run(["apt-get", "install", "-y", "sysbench"], capture_output=True, text=True)
    if run.returncode != 0:
        subprocess.run(["apt-get", "update"], capture_output=True, check=False)
        run = subprocess.run(["apt-get", "install", "-y", "sysbench"], capture_output=True, text=True)
    if run.returncode != 0 or not shutil.which("sysbench"):
        raise BenchError(f"cannot install sysbench: {run.stderr[-1000:]}")


def _argv(load: Load, socket: Path, command: str, threads: int, extra: list[str] | None = None) -> list[str]:
    return [
        "sysbench",
        load.test,
        f"--mysql-socket={socket}",
        "--mysql-user=root",
        "--mysql-db=sbtest",
        f"--tables={load.tables}",
        f"--table-size={load.table_size}",
        f"--threads={threads}",
        f"--rand-type={load.rand_type}",
        *(extra or []),
        command,
    ]


def _check(run: subprocess.CompletedProcess[str], what: str) -> str:
    if run.returncode != 0:
        raise BenchError(f"sysbench {what} failed ({run.returncode}): {(run.stderr or run.stdout)[-1500:]}")
    return run.stdout


def prepare(load: Load, socket: Path, threads: int = 2) -> None:
    """Create and fill the tables (`threads` tables are loaded in parallel)."""
    threads = min(threads, load.tables)
    run = subprocess.run(_argv(load, socket, "prepare", threads), capture_output=True, text=True)
    _check(run, "prepare")


def run(load: Load, socket: Path, seconds: int) -> RunResult:
    """One timed run; the figures are sysbench's own totals over the run."""
    extra = [f"--time={seconds}", "--report-interval=0", "--percentile=95", "--db-ps-mode=auto"]
    argv = _argv(load, socket, "run", load.threads, extra)
    done = subprocess.run(argv, capture_output=True, text=True, timeout=seconds + 300)
    return parse(_check(done, "run"))


def background(load: Load, socket: Path, seconds: int) -> subprocess.Popen[str]:
    """A run in the background (the load under which the collector samples the server)."""
    argv = _argv(load, socket, "run", load.threads, [f"--time={seconds}", "--report-interval=0"])
    return subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def parse(output: str) -> RunResult:
    tps = re.search(r"transactions:\s+\d+\s+\(([\d.]+) per sec", output)
    p95 = re.search(r"95th percentile:\s+([\d.]+)", output)
    errors = re.search(r"ignored errors:\s+\d+\s+\(([\d.]+) per sec", output)
    if tps is None or p95 is None:
        raise BenchError(f"cannot read sysbench output:\n{output[-1500:]}")
    return RunResult(float(tps.group(1)), float(p95.group(1)), float(errors.group(1)) if errors else 0.0)
