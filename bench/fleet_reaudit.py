"""Fleet re-audit: how long does a forced re-audit of an N-server fleet take, dispatch to last audit?

Target (issue 14): a 10,000-server fleet re-audited in ≤ 20 s on this machine's 2 cores with real
workers and PostgreSQL, 100,000 in ≤ 200 s (linear: 500 audits/s). Runs against the real PostgreSQL and Redis
(INNOTUNE_TEST_POSTGRES_URL, CELERY_BROKER_URL as in the tests), in a scratch database of its own with
real `innotune worker` processes on a queue of their own.

Setup (not timed): one organisation, one fleet of N servers, each with one snapshot; the snapshots
are copies of a few distinct real captures from the shared corpus, validated and redacted once by
the services and inserted in batches. Timed: `POST /v1/fleets/{id}/reaudit?force=true` as the API
does it (start the run, commit, send `fleets.dispatch`), until the run's progress says finished.
A second forced run (`--rounds 2`, the default) re-audits the unchanged fleet: its audits store a
reference to the first run's results, and the bytes each run adds to the audits table are measured.
Where the time goes comes from the workers' log (each `audits.run_batch` logs its claim, parse,
rules and store milliseconds); the rest of the workers' time is broker, queueing and idle.
Prints the figures and records them under the fleet size in bench/results/fleet_reaudit.json.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
CORPUS = ROOT.parent / "shared" / "corpus"
SYSBENCH = CORPUS / "mariadb-10.11-sysbench"
REALWORLD = CORPUS / "realworld"
SANDBOX_MYCNF = CORPUS / "percona-toolkit" / "sandbox" / "servers" / "mariadb" / "10.4" / "my.sandbox.cnf"
RESULTS = ROOT / "bench" / "results" / "fleet_reaudit.json"
ADMIN_URL = os.environ.get(
    "INNOTUNE_TEST_POSTGRES_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/postgres"
)
BROKER_URL = os.environ.get("CELERY_BROKER_URL", "redis://127.0.0.1:6379/0")
TARGET_AUDITS_PER_SECOND = 500.0  # 10,000 in 20 s, 100,000 in 200 s
INSERT_BATCH = 1000


def _admin(statement: str) -> None:
    from sqlalchemy import create_engine, text

    engine = create_engine(ADMIN_URL, isolation_level="AUTOCOMMIT")
    with engine.connect() as connection:
        connection.execute(text(statement))
    engine.dispose()


def _uploads() -> list[tuple[str, Any, dict[str, Any] | None, str | None]]:
    """(label, upload, server hardware, server version when the dump lacks it) of the distinct
    captures the fleet's snapshots copy."""
    from services.snapshots import SnapshotUpload

    def sysbench(stage: str, mycnf: Path, statuses: list[str]) -> SnapshotUpload:
        base = SYSBENCH / stage
        return SnapshotUpload(
            mycnf={"/etc/mysql/my.cnf": mycnf.read_text()},
            variables=Path(f"{base}.global_variables.tsv").read_text(),
            status=[Path(f"{base}.{name}").read_text() for name in statuses],
            innodb_status=Path(f"{base}.innodb_status.txt").read_text(),
            status_names=statuses,
        )

    mysql80 = SnapshotUpload(
        mycnf={
            "/etc/mysql/my.cnf": (
                REALWORLD / "mycnf" / "docker-library_mysql__8.0-config__my.cnf"
            ).read_text()
        },
        variables=(
            REALWORLD / "variables" / "netdata_go.d.plugin__mysql-8.0.30__global_variables.txt"
        ).read_text(),
        status=[(REALWORLD / "status" / "netdata_go.d.plugin__mysql-8.0.30__global_status.txt").read_text()],
    )
    isucon = REALWORLD / "mycnf" / "catatsuy_memo_isucon__etc__my.cnf"
    return [
        (
            "mariadb-10.11 under sysbench",
            sysbench("s02_load_rw_default", SANDBOX_MYCNF, ["global_status.tsv", "global_status.t20s.tsv"]),
            {"memory": "24G", "cpus": 2, "storage": "ssd"},
            None,
        ),
        (
            "mariadb-10.11 idle",
            sysbench("s01_idle_default", SANDBOX_MYCNF, ["global_status.tsv"]),
            None,
            None,
        ),
        ("mysql-8.0.30", mysql80, {"memory": "16G", "cpus": 8, "storage": "nvme"}, "8.0.30"),
        (
            "mariadb-10.11 isucon my.cnf",
            sysbench("s02_load_rw_default", isucon, ["global_status.t20s.tsv"]),
            {"memory": "8G", "cpus": 4},
            None,
        ),
    ]


