"""What a real MariaDB takes beyond its buffer pool (run by hand, never in CI; about a minute).

    .venv/bin/python bench/server_memory.py

The memory budget (advisor/derived/budget.py) counts the server's own memory outside the buffer pool
and the buffers of each connection. This bench measures them on the real binary, so the model's
constants rest on numbers, not on folklore. On a PRIVATE instance (own datadir, socket and port 3417
under a temp dir; never the shared server on 3306), started with Debian's default 50-server.cnf:

1. idle with a small pool: resident memory (VmRSS), `Memory_used` (what the server's own allocator
   tracks) and InnoDB's `Total large memory allocated`, for two pool sizes (what the pool itself costs
   beyond its size: block descriptors, hash tables);
2. the same with `--connections` idle connections open (what an open connection costs);
3. under sysbench oltp_read_write with `--threads` threads on a small data set (every connection
   sorting, joining and reading: what a busy connection costs at the default buffer sizes);
4. idle with key_buffer_size and aria_pagecache_buffer_size at 8M and at 1G, no table using them: what
   an unused cache costs in resident memory (its block headers are written at start, its blocks not).

Writes bench/results/server_memory.json.

    .venv/bin/python bench/server_memory.py --peak     # about 10 minutes

With `--peak`, the realistic peak of a small container instead (what the memory budget's realistic peak
models): Debian's defaults with the pool at 1G and at 1408M, in a memory cgroup of --memory-limit (2G,
page cache included, as workload c of bench/tuning_gain.py), over sysbench data larger than the pool read
once into it; then 16 busy connections (oltp_read_write) beside 135 idle ones (151: max_connections), and
151 busy ones. For each: the peak of the cgroup's charge (memory.max_usage_in_bytes / memory.peak), its
anonymous memory (rss / anon), the server's VmRSS and what is resident beyond the pool pages in use.
Writes bench/results/server_memory_peak.json.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from tuning import sysbench
from tuning.server import PrivateServer, make_memory_cgroup

RESULT = Path(__file__).parent / "results" / "server_memory.json"
PEAK_RESULT = Path(__file__).parent / "results" / "server_memory_peak.json"
MIB = 1 << 20


def rss_bytes(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    raise RuntimeError("no VmRSS")


def server_figures(server: PrivateServer) -> dict[str, int]:
    assert server.proc is not None
    with server.connect() as conn, conn.cursor() as cur:
        cur.execute("SHOW GLOBAL STATUS LIKE 'Memory_used'")
        memory_used = int(cur.fetchone()[1])
        cur.execute("SHOW ENGINE INNODB STATUS")
        text = cur.fetchone()[2]
    large = next(
        int(line.split()[-1]) for line in text.splitlines() if "Total large memory allocated" in line
    )
    return {
        "rss_bytes": rss_bytes(server.proc.pid),
        "memory_used_bytes": memory_used,
        "innodb_large_bytes": large,
    }


def with_pool(base: str, root: Path, pool: str) -> Path:
    cnf = root / f"pool-{pool}.cnf"
    cnf.write_text(f"{base.rstrip()}\n\n[mysqld]\ninnodb_buffer_pool_size = {pool}\n")
    return cnf


def with_caches(base: str, root: Path, key: str, aria: str) -> Path:
    cnf = root / f"caches-{key}-{aria}.cnf"
    cnf.write_text(
        f"{base.rstrip()}\n\n[mysqld]\nkey_buffer_size = {key}\naria_pagecache_buffer_size = {aria}\n"
    )
    return cnf


def cache_residency(server: PrivateServer, base: str, root: Path) -> dict[str, float]:
    """Resident memory per byte of key_buffer_size and aria_pagecache_buffer_size at start, neither
    cache used by a table (no MyISAM table; Aria only for the system tables): what an unused cache costs."""
    rss = {}
    for key, aria in (("8M", "8M"), ("1G", "8M"), ("8M", "1G")):
        started = server.start(with_caches(base, root, key, aria))
        if not started.ok:
            raise RuntimeError(f"caches {key}/{aria} did not start: {started.errors}")
        time.sleep(2)
        rss[(key, aria)] = server_figures(server)["rss_bytes"]
        server.stop()
    grown = (1024 - 8) * MIB
    return {
        "key_cache_resident_fraction": round((rss[("1G", "8M")] - rss[("8M", "8M")]) / grown, 4),
        "aria_pagecache_resident_fraction": round((rss[("8M", "1G")] - rss[("8M", "8M")]) / grown, 4),
    }


def idle_connections(server: PrivateServer, count: int) -> dict[str, int]:
    """Open `count` connections, each having run one query, and measure while they sit idle."""
    before = server_figures(server)
    conns = [server.connect() for _ in range(count)]
    for conn in conns:
        with conn.cursor() as cur:
            cur.execute("SELECT 1")
    time.sleep(1)
    after = server_figures(server)
    for conn in conns:
        conn.close()
    return {
        "connections": count,
        "rss_per_connection_bytes": (after["rss_bytes"] - before["rss_bytes"]) // count,
        "memory_used_per_connection_bytes": (after["memory_used_bytes"] - before["memory_used_bytes"])
        // count,
    }


def busy(server: PrivateServer, load: sysbench.Load, seconds: int) -> dict[str, int]:
    """Peak resident memory and Memory_used while sysbench runs (sampled twice a second)."""
    assert server.proc is not None
    idle = server_figures(server)
    proc = sysbench.background(load, server.socket, seconds)
    peak_rss, peak_used = 0, 0
    while proc.poll() is None:
        figures = server_figures(server)
        peak_rss, peak_used = (
            max(peak_rss, figures["rss_bytes"]),
            max(peak_used, figures["memory_used_bytes"]),
        )
        time.sleep(0.5)
    if proc.returncode != 0:
        raise RuntimeError(f"sysbench failed: {proc.stderr.read() if proc.stderr else ''}")
    return {
        "threads": load.threads,
        "seconds": seconds,
        "idle_rss_bytes": idle["rss_bytes"],
        "peak_rss_bytes": peak_rss,
        "peak_memory_used_bytes": peak_used,
        "rss_per_busy_connection_bytes": (peak_rss - idle["rss_bytes"]) // load.threads,
    }


def _cgroup_file(cgroup: Path, v1: str, v2: str) -> Path:
    return cgroup / v1 if (cgroup / v1).exists() else cgroup / v2


def cgroup_figures(server: PrivateServer) -> dict[str, int]:
    """The cgroup's charge now and at its peak (page cache included), its anonymous memory, the
    server's VmRSS and the buffer pool pages in use (data + misc: what of the pool is resident)."""
    assert server.cgroup is not None and server.proc is not None
    group = server.cgroup
    stat = dict(
        line.split() for line in _cgroup_file(group, "memory.stat", "memory.stat").read_text().splitlines()
    )
    with server.connect() as conn, conn.cursor() as cur:
        cur.execute(
            "SHOW GLOBAL STATUS WHERE Variable_name IN ('Innodb_buffer_pool_pages_total',"
            " 'Innodb_buffer_pool_pages_free', 'Memory_used', 'Threads_connected', 'Threads_running',"
            " 'Aria_pagecache_blocks_used', 'Key_blocks_used', 'Created_tmp_disk_tables')"
        )
        status = {name: int(value) for name, value in cur.fetchall()}
    pool_in_use = (status["Innodb_buffer_pool_pages_total"] - status["Innodb_buffer_pool_pages_free"]) * 16384
    rss = rss_bytes(server.proc.pid)
    return {
        "cgroup_usage_bytes": int(_cgroup_file(group, "memory.usage_in_bytes", "memory.current").read_text()),
        "cgroup_peak_bytes": int(_cgroup_file(group, "memory.max_usage_in_bytes", "memory.peak").read_text()),
        "cgroup_anon_bytes": int(stat.get("rss", stat.get("anon", 0))),
        "cgroup_cache_bytes": int(stat.get("cache", stat.get("file", 0))),
        "failcnt": int((group / "memory.failcnt").read_text()) if (group / "memory.failcnt").exists() else 0,
        "rss_bytes": rss,
        "pool_pages_in_use_bytes": pool_in_use,
        "rss_beyond_pool_bytes": rss - pool_in_use,
        "memory_used_bytes": status.get("Memory_used", 0),
        "threads_connected": status.get("Threads_connected", 0),
        "threads_running": status.get("Threads_running", 0),
        "aria_pagecache_blocks_used": status.get("Aria_pagecache_blocks_used", 0),
        "key_blocks_used": status.get("Key_blocks_used", 0),
        "created_tmp_disk_tables": status.get("Created_tmp_disk_tables", 0),
    }


