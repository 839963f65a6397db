"""Tuning gain: is our advice worth anything on a real MariaDB? (run by hand, never in CI)

    .venv/bin/python bench/tuning_gain.py --workload a --rounds 4
    .venv/bin/python bench/tuning_gain.py --workload a --rounds 1 --warmup 5 --duration 10 \
        --table-size 20000 --collect-interval 20          # a quick trial
    .venv/bin/python bench/tuning_gain.py --workload b --rounds 2 --rev HEAD   # advice of a commit

For each workload it:
1. initialises a PRIVATE MariaDB (own datadir, socket and port 3407 under a temp dir; never the
   shared server on 3306) with Debian's default 50-server.cnf adapted to those paths, and prepares
   the sysbench tables (sysbench is installed with apt when missing);
2. under the workload's sysbench load, runs `innotune collect` with the least-privilege account of
   docs/collector.md (two status snapshots --collect-interval seconds apart) and audits the files
   with `--profile production` and `--profile ci` for this machine (MemTotal, nproc, ssd);
3. runs every `apply_sql` of both audits on the live instance and reads each value back
   (a refusal or a clamp fails the bench; buffer-pool rounding to the chunk size is expected);
4. restarts the instance with each configuration — the Debian default, our two recommended files,
   bench/reference/expert.cnf and expert-relaxed.cnf — in interleaved rounds (restart, prewarm,
   warm-up, measured run), checking each one starts (a config that does not start is a FAILURE);
5. writes median TPS / p95 and the ratios production/expert and ci/relaxed to
   bench/results/tuning_gain.json and regenerates docs/tuning-gain.md.

Workloads: (a) oltp_read_write, data in memory; (b) oltp_update_index, 32 threads, binary log on
with sync_binlog=1 in every configuration; (c) oltp_read_write on ≥ 4 GiB of data with the instance
in a memory cgroup of --memory-limit (2G), the audit told the same limit and the references capped to it.
Exit status: 0 when every configuration started and every apply_sql held, 1 otherwise (targets
missed are findings, printed and recorded, not a bench failure).
"""

from __future__ import annotations

import argparse
import datetime as dt
import signal
import sys
import tempfile
from dataclasses import replace
from pathlib import Path
from typing import Any

from tuning import advice, report, sysbench
from tuning.configs import Workload, workloads
from tuning.phases import (
    CPUS,
    HOST_MEMORY,
    Bench,
    check_apply_sql,
    collect_and_audit,
    config_files,
    measure_rounds,
    prepare_data,
    watched_variables,
)
from tuning.server import BenchError, PrivateServer, make_memory_cgroup


