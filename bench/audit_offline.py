"""Offline audit speed: one whole audit in-process (target ≤ 1 ms median) and `innotune audit`
as a process (target ≤ 0.25 s).

Input: the MariaDB 10.11 sysbench snapshots of the shared corpus (variables, two status samples,
InnoDB status, schema facts) with a Debian-style my.cnf and a 2-core 24 GiB SSD machine.
Prints the figures and writes them to bench/results/audit_offline.json.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from advisor.audit import AuditInputs

ROOT = Path(__file__).resolve().parents[1]
SNAPSHOTS = ROOT.parent / "shared" / "corpus" / "mariadb-10.11-sysbench"
MYCNF = (
    ROOT.parent / "shared" / "corpus" / "realworld" / "mycnf" / "ottok_mariadb-10.1__debian__50-server.cnf"
)
RESULTS = ROOT / "bench" / "results" / "audit_offline.json"


def _files() -> dict[str, Path]:
    return {
        "mycnf": MYCNF,
        "variables": SNAPSHOTS / "s02_load_rw_default.global_variables.tsv",
        "status1": SNAPSHOTS / "s02_load_rw_default.global_status.t20s.tsv",
        "status2": SNAPSHOTS / "s02_load_rw_default.global_status.tsv",
        "innodb_status": SNAPSHOTS / "s02_load_rw_default.innodb_status.txt",
        "schema": SNAPSHOTS / "s02_load_rw_default.is_tables.tsv",
    }


def bench_inputs() -> AuditInputs:
    """The bench's audit inputs: the sysbench snapshots and the Debian my.cnf on a 2-core 24 GiB SSD host."""
    from advisor.audit import AuditInputs

    files = {key: path.read_text() for key, path in _files().items()}
    return AuditInputs(
        mycnf={"/etc/mysql/mariadb.conf.d/50-server.cnf": files["mycnf"]},
        variables=files["variables"],
        status=(files["status1"], files["status2"]),
        innodb_status=files["innodb_status"],
        schema=files["schema"],
        memory="24G",
        cpus=2,
        storage="ssd",
    )


def in_process(rounds: int = 2000) -> dict[str, float]:
    sys.path.insert(0, str(ROOT))
    from advisor.audit import run_audit

    inputs = bench_inputs()
    result = run_audit(inputs)  # warm: the catalog loads once per process
    samples = []
    for _ in range(rounds):
        start = time.perf_counter()
        run_audit(inputs)
        samples.append(time.perf_counter() - start)
    samples.sort()
    return {
        "findings": len(result.findings),
        "median_ms": statistics.median(samples) * 1000,
        "p90_ms": samples[int(len(samples) * 0.9)] * 1000,
        "rounds": rounds,
    }


def as_process(rounds: int = 10) -> dict[str, float]:
    files = _files()
    command = [
        str(ROOT / ".venv" / "bin" / "innotune"),
        "audit",
        "--mycnf", str(files["mycnf"]),
        "--variables", str(files["variables"]),
        "--status", str(files["status1"]),
        "--status", str(files["status2"]),
        "--innodb-status", str(files["innodb_status"]),
        "--schema", str(files["schema"]),
        "--memory", "24G", "--cpus", "2", "--storage", "ssd",
        "--format", "json",
    ]  # fmt: skip
    samples = []
    for _ in range(rounds):
        start = time.perf_counter()
        done = subprocess.run(command, capture_output=True, check=False)
        samples.append(time.perf_counter() - start)
        if done.returncode not in (0, 1):
            raise SystemExit(f"innotune audit failed: {done.stderr.decode()}")
    return {"median_s": statistics.median(samples), "max_s": max(samples), "rounds": rounds}


def main() -> None:
    load_before = os.getloadavg()[0]
    figures = {"in_process": in_process(), "process": as_process()}
    figures["loadavg_1m_before_after"] = [round(load_before, 2), round(os.getloadavg()[0], 2)]
    figures["targets"] = {"in_process_median_ms": 1.0, "process_median_s": 0.25}
    RESULTS.write_text(json.dumps(figures, indent=2) + "\n")
    print(json.dumps(figures, indent=2))


if __name__ == "__main__":
    main()
