"""The phases of one workload of bench/tuning_gain.py: prepare the data, collect and audit under
load, check every apply_sql on the live instance, then measure each configuration in rounds."""

from __future__ import annotations

import argparse
import os
import secrets
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pymysql

from . import advice, applysql, sysbench
from .configs import Workload, reference_cnf
from .server import BenchError, PrivateServer

HOST_MEMORY = int(Path("/proc/meminfo").read_text().split()[1]) * 1024  # MemTotal
CPUS = len(os.sched_getaffinity(0))  # as nproc


@dataclass
class Bench:
    args: argparse.Namespace
    workload: Workload
    server: PrivateServer
    tool: advice.Innotune
    failures: list[str]
    notes: list[str]
    settings: dict[str, dict[str, str]] = field(default_factory=dict)  # config → live values
    variables: dict[str, dict[str, str]] = field(default_factory=dict)  # config → SHOW GLOBAL VARIABLES


WATCHED = [
    "innodb_buffer_pool_size",
    "innodb_log_file_size",
    "innodb_io_capacity",
    "innodb_io_capacity_max",
    "innodb_flush_neighbors",
    "innodb_flush_method",
    "innodb_flush_log_at_trx_commit",
    "innodb_doublewrite",
    "log_bin",
    "sync_binlog",
]


def hardware(workload: Workload) -> dict[str, str]:
    hw = {"memory": f"{HOST_MEMORY >> 20}M", "cpus": str(CPUS), "storage": "ssd"}
    return {**hw, "memory_limit": workload.memory_limit} if workload.memory_limit else hw


def start_or_fail(bench: Bench, name: str, cnf: Path) -> bool:
    result = bench.server.start(cnf)
    if not result.ok:
        message = f"config {name!r} did not start (rc {result.returncode}): {result.errors[:5]}"
        print(f"\n!!! FAILURE: {message}\n", flush=True)
        bench.failures.append(message)
    return result.ok


def prepare_data(bench: Bench, base: Path) -> float:
    """Start the base, create sbtest and its tables; returns the data size in GiB."""
    if not start_or_fail(bench, "default", base):
        raise BenchError("the Debian default configuration does not start")
    with bench.server.connect() as conn, conn.cursor() as cur:
        cur.execute("CREATE DATABASE IF NOT EXISTS sbtest")
    began = time.monotonic()
    sysbench.prepare(bench.workload.load, bench.server.socket, threads=CPUS)
    with bench.server.connect() as conn, conn.cursor() as cur:
        cur.execute(
            "SELECT SUM(data_length + index_length) FROM information_schema.tables WHERE table_schema='sbtest'"
        )
        size = float(cur.fetchone()[0]) / (1 << 30)
    print(f"  prepared {size:.2f} GiB in {time.monotonic() - began:.0f} s", flush=True)
    return size


def collect_and_audit(bench: Bench, base: Path) -> dict[str, dict[str, Any]]:
    """innotune collect under load, then one audit per profile; the recommended files are written."""
    password = secrets.token_hex(12)
    with bench.server.connect() as conn:
        advice.create_collector_account(conn, password)
    interval, warm = bench.args.collect_interval, bench.args.warmup
    load = sysbench.background(bench.workload.load, bench.server.socket, warm + interval + 30)
    try:
        time.sleep(warm)
        snapshot = bench.server.root / "snapshot"
        line = advice.collect(bench.tool, bench.server.socket, password, interval, snapshot)
        print(f"  collected: {line}", flush=True)
    finally:
        load.terminate()
        load.wait()
    audits = {}
    for profile in ("production", "ci"):
        result = advice.audit(bench.tool, snapshot, base, hardware(bench.workload), profile)
        (bench.server.root / f"{profile}.cnf").write_text(result["mycnf"])
        for finding in advice.summary(result):
            print(
                f"  {profile}: {finding['rule']} {finding['variable']} → {finding['recommended']}", flush=True
            )
        audits[profile] = result
    return audits


def check_apply_sql(bench: Bench, base: Path, audits: dict[str, dict[str, Any]]) -> list[dict[str, Any]]:
    """Each profile's apply_sql on a freshly started base, in the order printed."""
    checks: list[applysql.Check] = []
    for profile, result in audits.items():
        bench.server.stop()
        if not start_or_fail(bench, "default", base):
            continue
        with bench.server.connect() as conn:
            done = applysql.run_all(conn, profile, result["findings"])
        for check in done:
            mark = "ok  " if check.ok else "FAIL"
            print(f"  apply_sql {mark} {profile}: {check.statement} — {check.note}", flush=True)
            if not check.ok:
                bench.failures.append(f"apply_sql ({profile}) {check.statement}: {check.note}")
        checks += done
    bench.server.stop()
    return applysql.as_dicts(checks)


