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
from tuning.server import PrivateServer

RESULT = Path(__file__).parent / "results" / "server_memory.json"
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


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--port", type=int, default=3417)
    parser.add_argument("--connections", type=int, default=150)
    parser.add_argument("--threads", type=int, default=16)
    parser.add_argument("--seconds", type=int, default=20)
    args = parser.parse_args(argv)
    if args.port == 3306:
        parser.error("3306 is the shared server's port: never used by this bench")
    sysbench.ensure_sysbench()
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
