"""API memory under hostile input, against a stated ceiling.

A live service (bench/live_service.py: PostgreSQL, Redis, `innotune serve`, a worker) takes, each
kind three at a time in parallel:
- anonymous 32 MB JSON bodies (refused before they are read);
- authenticated 16-file multipart uploads at the per-file limit, line-heavy (refused by the line
  cap) and line-light (accepted and audited);
- authenticated JSON uploads just under the body limit;
- small bodies with nesting 10,000 deep, NUL bytes, lone surrogates, 400-digit numbers.
Meanwhile /healthz is polled. Reported: the API's peak and final RSS (VmHWM, VmRSS), the worker's,
the statuses seen (no 5xx allowed), /healthz's worst latency. Ceiling: API peak ≤ 600 MiB, no 5xx.
Writes bench/results/hostile_input.json.

    .venv/bin/python bench/hostile_input.py [--rounds 2]
"""

from __future__ import annotations

import argparse
import json
import threading
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime

import httpx
from live_service import ROOT, LiveService, live_service, memory_mib  # type: ignore[import-not-found]

RESULTS = ROOT / "bench" / "results" / "hostile_input.json"
CORPUS = ROOT.parent / "shared" / "corpus" / "mariadb-10.11-sysbench"
CAPTURE = "s02_load_rw_default"
CEILING_API_PEAK_MIB = 600.0
MIB = 1024 * 1024
PARALLEL = 3


def _anonymous_json(service: LiveService) -> int:
    body = b'{"mycnf": {"/etc/my.cnf": "' + b"x" * (32 * MIB) + b'"}}'
    try:
        return httpx.post(
            f"{service.url}/v1/analyze",
            content=body,
            headers={"Content-Type": "application/json"},
            timeout=60,
        ).status_code
    except httpx.TransportError:  # the server closes after its 401: the client may see the reset
        return 401