def config_files(bench: Bench, base: Path) -> dict[str, Path]:
    root = bench.server.root
    files = {"default": base, "production": root / "production.cnf", "ci": root / "ci.cnf"}
    budget = bench.workload.budget_bytes(HOST_MEMORY)
    for name, ref in (("expert", "expert.cnf"), ("relaxed", "expert-relaxed.cnf")):
        files[name] = root / f"{name}.cnf"
        files[name].write_text(reference_cnf(base.read_text(), ref, budget))
    if bench.args.skip_default:
        del files["default"]
    for name, (base_name, overrides) in bench.args.variant.items():
        files[name] = root / f"{name}.cnf"
        lines = "".join(f"{variable} = {value}\n" for variable, value in overrides)
        files[name].write_text(
            f"{files[base_name].read_text().rstrip()}\n\n# ---- --variant {name} ----\n[mysqld]\n{lines}"
        )
    if bench.args.only:
        files = {name: path for name, path in files.items() if name in bench.args.only}
    return files


def watched_variables(audits: dict[str, dict[str, Any]]) -> list[str]:
    """The settings the references tune, then every variable either audit recommends."""
    recommended = [f["variable"] for r in audits.values() for f in r["findings"] if f.get("variable")]
    return list(dict.fromkeys(WATCHED + recommended))


def live_settings(bench: Bench, names: list[str]) -> dict[str, str]:
    """What the running server really has (proves the configuration file was read)."""
    values = {}
    with bench.server.connect() as conn, conn.cursor() as cur:
        for name in names:
            try:
                cur.execute(f"SELECT @@GLOBAL.{name}")
                values[name] = str(cur.fetchone()[0])
            except pymysql.MySQLError as exc:  # a variable this server lacks
                values[name] = f"n/a ({exc.__class__.__name__})"
    return values


def all_variables(bench: Bench) -> dict[str, str]:
    """Every global variable of the running server (to say where two configurations differ at all)."""
    with bench.server.connect() as conn, conn.cursor() as cur:
        cur.execute("SHOW GLOBAL VARIABLES")
        return {str(name): str(value) for name, value in cur.fetchall()}


def one_run(bench: Bench, name: str) -> sysbench.RunResult | None:
    """Prewarm, warm-up, measured run; None (and a FAILURE) when the server died meanwhile."""
    load, socket = bench.workload.load, bench.server.socket
    try:
        bench.server.prewarm(load.tables)
        sysbench.run(load, socket, bench.args.warmup)
        return sysbench.run(load, socket, bench.args.duration)
    except (BenchError, pymysql.MySQLError) as exc:
        why = bench.server.died()
        if why is None:
            raise
        message = f"config {name!r} crashed under load: {why} ({str(exc)[:200]})"
        print(f"\n!!! FAILURE: {message}\n", flush=True)
        bench.failures.append(message)
        return None


def measure_rounds(
    bench: Bench, files: dict[str, Path], watched: list[str]
) -> tuple[dict[str, list[dict[str, float]]], set[str]]:
    """Interleaved rounds; the order rotates each round so no configuration always runs first."""
    runs: dict[str, list[dict[str, float]]] = {name: [] for name in files}
    broken: set[str] = set()
    names = list(files)
    for number in range(bench.args.rounds):
        order = names[number % len(names) :] + names[: number % len(names)]
        for name in (n for n in order if n not in broken):
            bench.server.stop()
            if not start_or_fail(bench, name, files[name]):
                broken.add(name)
                continue
            if name not in bench.settings:
                bench.settings[name] = live_settings(bench, watched)
                bench.variables[name] = all_variables(bench)
            result = one_run(bench, name)
            if result is None:
                broken.add(name)
                continue
            loadavg = os.getloadavg()[0]
            runs[name].append({"tps": result.tps, "p95_ms": result.p95_ms, "loadavg_after": loadavg})
            print(
                f"  round {number + 1} {name:10s} {result.tps:9.1f} tps  p95 {result.p95_ms:8.2f} ms",
                flush=True,
            )
    bench.server.stop()
    return {name: [] if name in broken else runs[name] for name in names}, broken