def _setup_fleet(servers: int) -> tuple[str, str, list[str]]:
    """One organisation and a fleet of `servers` servers with a snapshot each: (org id, fleet id, labels)."""
    from datetime import UTC, datetime
    from types import SimpleNamespace

    from services.fleets import FleetFields, create_fleet
    from services.orgs import create_organization
    from services.snapshots import build_snapshot
    from store.db import unit_of_work
    from store.ids import new_id
    from store.repositories.servers import add_servers
    from store.repositories.snapshots import add_snapshots

    variants = []
    for label, upload, hardware, version in _uploads():
        server = SimpleNamespace(id=None, version=version) if version else None
        snapshot, _version = build_snapshot("-", server, upload, {})  # type: ignore[arg-type]
        variants.append((label, snapshot, hardware, version))  # validated and redacted once
    with unit_of_work() as session:
        organization, _key = create_organization(session, "bench fleet")
        fleet = create_fleet(
            session, organization.id, FleetFields(name="bench", schedule_interval_seconds=86400)
        )
        org_id, fleet_id = organization.id, fleet.id
    now = datetime.now(UTC)
    for start in range(0, servers, INSERT_BATCH):
        server_rows, snapshot_rows = [], []
        for number in range(start, min(servers, start + INSERT_BATCH)):
            _label, snapshot, hardware, version = variants[number % len(variants)]
            server_id = new_id()
            server_rows.append(
                {
                    "id": server_id,
                    "organization_id": org_id,
                    "name": f"db{number:05d}",
                    "labels": {},
                    "hardware": hardware,
                    "version": version,
                    "role": "replica" if number % 3 else "primary",
                    "profile": "production",
                    "fleet_id": fleet_id,
                    "created_at": now,
                    "updated_at": now,
                }
            )
            snapshot_rows.append(
                {
                    "id": new_id(),
                    "organization_id": org_id,
                    "server_id": server_id,
                    "inputs": snapshot.inputs,
                    "content_hash": snapshot.content_hash,
                    "server_version": snapshot.server_version,
                    "warnings": snapshot.warnings,
                    "settings": snapshot.settings,
                    "version_from_variables": snapshot.version_from_variables,
                    "prepared": snapshot.prepared,
                    "created_at": now,
                }
            )
        with unit_of_work() as session:
            add_servers(session, server_rows)
            add_snapshots(session, snapshot_rows)
    return org_id, fleet_id, [variant[0] for variant in variants]


def _start_worker(env: dict[str, str], name: str, concurrency: int, log: Path) -> subprocess.Popen[bytes]:
    argv = [sys.executable, "-m", "cli.main", "worker", "--concurrency", str(concurrency), "-n", name]
    return subprocess.Popen(
        argv, env=env, stdout=log.open("wb"), stderr=subprocess.STDOUT, start_new_session=True
    )


def _wait_workers(names: list[str], timeout: float = 60) -> None:
    from celery import Celery

    client = Celery("bench-probe", broker=BROKER_URL)
    deadline = time.monotonic() + timeout
    waiting = set(names)
    while waiting and time.monotonic() < deadline:
        for reply in client.control.ping(destination=sorted(waiting), timeout=1.0) or []:
            waiting -= set(reply)
    if waiting:
        raise RuntimeError(f"workers did not answer: {sorted(waiting)}")


def _progress(org_id: str, fleet_id: str, run_id: str) -> dict[str, Any]:
    from services.fleets import get_run_progress
    from store.db import unit_of_work

    with unit_of_work() as session:
        return get_run_progress(session, org_id, fleet_id, run_id)


def _poll_seconds(servers: int) -> float:
    """How often the bench reads the run's progress: 4 times a second up to 25,000 servers, less often
    above. A progress read counts the run's audits (every row version while the run updates them):
    polled 4 times a second during a 100,000-server run it would be a client taking a share of the
    two cores the run is measured on."""
    return max(0.25, servers / 100_000)


