"""`GET /metrics` in Prometheus' text format (prometheus-client): HTTP requests by route and status
with latency histograms (observed by api.middleware), and the work's own metrics (services.telemetry).

Routes are labelled by their template (`/v1/audits/{audit_id}`), so the label sets stay bounded.
With INNOTUNE_METRICS_TOKEN set, a scrape must send it as a Bearer token.
"""

from __future__ import annotations

import hmac
import threading

from fastapi import APIRouter, Request
from fastapi.responses import Response
from prometheus_client import CONTENT_TYPE_LATEST, REGISTRY, Counter, Histogram, generate_latest

from api.problems import BEARER_CHALLENGE, Problem
from conf.settings import get_settings
from services.telemetry import WorkCollector

#: an API request: a millisecond for a lookup, up to a minute for a long-poll.
HTTP_SECONDS_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60)

HTTP_REQUESTS = Counter(
    "innotune_http_requests_total",
    "HTTP requests answered, by method, route and status.",
    ["method", "route", "status"],
)
HTTP_DURATION = Histogram(
    "innotune_http_request_duration_seconds",
    "Time from a request's arrival to its response's end, by method and route.",
    ["method", "route"],
    buckets=HTTP_SECONDS_BUCKETS,
)

router = APIRouter(include_in_schema=False)
_collector_lock = threading.Lock()
_work_collector: WorkCollector | None = None


def observe_request(method: str, route: str, status: int, seconds: float) -> None:
    HTTP_REQUESTS.labels(method=method, route=route, status=str(status)).inc()
    HTTP_DURATION.labels(method=method, route=route).observe(seconds)


def install_work_collector() -> None:
    """Register the database-backed collector once per process (apps are built more than once in tests)."""
    global _work_collector
    with _collector_lock:
        if _work_collector is None:
            _work_collector = WorkCollector()
            REGISTRY.register(_work_collector)


@router.get("/metrics")
def metrics(request: Request) -> Response:
    """Every metric of this process, for Prometheus to scrape."""
    token = get_settings().metrics_token
    if token:
        sent = request.headers.get("authorization", "")
        if not hmac.compare_digest(sent.encode(), f"Bearer {token}".encode()):
            raise Problem(
                401, "Send the metrics token as `Authorization: Bearer <token>`.", headers=BEARER_CHALLENGE
            )
    return Response(generate_latest(REGISTRY), media_type=CONTENT_TYPE_LATEST)
