"""The liveness and readiness probes, with the services up and down."""

from __future__ import annotations

import socket
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from api.app import create_app
from tests.fixtures.real_services import ServiceUrls

UNREACHABLE_DATABASE = "postgresql+psycopg://postgres@127.0.0.1:1/nowhere?connect_timeout=2"
UNREACHABLE_BROKER = "redis://127.0.0.1:1/0"


def test_healthz_answers_while_the_process_is_up(use_env: Callable[..., None]) -> None:
    """/healthz does not depend on any service: it answers even when both are unreachable."""
    use_env(DATABASE_URL=UNREACHABLE_DATABASE, CELERY_BROKER_URL=UNREACHABLE_BROKER)
    response = TestClient(create_app()).get("/healthz")
    assert response.status_code == 200
    assert response.json() == {"status": "ok"}


def test_readyz_is_ready_with_real_postgres_and_redis(service_settings: ServiceUrls) -> None:
    """/readyz reports both checks ok against the real PostgreSQL and Redis."""
    response = TestClient(create_app()).get("/readyz")
    assert response.status_code == 200
    assert response.json() == {"status": "ready", "checks": {"database": "ok", "broker": "ok"}}


def test_readyz_is_503_problem_json_when_both_are_down(use_env: Callable[..., None]) -> None:
    """An unreachable database and broker give 503 problem+json naming both."""
    use_env(DATABASE_URL=UNREACHABLE_DATABASE, CELERY_BROKER_URL=UNREACHABLE_BROKER)
    response = TestClient(create_app()).get("/readyz")
    assert response.status_code == 503
    assert response.headers["content-type"] == "application/problem+json"
    body = response.json()
    assert body["status"] == 503 and body["title"] == "Not ready"
    assert body["checks"]["database"].startswith("unreachable")
    assert body["checks"]["broker"].startswith("unreachable")
    assert "database" in body["detail"] and "broker" in body["detail"]


def test_readyz_names_only_the_broker_when_only_redis_is_down(
    use_env: Callable[..., None], service_urls: ServiceUrls
) -> None:
    """With the database up and the broker down, the problem names the broker alone."""
    use_env(DATABASE_URL=service_urls.database_url, CELERY_BROKER_URL=UNREACHABLE_BROKER)
    response = TestClient(create_app()).get("/readyz")
    assert response.status_code == 503
    assert response.json()["checks"] == {"database": "ok", "broker": response.json()["checks"]["broker"]}
    assert response.json()["checks"]["broker"].startswith("unreachable")


def test_unknown_path_is_a_problem_document(use_env: Callable[..., None]) -> None:
    """Even a 404 from the router is problem+json, not FastAPI's default body."""
    use_env(DATABASE_URL="sqlite:///:memory:", CELERY_BROKER_URL=None)
    response = TestClient(create_app()).get("/no-such-thing")
    assert response.status_code == 404
    assert response.headers["content-type"] == "application/problem+json"
    assert response.json()["status"] == 404


def test_readyz_is_503_naming_the_schema_on_an_unmigrated_database(
    use_env: Callable[..., None], tmp_path: Path
) -> None:
    """A database that answers but was never migrated is not ready: every /v1 call would fail."""
    use_env(DATABASE_URL=f"sqlite:///{tmp_path / 'empty.db'}", CELERY_BROKER_URL=None)
    response = TestClient(create_app()).get("/readyz")
    assert response.status_code == 503
    database = response.json()["checks"]["database"]
    assert "schema" in database and "innotune migrate" in database
    assert "schema" in response.json()["detail"]


@contextmanager
def _silent_server() -> Iterator[int]:
    """A TCP port that accepts connections and never answers (a Redis frozen by SIGSTOP, say)."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(16)
    held: list[socket.socket] = []
    stop = threading.Event()

    def accept() -> None:
        listener.settimeout(0.2)
        while not stop.is_set():
            with suppress(OSError):
                held.append(listener.accept()[0])

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    try:
        yield listener.getsockname()[1]
    finally:
        stop.set()
        thread.join()
        for connection in held:
            connection.close()
        listener.close()


def test_readyz_answers_within_the_timeout_when_redis_does_not(
    use_env: Callable[..., None], service_urls: ServiceUrls
) -> None:
    """An unresponsive broker: 503 naming the broker, in about the timeout, never a hang."""
    with _silent_server() as port:
        use_env(
            DATABASE_URL=service_urls.database_url,
            CELERY_BROKER_URL=f"redis://127.0.0.1:{port}/0",
            INNOTUNE_READINESS_TIMEOUT="1",
        )
        started = time.monotonic()
        response = TestClient(create_app()).get("/readyz")
        elapsed = time.monotonic() - started
    assert response.status_code == 503
    assert response.json()["checks"]["database"] == "ok"
    assert response.json()["checks"]["broker"] != "ok"
    assert elapsed < 3, elapsed


def test_a_missing_module_is_not_called_an_unreachable_broker(
    use_env: Callable[..., None], service_urls: ServiceUrls, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An installation without the Redis client says so, instead of blaming the network."""
    use_env(DATABASE_URL=service_urls.database_url, CELERY_BROKER_URL=service_urls.broker_url)
    client = TestClient(create_app())
    monkeypatch.setitem(sys.modules, "redis", None)
    response = client.get("/readyz")
    assert response.status_code == 503
    broker = response.json()["checks"]["broker"]
    assert "missing" in broker and "redis" in broker and "unreachable" not in broker
