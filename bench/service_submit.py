"""Service throughput: submit audits at 50/s for 20 s; how long from submit to a finished audit?

Targets (issue "the service"): submit → finished p50 ≤ 150 ms, p99 ≤ 500 ms at 50 submissions/s,
worker RSS ≤ 200 MiB. Runs against the real PostgreSQL and Redis (INNOTUNE_TEST_POSTGRES_URL,
CELERY_BROKER_URL as in the tests): a scratch database of its own, a real `innotune worker` process
on a queue of its own, and one organisation with one server whose snapshot is the MariaDB 10.11
sysbench capture of the shared corpus.

Submissions are open-loop (each at its scheduled time, whatever the previous one took), either
through the services (`--via services`: unit of work → commit → enqueue, what the API does) or
through HTTP (`--via http`: POST /v1/audits to an `innotune serve` of its own). Latency is the
worker's `finished_at` minus the moment the submission started (one clock: the same host).
With `--fleet N` (issue 14) a forced re-audit of an N-server fleet (set up as bench/fleet_reaudit.py
does) starts as the load begins: the submissions must keep their latency while the fleet's batches
run on the same worker, which serves them from a queue of their own after the main one.
Prints the figures and records them under the mode's key in bench/results/service_submit.json
(`services+fleet10000` and the like with --fleet).
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import statistics
import subprocess
import sys
import threading
import time
import uuid
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
CORPUS = ROOT.parent / "shared" / "corpus"
SYSBENCH = CORPUS / "mariadb-10.11-sysbench" / "s02_load_rw_default"
MYCNF = CORPUS / "percona-toolkit" / "sandbox" / "servers" / "mariadb" / "10.4" / "my.sandbox.cnf"
RESULTS = ROOT / "bench" / "results" / "service_submit.json"
ADMIN_URL = os.environ.get(
    "INNOTUNE_TEST_POSTGRES_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/postgres"
)
BROKER_URL = os.environ.get("CELERY_BROKER_URL", "redis://127.0.0.1:6379/0")
TARGETS = {"p50_ms": 150.0, "p99_ms": 500.0, "worker_rss_mib": 200.0}


def _admin(statement: str) -> None:
    from sqlalchemy import create_engine, text

    engine = create_engine(ADMIN_URL, isolation_level="AUTOCOMMIT")
    with engine.connect() as connection:
        connection.execute(text(statement))
    engine.dispose()


def _memory_mib(pid: int) -> tuple[float, float]:
    """(RSS, PSS) of a process: PSS shares the pages a forked pool shares, so PSS values add up."""
    try:
        found = {
            line.split(":")[0]: int(line.split()[1]) / 1024
            for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines()
            if line.startswith(("Rss:", "Pss:"))
        }
    except (OSError, ValueError, IndexError):
        return 0.0, 0.0
    return found.get("Rss", 0.0), found.get("Pss", 0.0)


def _process_tree(pid: int) -> list[int]:
    children = [int(stat.parent.name) for stat in Path("/proc").glob("[0-9]*/stat") if _parent(stat) == pid]
    return [pid, *(grand for child in children for grand in _process_tree(child))]


def _parent(stat: Path) -> int:
    try:
        return int(stat.read_text().rsplit(")", 1)[1].split()[1])
    except (OSError, IndexError, ValueError):
        return -1


class RssSampler(threading.Thread):
    """Peak RSS per process of the worker's tree, sampled every 200 ms."""

    def __init__(self, pid: int) -> None:
        super().__init__(daemon=True)
        self.pid, self.stop = pid, threading.Event()
        self.peak_rss: dict[int, float] = {}
        self.peak_pss_total = 0.0

    def run(self) -> None:
        while not self.stop.wait(0.2):
            pss_total = 0.0
            for pid in _process_tree(self.pid):
                rss, pss = _memory_mib(pid)
                self.peak_rss[pid] = max(self.peak_rss.get(pid, 0.0), rss)
                pss_total += pss
            self.peak_pss_total = max(self.peak_pss_total, pss_total)


def _start(argv: list[str], env: dict[str, str], log: Path) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        argv, env=env, stdout=log.open("wb"), stderr=subprocess.STDOUT, start_new_session=True
    )


def _setup_data() -> tuple[str, str, str]:
    """One organisation with one server and its snapshot: (org id, key, server id)."""
    from services.orgs import create_organization
    from services.servers import ServerFields, create_server
    from services.snapshots import SnapshotUpload, ingest_snapshot
    from store.db import unit_of_work

    upload = SnapshotUpload(
        mycnf={"/etc/mysql/my.cnf": MYCNF.read_text()},
        variables=Path(f"{SYSBENCH}.global_variables.tsv").read_text(),
        status=[Path(f"{SYSBENCH}.global_status.t20s.tsv").read_text()],
        innodb_status=Path(f"{SYSBENCH}.innodb_status.txt").read_text(),
    )
    with unit_of_work() as session:
        organization, key = create_organization(session, "bench")
        server = create_server(session, organization.id, ServerFields(name="db1", hardware={"memory": "24G"}))
        ingest_snapshot(session, organization.id, server.id, upload)
        return organization.id, key, server.id