def _reaudit(org_id: str, fleet_id: str, timeout: float, poll_seconds: float) -> dict[str, Any]:
    """What the API's reaudit endpoint does, then poll the run's progress until it is finished."""
    from services.fleets import start_reaudit
    from services.jobs import unit_of_work

    began = time.monotonic()
    with unit_of_work() as session:  # commits, then sends `fleets.dispatch`
        run_id = start_reaudit(session, org_id, fleet_id, force=True).id
    dispatched_at = None
    samples = []
    while True:
        progress = _progress(org_id, fleet_id, run_id)
        elapsed = time.monotonic() - began
        samples.append((round(elapsed, 2), progress["done"]))
        if dispatched_at is None and progress["pending"] == 0:
            dispatched_at = elapsed
        if progress["finished"] or elapsed > timeout:
            break
        time.sleep(poll_seconds)
    return {
        "run_id": run_id,
        "seconds": round(time.monotonic() - began, 2),
        "dispatched_after_seconds": round(dispatched_at, 2) if dispatched_at is not None else None,
        "progress": {k: v for k, v in progress.items() if k not in ("id", "fleet_id", "started_at")},
        "done_over_time": samples[:: max(1, len(samples) // 20)],
    }


def _audit_timings(run_id: str) -> dict[str, Any]:
    """Per-audit run time (started → finished) and the spread of finishing times."""
    import statistics

    from sqlalchemy import select

    from store.db import unit_of_work
    from store.models import Audit

    with unit_of_work() as session:
        rows = session.execute(
            select(Audit.created_at, Audit.started_at, Audit.finished_at).where(Audit.fleet_run_id == run_id)
        ).all()
    durations = sorted(
        (finished - started).total_seconds() * 1000 for _, started, finished in rows if finished
    )
    if len(durations) < 2:
        return {}
    quantiles = statistics.quantiles(durations, n=100)
    # an audit's started/finished are its batch's: this is how long a batch takes, claim to store
    return {"batch_ms": {"p50": round(quantiles[49], 2), "p99": round(quantiles[98], 2)}, "audits": len(rows)}


def _audits_bytes() -> int:
    """The audits table on disk: heap, TOAST and indexes."""
    from sqlalchemy import text

    from store.db import unit_of_work

    with unit_of_work() as session:
        return int(session.execute(text("SELECT pg_total_relation_size('audits')")).scalar_one())


def _database_bytes() -> int:
    """The scratch database on disk (tables, TOAST, indexes): what a run of this size needs."""
    from sqlalchemy import text

    from store.db import unit_of_work

    with unit_of_work() as session:
        return int(session.execute(text("SELECT pg_database_size(current_database())")).scalar_one())


def _where_time_goes(logs: Path, offsets: dict[Path, int], seconds: float, options: Any) -> dict[str, Any]:
    """Worker seconds per phase, summed over the batches the workers logged during this run."""
    phases = dict.fromkeys(("claim", "parse", "rules", "store"), 0.0)
    batches, cpu, audits = 0, 0.0, 0
    for path, offset in offsets.items():
        with path.open("rb") as handle:
            handle.seek(offset)
            for line in handle:
                if b'"batch_ms"' not in line:
                    continue
                record = json.loads(line)
                batches += 1
                cpu += record.get("batch_cpu_ms", 0.0) / 1000
                audits += sum(
                    int(number) for number in re.findall(r"(\d+) (?:succeeded|failed)", record["message"])
                )
                for phase, value in record["batch_ms"].items():
                    phases[phase] = phases.get(phase, 0.0) + value / 1000
    capacity = seconds * options.workers * options.concurrency
    busy = sum(phases.values())
    return {
        "batches": batches,
        "worker_seconds": {phase: round(value, 2) for phase, value in phases.items()},
        "broker_queue_idle_seconds": round(capacity - busy, 2),
        "worker_cpu_ms_per_audit": round(cpu * 1000 / audits, 2) if audits else None,
        "worker_capacity_seconds": round(capacity, 2),
    }


def _read_timings(org_id: str, fleet_id: str, run_id: str) -> dict[str, Any]:
    """How long the fleet's summary and a run's progress take to read once the run is done (best of 3)."""
    from services.fleets import fleet_summary
    from store.db import unit_of_work

    def best(action: Any) -> float:
        times = []
        for _ in range(3):
            began = time.perf_counter()
            action()
            times.append(time.perf_counter() - began)
        return round(min(times) * 1000, 1)

    def summary() -> None:
        with unit_of_work() as session:
            fleet_summary(session, org_id, fleet_id)

    return {
        "summary_ms": best(summary),
        "progress_ms": best(lambda: _progress(org_id, fleet_id, run_id)),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--servers", type=int, default=1000)
    parser.add_argument("--workers", type=int, default=2, help="worker processes (each a Celery pool)")
    parser.add_argument("--concurrency", type=int, default=2, help="pool size of each worker")
    parser.add_argument("--chunk", type=int, default=500, help="servers per dispatcher transaction")
    parser.add_argument("--batch", type=int, default=25, help="audits per worker task")
    parser.add_argument("--rounds", type=int, default=2, help="forced runs; the second is unchanged")
    parser.add_argument("--timeout", type=float, default=900.0)
    options = parser.parse_args()
    load_before = os.getloadavg()[0]

    from sqlalchemy.engine import make_url

    run = uuid.uuid4().hex[:8]
    database = f"innotune_bench_fleet_{run}"
    database_url = make_url(ADMIN_URL).set(database=database).render_as_string(hide_password=False)
    env = {
        **os.environ,
        "DATABASE_URL": database_url,
        "CELERY_BROKER_URL": BROKER_URL,
        "INNOTUNE_CELERY_QUEUE": f"innotune-bench-fleet-{run}",
        "INNOTUNE_LOG_LEVEL": "INFO",  # the batches' timings
        "INNOTUNE_LOG_FORMAT": "json",
        "INNOTUNE_FLEET_DISPATCH_CHUNK": str(options.chunk),
        "INNOTUNE_FLEET_AUDITS_PER_TASK": str(options.batch),
    }
    os.environ.update({k: env[k] for k in ("DATABASE_URL", "CELERY_BROKER_URL", "INNOTUNE_CELERY_QUEUE")})
    _admin(f'CREATE DATABASE "{database}"')
    logs = Path(f"/tmp/innotune-bench-fleet-{run}")
    logs.mkdir()
    workers: list[subprocess.Popen[bytes]] = []
    try:
        from migrations.commands import upgrade

        upgrade(database_url)
        setup_began = time.monotonic()
        org_id, fleet_id, variants = _setup_fleet(options.servers)
        setup_seconds = time.monotonic() - setup_began
        names = [f"bench-{run}-{index}@localhost" for index in range(options.workers)]
        for index, name in enumerate(names):
            workers.append(_start_worker(env, name, options.concurrency, logs / f"worker{index}.log"))
        _wait_workers(names)
        _admin(f'ALTER DATABASE "{database}" SET jit = off')
        rounds = []
        for _ in range(options.rounds):
            before = _audits_bytes()
            log_offsets = {path: path.stat().st_size for path in logs.glob("worker*.log")}
            outcome = _reaudit(org_id, fleet_id, options.timeout, _poll_seconds(options.servers))
            outcome.update(_audit_timings(outcome["run_id"]))
            outcome["bytes_per_audit"] = round(
                (_audits_bytes() - before) / max(1, outcome["progress"]["succeeded"])
            )
            outcome["where_time_goes"] = _where_time_goes(logs, log_offsets, outcome["seconds"], options)
            rounds.append(outcome)
        outcome = rounds[0]
        outcome.update(_read_timings(org_id, fleet_id, outcome["run_id"]))
        outcome["database_bytes"] = _database_bytes()  # dropped below, with the workers stopped
        if len(rounds) > 1:
            outcome["unchanged_reaudit"] = {
                key: rounds[1][key] for key in ("seconds", "bytes_per_audit", "where_time_goes")
            }
            outcome["unchanged_reaudit"]["audits_per_second"] = round(
                rounds[1]["progress"]["succeeded"] / rounds[1]["seconds"], 1
            )
    finally:
        for process in workers:
            if process.poll() is None:
                os.killpg(process.pid, signal.SIGTERM)
                process.wait(timeout=30)
        from store.db import dispose_engine

        dispose_engine()
        _admin(f'DROP DATABASE IF EXISTS "{database}" WITH (FORCE)')

    seconds = outcome["seconds"]
    results = {
        "servers": options.servers,
        "seconds": seconds,
        "audits_per_second": round(outcome["progress"]["succeeded"] / seconds, 1) if seconds else None,
        "setup_seconds": round(setup_seconds, 1),
        "workers": options.workers,
        "concurrency_each": options.concurrency,
        "dispatch_chunk": options.chunk,
        "snapshot_variants": variants,
        "cpus": os.cpu_count(),
        "target": f"{options.servers:,} servers in ≤ {options.servers / TARGET_AUDITS_PER_SECOND:g} s",
        "loadavg_1m_before_after": [round(load_before, 2), round(os.getloadavg()[0], 2)],
        "audits_per_task": options.batch,
        "progress_poll_seconds": _poll_seconds(options.servers),
        **{key: value for key, value in outcome.items() if key != "run_id"},
    }
    print(json.dumps(results, indent=2))
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    recorded = json.loads(RESULTS.read_text()) if RESULTS.exists() else {}
    recorded[str(options.servers)] = results
    RESULTS.write_text(json.dumps(recorded, indent=2, sort_keys=True) + "\n")


if __name__ == "__main__":
    main()
