"""Our advice, obtained as a user obtains it: `innotune collect` with the least-privilege account of
docs/collector.md, then `innotune audit --format json` per profile."""

from __future__ import annotations

import json
import os
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pymysql

from .server import BenchError

ROOT = Path(__file__).resolve().parents[2]
COLLECT_USER = "innotune"


@dataclass(frozen=True)
class Innotune:
    """How to run `innotune`: the venv's command, or the code of a git revision (`--rev`)."""

    argv: list[str]
    env: dict[str, str]
    source: str = "working tree"

    @classmethod
    def from_tree(cls) -> Innotune:
        return cls([str(ROOT / ".venv" / "bin" / "innotune")], dict(os.environ))

    @classmethod
    def from_revision(cls, rev: str, into: Path) -> Innotune:
        """Export `rev` with git archive and run its cli (the working tree may be mid-change)."""
        into.mkdir(parents=True, exist_ok=True)
        git = ["git", "-C", str(ROOT)]
        commit = subprocess.run(
            [*git, "rev-parse", rev], capture_output=True, text=True, check=True
        ).stdout.strip()
        archive = subprocess.run([*git, "archive", commit], capture_output=True, check=True)
        subprocess.run(["tar", "-x", "-C", str(into)], input=archive.stdout, check=True)
        python = str(ROOT / ".venv" / "bin" / "python")
        code = "import sys; from cli.main import main; sys.exit(main())"
        return cls([python, "-c", code], {**os.environ, "PYTHONPATH": str(into)}, f"{rev} = {commit}")

    def run(self, args: list[str]) -> subprocess.CompletedProcess[str]:
        return subprocess.run([*self.argv, *args], capture_output=True, text=True, env=self.env, check=False)


def create_collector_account(conn: pymysql.connections.Connection, password: str) -> None:  # type: ignore[type-arg]
    """Exactly the statements of docs/collector.md, for a socket login on this host."""
    with conn.cursor() as cur:
        cur.execute(f"DROP USER IF EXISTS '{COLLECT_USER}'@'localhost'")
        cur.execute(
            f"CREATE USER '{COLLECT_USER}'@'localhost' IDENTIFIED BY %s WITH MAX_USER_CONNECTIONS 2",
            (password,),
        )
        cur.execute(f"GRANT PROCESS, SLAVE MONITOR ON *.* TO '{COLLECT_USER}'@'localhost'")
        cur.execute(f"GRANT SELECT ON `sbtest`.* TO '{COLLECT_USER}'@'localhost'")


def collect(tool: Innotune, socket: Path, password: str, interval: int, output: Path) -> str:
    """`innotune collect --socket ... --output DIR`; returns the audit line it prints."""
    with tempfile.NamedTemporaryFile("w", prefix="innotune-pw-", delete=False) as handle:
        handle.write(password + "\n")
    os.chmod(handle.name, 0o600)
    try:
        args = ["collect", "--socket", str(socket), "--user", COLLECT_USER, "--password-file", handle.name]
        done = tool.run([*args, "--interval", str(interval), "--output", str(output)])
    finally:
        os.unlink(handle.name)
    if done.returncode != 0:
        raise BenchError(f"innotune collect failed ({done.returncode}): {done.stderr[-2000:]}")
    if done.stderr.strip():
        print(f"  collector notes: {done.stderr.strip()}", flush=True)
    return done.stdout.strip()


def audit(
    tool: Innotune, snapshot: Path, mycnf: Path, hardware: dict[str, str], profile: str
) -> dict[str, Any]:
    """`innotune audit` of the collected files and our my.cnf. The bench's hardware flags replace those
    fields of the collector's hardware.json (the same facts on every run), the rest of it (the storage
    probe's latencies) stays."""
    args = ["audit", "--mycnf", str(mycnf), "--variables", str(snapshot / "variables.tsv")]
    args += ["--status", str(snapshot / "status-1.tsv"), "--status", str(snapshot / "status-2.tsv")]
    inputs = (
        ("--innodb-status", "innodb_status.txt"),
        ("--schema", "schema.tsv"),
        ("--hardware", "hardware.json"),
    )
    for flag, name in inputs:
        if (snapshot / name).exists():
            args += [flag, str(snapshot / name)]
    for key, value in hardware.items():
        args += [f"--{key.replace('_', '-')}", value]
    done = tool.run([*args, "--profile", profile, "--format", "json"])
    if done.returncode not in (0, 1):  # 1: a critical finding, still an audit
        raise BenchError(
            f"innotune audit --profile {profile} failed ({done.returncode}): {done.stderr[-2000:]}"
        )
    result: dict[str, Any] = json.loads(done.stdout)
    return result


def summary(result: dict[str, Any]) -> list[dict[str, Any]]:
    """The findings in short: rule, severity, variable, current → recommended, apply_sql."""
    keys = ("rule", "severity", "variable", "current", "recommended", "restart_required", "apply_sql")
    return [{key: finding.get(key) for key in keys} for finding in result["findings"]]