def _submit_via_services(org_id: str, server_id: str) -> str:
    from services.audits import submit_audit
    from services.jobs import unit_of_work

    with unit_of_work() as session:  # commits, then sends the audit's job
        audit, _ = submit_audit(
            session,
            org_id,
            server_id=server_id,
            snapshot_id=None,
            callback_url=None,
            idempotency_key=None,
            request_hash=None,
        )
        audit_id = audit.id
    return audit_id


def _http_submitter(base_url: str, key: str, server_id: str):  # type: ignore[no-untyped-def]
    import httpx

    client = httpx.Client(base_url=base_url, headers={"Authorization": f"Bearer {key}"}, timeout=10)

    def submit(_org_id: str, _server_id: str) -> str:
        response = client.post("/v1/audits", json={"server_id": server_id})
        response.raise_for_status()
        return str(response.json()["id"])

    return submit


def _wait_http(base_url: str, process: subprocess.Popen[bytes], timeout: float = 30) -> None:
    import httpx

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError("innotune serve exited early")
        try:
            if httpx.get(f"{base_url}/readyz", timeout=1).status_code == 200:
                return
        except httpx.TransportError:
            pass
        time.sleep(0.2)
    raise RuntimeError("innotune serve did not become ready")


def _run_load(submit, org_id: str, server_id: str, rate: float, seconds: float):  # type: ignore[no-untyped-def]
    """Open-loop: submission i starts at start + i/rate; returns [(audit id, submitted at)]."""
    count = int(rate * seconds)
    start = time.monotonic() + 0.5
    submitted: list[tuple[str, datetime]] = []
    errors: list[str] = []

    def one(index: int) -> None:
        time.sleep(max(0.0, start + index / rate - time.monotonic()))
        began = datetime.now(UTC)
        try:
            submitted.append((submit(org_id, server_id), began))
        except Exception as exc:
            errors.append(f"{type(exc).__name__}: {exc}")

    with ThreadPoolExecutor(max_workers=16) as pool:
        list(pool.map(one, range(count)))
    return submitted, errors, time.monotonic() - start


def _finished(ids: list[str], timeout: float = 60) -> dict[str, tuple[str, datetime | None]]:
    from sqlalchemy import select

    from store.db import unit_of_work
    from store.models import Audit

    deadline = time.monotonic() + timeout
    while True:
        with unit_of_work() as session:
            rows = session.execute(
                select(Audit.id, Audit.status, Audit.finished_at).where(Audit.id.in_(ids))
            ).all()
        done = {
            row.id: (row.status, row.finished_at) for row in rows if row.status in ("succeeded", "failed")
        }
        if len(done) == len(ids) or time.monotonic() > deadline:
            return done
        time.sleep(0.5)


def _fleet_setup(servers: int) -> tuple[str, str]:
    """(org id, fleet id) of a fleet of `servers` servers, as the fleet bench builds it."""
    sys.path.insert(0, str(ROOT / "bench"))
    from fleet_reaudit import _setup_fleet

    org_id, fleet_id, _ = _setup_fleet(servers)
    return org_id, fleet_id


def _fleet_start(fleet: tuple[str, str]) -> tuple[str, float]:
    from services.fleets import start_reaudit
    from services.jobs import unit_of_work

    with unit_of_work() as session:  # commits, then sends `fleets.dispatch`
        run_id = start_reaudit(session, fleet[0], fleet[1], force=True).id
    return run_id, time.monotonic()


