"""Is this process able to work: does the database answer, and does the broker?"""

from __future__ import annotations

from dataclasses import dataclass, field

from conf.settings import get_settings
from store.db import ping_database


@dataclass
class ReadinessReport:
    checks: dict[str, str] = field(default_factory=dict)

    @property
    def ready(self) -> bool:
        return all(state == "ok" for state in self.checks.values())

    def describe(self) -> str:
        failing = [f"{name}: {state}" for name, state in self.checks.items() if state != "ok"]
        return "; ".join(failing) or "ready"


def _check_database() -> str:
    try:
        ping_database()
    except Exception as exc:  # any driver error means "not reachable"
        return f"unreachable ({type(exc).__name__})"
    return "ok"


def _check_broker() -> str:
    settings = get_settings()
    if settings.embedded:
        return "ok"
    from kombu.connection import Connection

    try:
        with Connection(
            settings.celery_broker_url, connect_timeout=settings.readiness_timeout_seconds
        ) as conn:
            conn.ensure_connection(max_retries=1, timeout=settings.readiness_timeout_seconds)
    except Exception as exc:  # connection refused, DNS, auth: all mean "not reachable"
        return f"unreachable ({type(exc).__name__})"
    return "ok"


def check_readiness() -> ReadinessReport:
    """Probe the database and the broker once each."""
    return ReadinessReport(checks={"database": _check_database(), "broker": _check_broker()})
