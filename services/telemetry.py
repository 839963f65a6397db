"""Prometheus metrics of the work itself (audits and fleet runs), with the maintained client library.

Two kinds:
- events counted where they happen (an audit finishing, a fleet run starting): in the worker's
  processes in service mode, in the API process in the embedded default. A Celery worker's children
  write them to PROMETHEUS_MULTIPROC_DIR and the worker's main process serves them (worker/metrics.py).
- the state of the queue, read from the database when /metrics is scraped (`WorkCollector`): the
  database is the one truth every process shares, so any API process answers alike.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from datetime import UTC, datetime

from prometheus_client import Counter, Histogram
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.registry import Collector
from sqlalchemy import func, select

from store.db import unit_of_work
from store.models import Audit, FleetRun
from store.models.audit import AUDIT_STATUSES, AuditStatus

logger = logging.getLogger(__name__)

#: an offline audit takes about a millisecond; a loaded worker's can take seconds.
AUDIT_SECONDS_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60)

AUDITS_FINISHED = Counter(
    "innotune_audits_finished_total", "Audits that finished running, by outcome.", ["status"]
)
AUDIT_DURATION = Histogram(
    "innotune_audit_run_duration_seconds",
    "Time an audit spent running (advisor and storing the results), by outcome.",
    ["status"],
    buckets=AUDIT_SECONDS_BUCKETS,
)
FLEET_RUNS_STARTED = Counter("innotune_fleet_runs_started_total", "Fleet re-audit runs started.")
FLEET_AUDITS_DISPATCHED = Counter(
    "innotune_fleet_audits_dispatched_total", "Audits sent by the fleet dispatcher."
)


def audit_finished(status: str, seconds: float) -> None:
    AUDITS_FINISHED.labels(status=status).inc()
    AUDIT_DURATION.labels(status=status).observe(seconds)


def fleet_dispatched(runs_started: int, audits_sent: int) -> None:
    FLEET_RUNS_STARTED.inc(runs_started)
    FLEET_AUDITS_DISPATCHED.inc(audits_sent)


def _aware(moment: datetime) -> datetime:
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


class WorkCollector(Collector):
    """Audits by status, the queue's depth and the age of its oldest audit, fleet runs: one small
    query each at scrape time. When the database is down the scrape still answers (HTTP metrics),
    with `innotune_database_up 0`."""

    def collect(self) -> Iterator[GaugeMetricFamily]:
        up = GaugeMetricFamily("innotune_database_up", "1 when the database answered this scrape.")
        try:
            by_status, oldest_queued, fleet_runs = self._read()
        except Exception as exc:  # an outage must not turn the scrape into a 500
            logger.warning("metrics: database unavailable (%s)", type(exc).__name__)
            up.add_metric([], 0)
            yield up
            return
        up.add_metric([], 1)
        yield up
        audits = GaugeMetricFamily("innotune_audits", "Audits stored, by status.", labels=["status"])
        for status in AUDIT_STATUSES:
            audits.add_metric([status.value], by_status.get(status.value, 0))
        yield audits
        yield GaugeMetricFamily(
            "innotune_queue_depth",
            "Audits queued and not yet running.",
            value=by_status.get(AuditStatus.QUEUED.value, 0),
        )
        age = 0.0
        if oldest_queued is not None:
            age = max(0.0, (datetime.now(UTC) - _aware(oldest_queued)).total_seconds())
        yield GaugeMetricFamily(
            "innotune_queue_oldest_age_seconds", "Age of the oldest queued audit (0 when none).", value=age
        )
        yield GaugeMetricFamily("innotune_fleet_runs", "Fleet re-audit runs stored.", value=fleet_runs)

    @staticmethod
    def _read() -> tuple[dict[str, int], datetime | None, int]:
        with unit_of_work() as session:
            rows = session.execute(select(Audit.status, func.count()).group_by(Audit.status)).all()
            oldest = session.scalar(
                select(func.min(Audit.created_at)).where(Audit.status == AuditStatus.QUEUED.value)
            )
            fleet_runs = session.scalar(select(func.count()).select_from(FleetRun)) or 0
        return {str(status): int(count) for status, count in rows}, oldest, int(fleet_runs)