def _reset_peak(server: PrivateServer) -> None:
    assert server.cgroup is not None
    peak = server.cgroup / "memory.max_usage_in_bytes"
    if peak.exists():
        peak.write_text("0")


def loaded_peak(server: PrivateServer, load: sysbench.Load, idle: int, seconds: int) -> dict[str, Any]:
    """sysbench with `load.threads` busy connections beside `idle` idle ones (each having run one
    query): the highest figures sampled once a second, and the cgroup's own peak over the phase."""
    conns = [server.connect() for _ in range(idle)]
    for conn in conns:
        with conn.cursor() as cur:
            cur.execute("SELECT 1")
    _reset_peak(server)
    proc = sysbench.background(load, server.socket, seconds)
    highest: dict[str, int] = {}
    while proc.poll() is None:
        for name, value in cgroup_figures(server).items():
            highest[name] = max(highest.get(name, 0), value)
        time.sleep(1)
    output = proc.stdout.read() if proc.stdout else ""
    for conn in conns:
        conn.close()
    if proc.returncode != 0:
        raise RuntimeError(f"sysbench failed: {proc.stderr.read() if proc.stderr else ''}")
    return {"busy": load.threads, "idle": idle, "tps": sysbench.parse(output).tps, **highest}


def peak_main(args: argparse.Namespace) -> int:
    """The realistic peak in a small container (see the module docstring)."""
    from advisor.units import parse_size

    root = Path(tempfile.mkdtemp(prefix="innotune-server-memory-peak-"))
    server = PrivateServer(root, args.port)
    result: dict[str, Any] = {"when": dt.datetime.now(dt.UTC).strftime("%Y-%m-%d %H:%M UTC")}
    try:
        result["server"] = subprocess.run(
            ["mariadbd", "--version"], capture_output=True, text=True
        ).stdout.strip()
        result["memory_limit"] = args.memory_limit
        server.cgroup = make_memory_cgroup(parse_size(args.memory_limit) or 0, root.name)
        server.initialise()
        base = server.adapt_debian_cnf(binlog=False)
        data = sysbench.Load("oltp_read_write", args.tables, args.table_size, 16, rand_type="uniform")
        for number, pool in enumerate(("1G", "1408M")):
            started = server.start(with_pool(base, root, pool))
            if not started.ok:
                raise RuntimeError(f"pool {pool} did not start: {started.errors}")
            if number == 0:
                with server.connect() as conn, conn.cursor() as cur:
                    cur.execute("CREATE DATABASE sbtest")
                sysbench.prepare(data, server.socket, threads=2)
            server.prewarm(data.tables)
            _reset_peak(server)
            phases: dict[str, Any] = {"idle_warm": cgroup_figures(server)}
            for busy_count, idle_count in ((16, 135), (150, 0)):  # 151 with the sampling connection
                load = sysbench.Load("oltp_read_write", data.tables, data.table_size, busy_count, "uniform")
                phases[f"busy{busy_count}_idle{idle_count}"] = loaded_peak(
                    server, load, idle_count, args.seconds
                )
                if server.died():
                    raise RuntimeError(f"pool {pool}: the server died under {busy_count} busy connections")
            result[f"pool_{pool}"] = phases
            server.stop()
    finally:
        server.cleanup()
    PEAK_RESULT.write_text(json.dumps(result, indent=2) + "\n")
    print(json.dumps(result, indent=2))
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--port", type=int, default=3417)
    parser.add_argument("--connections", type=int, default=150)
    parser.add_argument("--threads", type=int, default=16)
    parser.add_argument("--seconds", type=int, default=20)
    parser.add_argument("--peak", action="store_true", help="the realistic peak in a memory cgroup")
    parser.add_argument("--memory-limit", default="2G", help="--peak: the cgroup's limit")
    parser.add_argument("--tables", type=int, default=8, help="--peak: sysbench tables")
    parser.add_argument("--table-size", type=int, default=700_000, help="--peak: rows per table")
    args = parser.parse_args(argv)
    if args.port == 3306:
        parser.error("3306 is the shared server's port: never used by this bench")
    sysbench.ensure_sysbench()
    if args.peak:
        return peak_main(args)
    root = Path(tempfile.mkdtemp(prefix="innotune-server-memory-"))
    server = PrivateServer(root, args.port)
    result: dict[str, Any] = {"when": dt.datetime.now(dt.UTC).strftime("%Y-%m-%d %H:%M UTC")}
    try:
        version = subprocess.run(["mariadbd", "--version"], capture_output=True, text=True).stdout.strip()
        result["server"] = version
        server.initialise()
        base = server.adapt_debian_cnf(binlog=False)
        pools = {}
        for pool in ("128M", "1408M"):
            started = server.start(with_pool(base, root, pool))
            if not started.ok:
                raise RuntimeError(f"pool {pool} did not start: {started.errors}")
            pools[pool] = server_figures(server)
            if pool == "128M":
                result["idle_connections"] = idle_connections(server, args.connections)
                with server.connect() as conn, conn.cursor() as cur:
                    cur.execute("CREATE DATABASE sbtest")
                load = sysbench.Load("oltp_read_write", 8, 20_000, args.threads)
                sysbench.prepare(load, server.socket, threads=2)
                result["busy"] = busy(server, load, args.seconds)
            server.stop()
        result["idle_by_pool"] = pools
        result["unused_caches"] = cache_residency(server, base, root)
        small, large = pools["128M"], pools["1408M"]
        pool_delta = (1408 - 128) * MIB
        result["innodb_large_beyond_pool_fraction"] = round(
            (large["innodb_large_bytes"] - small["innodb_large_bytes"]) / pool_delta - 1, 4
        )
    finally:
        server.cleanup()
    RESULT.write_text(json.dumps(result, indent=2) + "\n")
    print(json.dumps(result, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
