"""Is this process able to work: does the database answer with its schema at the code's head
revision, and does the broker answer — each within the readiness timeout?

Each check runs in a thread of its own and is waited for at most the timeout, so an unresponsive
Redis or PostgreSQL (accepting connections, answering nothing) makes /readyz say so in time rather
than hang. A failure is named for what it is: unreachable, too slow, an old schema, or a Python
module missing from the installation (never mistaken for an unreachable broker).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache
from importlib.resources import files
from urllib.parse import urlsplit

from conf.settings import get_settings
from store.db import get_engine

OK = "ok"


@dataclass
class ReadinessReport:
    checks: dict[str, str] = field(default_factory=dict)

    @property
    def ready(self) -> bool:
        return all(state == OK for state in self.checks.values())

    def describe(self) -> str:
        failing = [f"{name}: {state}" for name, state in self.checks.items() if state != OK]
        return "; ".join(failing) or "ready"


class NotReady(Exception):
    """A check's verdict in words (`schema at 0004, code expects 0005: run innotune migrate`)."""


def _verdict(exc: BaseException) -> str:
    if isinstance(exc, NotReady):
        return str(exc)
    if isinstance(exc, ImportError):
        module = exc.name or str(exc)
        return f"error: Python module {module!r} is missing from this installation"
    return f"unreachable ({type(exc).__name__})"


def _within(timeout: float, probe: Callable[[], None]) -> str:
    """Run `probe` in a daemon thread; its verdict, or a timeout verdict once `timeout` has passed."""
    outcome: list[str] = []

    def run() -> None:
        try:
            probe()
        except BaseException as exc:  # every failure becomes a verdict, none escapes the thread
            outcome.append(_verdict(exc))
        else:
            outcome.append(OK)

    thread = threading.Thread(target=run, name="readiness-probe", daemon=True)
    thread.start()
    thread.join(timeout)
    return outcome[0] if outcome else f"no answer within {timeout:g} s"


@lru_cache(maxsize=1)
def code_head_revisions() -> frozenset[str]:
    """The head revision(s) of the migration scripts installed with this code.

    Read as data (the scripts' revision ids) through Alembic: the services import no migration code.
    """
    from alembic.script import ScriptDirectory

    return frozenset(ScriptDirectory(str(files("migrations"))).get_heads())


def _database_at_head() -> None:
    from alembic.runtime.migration import MigrationContext

    with get_engine().connect() as connection:
        current = frozenset(MigrationContext.configure(connection).get_current_heads())
    expected = code_head_revisions()
    if current != expected:
        shown = ", ".join(sorted(current)) or "none (an empty database)"
        raise NotReady(
            f"schema at revision {shown}, this code expects {', '.join(sorted(expected))}: run `innotune migrate`"
        )


def _broker_answers(url: str, timeout: float) -> None:
    if urlsplit(url).scheme in ("redis", "rediss"):
        import redis

        client = redis.Redis.from_url(url, socket_connect_timeout=timeout, socket_timeout=timeout)
        try:
            client.ping()
        finally:
            client.close()
        return
    from kombu.connection import Connection

    with Connection(url, connect_timeout=timeout) as conn:
        conn.ensure_connection(max_retries=1, timeout=timeout)


def check_readiness() -> ReadinessReport:
    """Probe the database (and its schema) and the broker, concurrently, each within the timeout."""
    settings = get_settings()
    timeout = settings.readiness_timeout_seconds
    results: dict[str, str] = {}

    def database() -> None:
        results["database"] = _within(timeout, _database_at_head)

    def broker() -> None:
        broker_url = settings.celery_broker_url
        results["broker"] = (
            OK if not broker_url else _within(timeout, lambda: _broker_answers(broker_url, timeout))
        )

    threads = [threading.Thread(target=check, daemon=True) for check in (database, broker)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout + 1)
    return ReadinessReport(
        checks={name: results.get(name, f"no answer within {timeout:g} s") for name in ("database", "broker")}
    )
