"""Fuzz the live API with schemathesis: every operation of /openapi.json, schema-conforming and
schema-violating requests (schemathesis' positive and negative generation), over real HTTP to
`innotune serve` with a worker, PostgreSQL and Redis (bench/live_service.py).

Target: no 5xx over at least 10,000 requests. Prints the figures and each 5xx seen (method,
path, status, body start); writes bench/results/fuzz.json.

    .venv/bin/python bench/fuzz.py [--requests 10000] [--seed 2026]
"""

from __future__ import annotations

import argparse
import json
import math
import time
from collections import Counter
from contextlib import suppress
from datetime import UTC, datetime
from typing import Any

from live_service import ROOT, LiveService, live_service, memory_mib  # type: ignore[import-not-found]

RESULTS = ROOT / "bench" / "results" / "fuzz.json"
TARGET_REQUESTS = 10_000


def _fuzz_operation(
    operation: Any, mode: Any, examples: int, seed: int, session: Any
) -> list[tuple[int, str]]:
    """(status, body start) of each generated request to one operation in one generation mode."""
    from hypothesis import HealthCheck, Phase, given, settings
    from hypothesis import seed as hypothesis_seed
    from hypothesis.errors import Unsatisfiable

    seen: list[tuple[int, str]] = []

    @hypothesis_seed(seed)
    @settings(
        max_examples=examples,
        deadline=None,
        database=None,
        phases=[Phase.explicit, Phase.generate],
        suppress_health_check=list(HealthCheck),
    )
    @given(case=operation.as_strategy(generation_mode=mode))
    def call(case: Any) -> None:
        if case.query and "wait" in case.query:
            case.query["wait"] = 0  # long-polls would only measure the clock
        response = case.call(session=session, timeout=60)
        seen.append((response.status_code, response.text[:300] if response.status_code >= 500 else ""))

    with suppress(Unsatisfiable):  # nothing to violate in an operation without parameters or body
        call()
    return seen


def fuzz(service: LiveService, requests_wanted: int, seed: int) -> dict[str, Any]:
    import requests
    import schemathesis
    from schemathesis import GenerationMode

    schema = schemathesis.openapi.from_url(f"{service.url}/openapi.json")
    operations = [result.ok() for result in schema.get_all_operations()]
    statuses: Counter[int] = Counter()
    by_operation: Counter[str] = Counter()
    server_errors: list[dict[str, Any]] = []
    session = requests.Session()
    session.headers.update(service.headers)
    per_operation = math.ceil(requests_wanted / (2 * len(operations)))
    # Operations with few distinct inputs run out of examples early: later rounds top the total up.
    for round_seed in range(seed, seed + 20):
        if sum(statuses.values()) >= requests_wanted:
            break
        for operation in operations:
            for mode in (GenerationMode.POSITIVE, GenerationMode.NEGATIVE):
                for status, body in _fuzz_operation(operation, mode, per_operation, round_seed, session):
                    statuses[status] += 1
                    by_operation[operation.label] += 1
                    if status >= 500 and len(server_errors) < 50:
                        server_errors.append(
                            {"operation": operation.label, "mode": mode.value, "status": status, "body": body}
                        )
    return {
        "operations": len(operations),
        "statuses": {str(code): count for code, count in sorted(statuses.items())},
        "requests": sum(statuses.values()),
        "server_errors": sum(count for code, count in statuses.items() if code >= 500),
        "examples": server_errors,
        "fewest_requests_of_an_operation": min(by_operation.values()),
    }


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--requests", type=int, default=TARGET_REQUESTS)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    started = time.monotonic()
    with live_service("fuzz") as service:
        figures = fuzz(service, args.requests, args.seed)
        _, api_peak = memory_mib(service.api_pid)
    figures = {
        "when": datetime.now(UTC).isoformat(timespec="seconds"),
        "seed": args.seed,
        "seconds": round(time.monotonic() - started, 1),
        "api_peak_mib": round(api_peak, 1),
        **figures,
        "target": f"0 5xx over >= {TARGET_REQUESTS} requests",
    }
    figures["met"] = figures["server_errors"] == 0 and figures["requests"] >= TARGET_REQUESTS
    print(json.dumps(figures, indent=2))
    RESULTS.write_text(json.dumps(figures, indent=2) + "\n")


if __name__ == "__main__":
    main()