def _fleet_finish(
    fleet: tuple[str, str], started: tuple[str, float], timeout: float = 900
) -> dict[str, object]:
    """How far the fleet run got while the load ran, then how long it took to finish."""
    from services.fleets import get_run_progress
    from store.db import unit_of_work

    def progress() -> dict[str, object]:
        with unit_of_work() as session:
            return get_run_progress(session, fleet[0], fleet[1], started[0])

    during = progress()
    while not progress()["finished"] and time.monotonic() - started[1] < timeout:
        time.sleep(0.5)
    final = progress()
    return {
        "servers": final["total"],
        "done_when_load_ended": during["done"],
        "succeeded": final["succeeded"],
        "seconds_to_finish": round(time.monotonic() - started[1], 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--via", choices=["services", "http"], default="services")
    parser.add_argument("--rate", type=float, default=50.0, help="submissions per second")
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--concurrency", type=int, default=os.cpu_count() or 2, help="worker processes")
    parser.add_argument("--fleet", type=int, default=0, help="servers of a fleet re-audited during the load")
    options = parser.parse_args()
    load_before = os.getloadavg()[0]

    from sqlalchemy.engine import make_url

    run = uuid.uuid4().hex[:8]
    database = f"innotune_bench_{run}"
    database_url = make_url(ADMIN_URL).set(database=database).render_as_string(hide_password=False)
    queue_name = f"innotune-bench-{run}"
    env = {
        **os.environ,
        "DATABASE_URL": database_url,
        "CELERY_BROKER_URL": BROKER_URL,
        "INNOTUNE_CELERY_QUEUE": queue_name,
        "INNOTUNE_LOG_LEVEL": "WARNING",
        # One key submits everything: the per-key rate limit (600/min) would measure itself.
        "INNOTUNE_RATE_LIMIT_PER_MINUTE": "1000000",
    }
    os.environ.update({k: env[k] for k in ("DATABASE_URL", "CELERY_BROKER_URL", "INNOTUNE_CELERY_QUEUE")})
    _admin(f'CREATE DATABASE "{database}"')
    processes: list[subprocess.Popen[bytes]] = []
    logs = Path(f"/tmp/innotune-bench-{run}")
    logs.mkdir()
    try:
        from migrations.commands import upgrade

        upgrade(database_url)
        cli = [sys.executable, "-m", "cli.main"]
        worker = _start([*cli, "worker", "--concurrency", str(options.concurrency)], env, logs / "worker.log")
        processes.append(worker)
        org_id, key, server_id = _setup_data()
        fleet = _fleet_setup(options.fleet) if options.fleet else None
        submit = _submit_via_services
        if options.via == "http":
            port = 18000 + int(run[:4], 16) % 1000
            base_url = f"http://127.0.0.1:{port}"
            processes.append(_start([*cli, "serve", "--port", str(port)], env, logs / "serve.log"))
            _wait_http(base_url, processes[-1])
            submit = _http_submitter(base_url, key, server_id)
        time.sleep(3)  # let the worker's pool come up
        # Warm-up: the worker's first audit loads the catalog.
        for _ in range(3):
            _finished([submit(org_id, server_id)], timeout=30)
        sampler = RssSampler(worker.pid)
        sampler.start()
        fleet_run = _fleet_start(fleet) if fleet else None
        submitted, errors, elapsed = _run_load(submit, org_id, server_id, options.rate, options.seconds)
        done = _finished([audit_id for audit_id, _ in submitted])
        fleet_figures = _fleet_finish(fleet, fleet_run) if fleet and fleet_run else None
        time.sleep(0.5)
        sampler.stop.set()
        sampler.join()
    finally:
        for process in processes:
            if process.poll() is None:
                os.killpg(process.pid, signal.SIGTERM)
                process.wait(timeout=30)
        from store.db import dispose_engine

        dispose_engine()
        _admin(f'DROP DATABASE IF EXISTS "{database}" WITH (FORCE)')

    latencies_ms = sorted(
        (finished - began).total_seconds() * 1000
        for audit_id, began in submitted
        if (finished := done.get(audit_id, ("", None))[1]) is not None
    )
    quantiles = statistics.quantiles(latencies_ms, n=100) if len(latencies_ms) > 1 else [0.0] * 99
    rss = sorted(sampler.peak_rss.values(), reverse=True)
    results = {
        "via": options.via,
        "rate_per_s": options.rate,
        "seconds": options.seconds,
        "worker_concurrency": options.concurrency,
        "submitted": len(submitted),
        "submit_errors": len(errors),
        "achieved_rate_per_s": round(len(submitted) / elapsed, 1),
        "finished": len(done),
        "failed": sum(1 for status, _ in done.values() if status == "failed"),
        "latency_ms": {
            "p50": round(quantiles[49], 1),
            "p90": round(quantiles[89], 1),
            "p99": round(quantiles[98], 1),
            "max": round(latencies_ms[-1], 1) if latencies_ms else None,
        },
        "worker_rss_mib": {
            "largest_process": round(rss[0], 1) if rss else None,
            "sum_of_rss": round(sum(rss), 1),
            "peak_pss_total": round(sampler.peak_pss_total, 1),
            "processes": len(rss),
        },
        "targets": TARGETS,
        "cpus": os.cpu_count(),
        "loadavg_1m_before_after": [round(load_before, 2), round(os.getloadavg()[0], 2)],
    }
    if fleet_figures is not None:
        results["fleet_during_load"] = fleet_figures
    if errors:
        results["first_errors"] = errors[:3]
    print(json.dumps(results, indent=2))
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    recorded = json.loads(RESULTS.read_text()) if RESULTS.exists() else {}
    recorded[options.via + (f"+fleet{options.fleet}" if options.fleet else "")] = results
    RESULTS.write_text(json.dumps(recorded, indent=2, sort_keys=True) + "\n")


if __name__ == "__main__":
    main()
