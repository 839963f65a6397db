"""Run the bench audit (bench/audit_offline.py's inputs) N times in-process, for instruction counts.

Timing on a shared 2-core machine is noisy; instructions are not. Under callgrind the difference of
two runs is the cost of the extra audits alone (imports and the catalog load cancel out):

    valgrind --tool=callgrind --callgrind-out-file=/dev/null .venv/bin/python bench/audit_repeat.py 0
    valgrind --tool=callgrind --callgrind-out-file=/dev/null .venv/bin/python bench/audit_repeat.py 20
    # (second "Collected" − first) / 20 = instructions per audit

`--profile` prints cProfile's view of N audits instead.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from audit_offline import bench_inputs  # noqa: E402

from advisor.audit import run_audit  # noqa: E402


def main() -> None:
    rounds = int(sys.argv[1])
    inputs = bench_inputs()
    run_audit(inputs)  # warm: the catalog and per-process tables load once
    if "--profile" in sys.argv:
        import cProfile
        import pstats

        profiler = cProfile.Profile()
        profiler.enable()
        for _ in range(rounds):
            run_audit(inputs)
        profiler.disable()
        pstats.Stats(profiler).sort_stats(sys.argv[3] if len(sys.argv) > 3 else "tottime").print_stats(45)
        return
    for _ in range(rounds):
        run_audit(inputs)


if __name__ == "__main__":
    main()