def _files(lines_each: int) -> list[tuple[str, tuple[str, bytes]]]:
    """16 files: 14 option files of ~2 MB, and real variables and status dumps."""
    size = 2 * MIB - 64
    line = b"# " + b"x" * max(1, size // lines_each - 3) + b"\n"
    text = b"[mysqld]\n" + line * (size // len(line))
    files = [("mycnf", (f"/etc/mysql/conf.d/{index}.cnf", text)) for index in range(14)]
    # Real dumps beside them: the upload is valid, so its audit runs too.
    files.append(("variables", ("variables.tsv", (CORPUS / f"{CAPTURE}.global_variables.tsv").read_bytes())))
    files.append(("status", ("status.tsv", (CORPUS / f"{CAPTURE}.global_status.tsv").read_bytes())))
    return files


def _upload(service: LiveService, lines_each: int) -> int:
    return httpx.post(
        f"{service.url}/v1/analyze",
        files=_files(lines_each),
        data={"memory": "24G"},
        headers=service.headers,
        timeout=120,
    ).status_code


def _json_upload(service: LiveService) -> int:
    text = "# " + "y" * (2 * MIB - 200) + "\n"
    body = {
        "mycnf": {f"/etc/mysql/conf.d/{index}.cnf": "[mysqld]\n" + text for index in range(14)},
        "memory": "24G",
    }
    return httpx.post(
        f"{service.url}/v1/analyze", json=body, headers=service.headers, timeout=120
    ).status_code


SMALL_BODIES = [
    '{"name": "' + "[" * 10000 + "]" * 10000 + '"}',
    '{"name": "a' + "\\u0000" + 'b"}',
    '{"name": "a' + "\\ud800" + 'b"}',
    '{"name": "x", "labels": {"' + "\\udfff" + '": "v"}}',
    '{"name": "x", "hardware": {"cpus": 1' + "0" * 40 + "}}",
    '{"name": "x", "hardware": {"memory": ' + "9" * 400 + "}}",
    '{"name": "x", "labels": ' + "[" * 5000 + "]" * 5000 + "}",
]


def _small(service: LiveService) -> list[int]:
    statuses = []
    for body in SMALL_BODIES:
        for path in ("/v1/servers", "/v1/fleets", "/v1/audits"):
            statuses.append(
                httpx.post(
                    f"{service.url}{path}",
                    content=body.encode(),
                    headers={**service.headers, "Content-Type": "application/json"},
                    timeout=30,
                ).status_code
            )
    for path in ("/v1/servers/%00", "/v1/audits?cursor=%ED%A0%80", "/v1/servers?limit=" + "9" * 400):
        statuses.append(httpx.get(f"{service.url}{path}", headers=service.headers, timeout=30).status_code)
    return statuses


class HealthPoller(threading.Thread):
    def __init__(self, url: str) -> None:
        super().__init__(daemon=True)
        self.url, self.worst_ms, self.failures, self.stop = url, 0.0, 0, threading.Event()

    def run(self) -> None:
        while not self.stop.is_set():
            started = time.perf_counter()
            try:
                ok = httpx.get(f"{self.url}/healthz", timeout=10).status_code == 200
            except httpx.TransportError:
                ok = False
            self.worst_ms = max(self.worst_ms, (time.perf_counter() - started) * 1000)
            self.failures += not ok
            time.sleep(0.1)


def run(rounds: int) -> dict[str, object]:
    statuses: Counter[int] = Counter()
    by_attack: dict[str, Counter[int]] = {}
    figures: dict[str, object] = {}
    with live_service("hostile") as service:
        _, idle_peak = memory_mib(service.api_pid)
        poller = HealthPoller(service.url)
        poller.start()
        started = time.monotonic()
        with ThreadPoolExecutor(PARALLEL) as pool:
            for _ in range(rounds):
                for name, attack in (
                    ("anonymous 32 MB JSON", _anonymous_json),
                    ("16-file upload, 1.6 M lines", lambda s: _upload(s, lines_each=200_000)),
                    ("16-file upload, long lines", lambda s: _upload(s, lines_each=200)),
                    ("28 MB JSON upload", _json_upload),
                ):
                    answers = list(pool.map(attack, [service] * PARALLEL))
                    statuses.update(answers)
                    by_attack.setdefault(name, Counter()).update(answers)
                small = _small(service)
                statuses.update(small)
                by_attack.setdefault("small hostile bodies and URLs", Counter()).update(small)
        poller.stop.set()
        poller.join()
        api_rss, api_peak = memory_mib(service.api_pid)
        worker_rss, worker_peak = memory_mib(service.worker_pid)
        figures = {
            "when": datetime.now(UTC).isoformat(timespec="seconds"),
            "rounds": rounds,
            "parallel": PARALLEL,
            "seconds": round(time.monotonic() - started, 1),
            "requests": sum(statuses.values()),
            "statuses": {str(code): count for code, count in sorted(statuses.items())},
            "server_errors": sum(count for code, count in statuses.items() if code >= 500),
            "by_attack": {name: {str(k): v for k, v in sorted(c.items())} for name, c in by_attack.items()},
            "api_idle_peak_mib": round(idle_peak, 1),
            "api_peak_mib": round(api_peak, 1),
            "api_rss_after_mib": round(api_rss, 1),
            "worker_main_peak_mib": round(worker_peak, 1),
            "worker_main_rss_after_mib": round(worker_rss, 1),
            "healthz_worst_ms": round(poller.worst_ms, 1),
            "healthz_failures": poller.failures,
            "ceiling_api_peak_mib": CEILING_API_PEAK_MIB,
        }
    figures["within_ceiling"] = (
        figures["api_peak_mib"] <= CEILING_API_PEAK_MIB and figures["server_errors"] == 0
    )  # type: ignore[operator]
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--rounds", type=int, default=2)
    figures = run(parser.parse_args().rounds)
    print(json.dumps(figures, indent=2))
    RESULTS.write_text(json.dumps(figures, indent=2) + "\n")


if __name__ == "__main__":
    main()