def entry(
    bench: Bench,
    data_gib: float,
    audits: dict[str, Any],
    checks: list[dict[str, Any]],
    measured: tuple[dict[str, list[dict[str, float]]], set[str]],
) -> dict[str, Any]:
    runs, broken = measured
    configs = {
        name: {"started": name not in broken, "rounds": rounds, **report.summarise(rounds)}
        for name, rounds in runs.items()
    }
    ratio = report.ratios(configs)
    load = bench.workload.load
    return {
        "title": bench.workload.title,
        "when": dt.datetime.now(dt.UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "host": {"memory_bytes": HOST_MEMORY, "cpus": CPUS, "storage": "ssd", "describe": describe_host()},
        "params": {
            "test": load.test,
            "tables": load.tables,
            "table_size": load.table_size,
            "threads": load.threads,
            "rand_type": load.rand_type,
            "data_gib": round(data_gib, 2),
            "rounds": bench.args.rounds,
            "warmup_s": bench.args.warmup,
            "run_s": bench.args.duration,
            "collect_interval_s": bench.args.collect_interval,
            "memory_limit": bench.workload.memory_limit,
            "binlog": bench.workload.binlog,
            "advice_from": bench.tool.source,
        },
        "configs": configs,
        "ratios": ratio,
        "targets": report.targets(ratio),
        "paired": report.paired(runs),
        "differences": report.differences(bench.variables),
        "advice": {p: {"findings": advice.summary(r), "diff": r["diff"]} for p, r in audits.items()},
        "settings": bench.settings,
        "apply_sql": checks,
        "failures": bench.failures,
        "notes": bench.notes,
    }


def describe_host() -> str:
    return f"{HOST_MEMORY / (1 << 30):.1f} GiB, {CPUS} CPUs, shared with other work (expect noise)"


def run_workload(args: argparse.Namespace, workload: Workload, tool: advice.Innotune) -> bool:
    root = Path(tempfile.mkdtemp(prefix=f"innotune-bench-{workload.name}-"))
    server = PrivateServer(root, args.port)
    bench = Bench(args, workload, server, tool, [], [])
    print(f"== workload {workload.name}: {workload.title} (private instance in {root})", flush=True)
    try:
        if workload.memory_limit:
            server.cgroup = make_memory_cgroup(workload.budget_bytes(HOST_MEMORY), root.name)
            bench.notes.append(
                f"instance ran in a memory cgroup capped at {workload.memory_limit} (page cache included)"
            )
        server.initialise()
        base = root / "default.cnf"
        base.write_text(server.adapt_debian_cnf(binlog=workload.binlog))
        data_gib = prepare_data(bench, base)
        audits = collect_and_audit(bench, base)
        checks = check_apply_sql(bench, base, audits)
        measured = measure_rounds(bench, config_files(bench, base), watched_variables(audits))
        result = entry(bench, data_gib, audits, checks, measured)
        report.save(workload.name, result, diagnosis=bool(args.variant or args.only))
        print(report.render({"workloads": {workload.name: result}}), flush=True)
    except BenchError as exc:
        print(f"\n!!! FAILURE: workload {workload.name}: {exc}\n", flush=True)
        return False
    finally:
        if args.keep:
            server.stop()
            print(f"  kept {root}", flush=True)
        else:
            server.cleanup()
    return not bench.failures


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--workload", choices=["a", "b", "c", "all"], default="a")
    parser.add_argument("--rounds", type=int, default=4)
    parser.add_argument("--warmup", type=int, default=20, help="seconds of warm-up before each measured run")
    parser.add_argument("--duration", type=int, default=60, help="seconds of each measured run")
    parser.add_argument(
        "--collect-interval",
        type=int,
        default=60,
        help="seconds between the two status samples (60: the shortest window our evidence model calls fair; "
        "under a minute is weak evidence and caps every size change at 2x)",
    )
    parser.add_argument("--tables", type=int, help="sysbench tables (default per workload)")
    parser.add_argument("--table-size", type=int, help="rows per table (default per workload)")
    parser.add_argument("--threads", type=int, help="sysbench threads (default per workload)")
    parser.add_argument("--memory-limit", default="2G", help="memory limit of workload c (audit and cgroup)")
    parser.add_argument("--port", type=int, default=3407)
    parser.add_argument("--rev", help="audit with the code of this git revision instead of the working tree")
    parser.add_argument("--skip-default", action="store_true", help="do not measure the Debian default")
    parser.add_argument("--keep", action="store_true", help="keep the temp dir (debugging)")
    parser.add_argument(
        "--variant",
        action="append",
        default=[],
        metavar="NAME=BASE:VAR=VALUE[,VAR=VALUE]",
        help="an A/B variant: configuration BASE (production, ci, expert, relaxed) with these settings "
        "appended (they win); e.g. relaxed-dw=relaxed:innodb_doublewrite=0. Repeatable. A run with "
        "variants or --only is a diagnosis: written to bench/results/tuning_ab.json, the doc untouched",
    )
    parser.add_argument("--only", help="comma-separated configurations to measure (default: all)")
    args = parser.parse_args(argv)
    args.variant = dict(_variant(parser, text) for text in args.variant)
    args.only = set(args.only.split(",")) if args.only else None
    if args.port == 3306:
        parser.error("3306 is the shared server's port: never used by this bench")
    return args


def _variant(parser: argparse.ArgumentParser, text: str) -> tuple[str, tuple[str, list[tuple[str, str]]]]:
    name, _, rest = text.partition("=")
    base, _, settings = rest.partition(":")
    pairs = [pair.partition("=") for pair in settings.split(",") if pair]
    if not name or base not in {"production", "ci", "expert", "relaxed", "default"} or not pairs:
        parser.error(f"--variant {text!r}: expected NAME=BASE:VAR=VALUE[,VAR=VALUE]")
    if any(not variable or not sep for variable, sep, _ in pairs):
        parser.error(f"--variant {text!r}: each setting is VAR=VALUE")
    return name, (base, [(variable.strip(), value.strip()) for variable, _, value in pairs])


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(130))  # so that finally blocks clean up
    sysbench.ensure_sysbench()
    chosen = workloads(args.memory_limit)
    names = list(chosen) if args.workload == "all" else [args.workload]
    with tempfile.TemporaryDirectory(prefix="innotune-rev-") as export:
        tool = (
            advice.Innotune.from_revision(args.rev, Path(export)) if args.rev else advice.Innotune.from_tree()
        )
        ok = True
        for name in names:
            workload = chosen[name]
            load = replace(
                workload.load,
                tables=args.tables or workload.load.tables,
                table_size=args.table_size or workload.load.table_size,
                threads=args.threads or workload.load.threads,
            )
            ok = run_workload(args, replace(workload, load=load), tool) and ok
    print("tuning gain: OK" if ok else "tuning gain: FAILED (see the !!! lines above)", flush=True)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
