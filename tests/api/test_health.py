"""The liveness and readiness probes, with the services up and down."""

from __future__ import annotations

from collections.abc import Callable

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
