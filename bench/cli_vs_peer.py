"""`innotune audit` as a whole process against Percona's `pt-variable-advisor`, on the same input.

Target: the ratio (innotune median / pt-variable-advisor median) ≤ 1, and `innotune --version` and
`innotune --help` under 50 ms. The two commands run in interleaved pairs (the order alternating),
so a neighbour's load hits both alike; the ratio comes from one run.

Input: SHOW GLOBAL VARIABLES of a real MariaDB 10.11 (the shared corpus's sysbench capture), with a
2-core 24 GiB SSD machine for innotune. `percona-toolkit` is installed with apt when missing.
The project's modules are byte-compiled first, as `pip install` does for an installed package
(this machine sets PYTHONDONTWRITEBYTECODE, which would otherwise recompile every module every run).
Prints the figures and writes them to bench/results/cli_vs_peer.json.
"""

from __future__ import annotations

import argparse
import compileall
import json
import os
import shutil
import statistics
import subprocess
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
VARIABLES = (
    ROOT.parent / "shared" / "corpus" / "mariadb-10.11-sysbench" / "s02_load_rw_default.global_variables.tsv"
)
RESULTS = ROOT / "bench" / "results" / "cli_vs_peer.json"
INNOTUNE = str(ROOT / ".venv" / "bin" / "innotune")
PACKAGES = ("advisor", "cli", "conf")
TARGET_START_MS = 50.0


def _peer() -> str:
    found = shutil.which("pt-variable-advisor")
    if found is None:
        subprocess.run(["apt-get", "install", "-y", "-qq", "percona-toolkit"], check=True)
        found = shutil.which("pt-variable-advisor")
    if found is None:
        raise SystemExit("pt-variable-advisor is missing and apt could not install percona-toolkit")
    return found


def _run(command: list[str]) -> tuple[float, float]:
    """(wall seconds, peak resident MiB) of one whole process."""
    start = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(process.pid, 0)
    wall = time.perf_counter() - start
    process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode not in (0, 1):  # 1: a critical finding
        raise SystemExit(f"{command[0]} failed ({process.returncode}): {process.stderr.read().decode()}")
    process.stderr.close()  # type: ignore[union-attr]
    return wall, usage.ru_maxrss / 1024


def _summary(samples: list[tuple[float, float]]) -> dict[str, float]:
    walls = [wall for wall, _ in samples]
    return {
        "median_s": round(statistics.median(walls), 4),
        "min_s": round(min(walls), 4),
        "max_s": round(max(walls), 4),
        "peak_rss_mib": round(max(rss for _, rss in samples), 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=15)
    options = parser.parse_args()
    load_before = os.getloadavg()[0]
    for package in PACKAGES:
        compileall.compile_dir(ROOT / package, quiet=1)
    ours = [INNOTUNE, "audit", "--variables", str(VARIABLES), "--memory", "24G", "--cpus", "2"]
    ours += ["--storage", "ssd", "--format", "json"]
    peer = [_peer(), "--source-of-variables", str(VARIABLES)]
    _run(ours), _run(peer)  # warm the page cache
    mine: list[tuple[float, float]] = []
    theirs: list[tuple[float, float]] = []
    ratios: list[float] = []
    for pair in range(options.pairs):
        first, second = (ours, peer) if pair % 2 == 0 else (peer, ours)
        a, b = _run(first), _run(second)
        ours_sample, peer_sample = (a, b) if pair % 2 == 0 else (b, a)
        mine.append(ours_sample)
        theirs.append(peer_sample)
        ratios.append(ours_sample[0] / peer_sample[0])
    version = [_run([INNOTUNE, "--version"]) for _ in range(options.pairs)]
    helping = [_run([INNOTUNE, "--help"]) for _ in range(options.pairs)]
    figures = {
        "input": str(VARIABLES.relative_to(ROOT.parent)),
        "pairs": options.pairs,
        "innotune_audit": _summary(mine),
        "pt_variable_advisor": _summary(theirs),
        "ratio_of_medians": round(_summary(mine)["median_s"] / _summary(theirs)["median_s"], 2),
        "median_pair_ratio": round(statistics.median(ratios), 2),
        "innotune_version_ms": round(statistics.median(w for w, _ in version) * 1000, 1),
        "innotune_help_ms": round(statistics.median(w for w, _ in helping) * 1000, 1),
        "loadavg_1m_before_after": [round(load_before, 2), round(os.getloadavg()[0], 2)],
        "cpus": os.cpu_count(),
        "targets": {"ratio": 1.0, "version_ms": TARGET_START_MS, "help_ms": TARGET_START_MS},
    }
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(json.dumps(figures, indent=2) + "\n")
    print(json.dumps(figures, indent=2))


if __name__ == "__main__":
    main()
