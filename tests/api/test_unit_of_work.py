"""The request's unit of work: what a handler enqueues is sent after the commit, never after a rollback."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from api.deps import DbSession
from services.jobs import enqueue
from services.jobs.names import Job


@pytest.fixture
def sent_jobs(tmp_path: Path, use_env: Callable[..., None], monkeypatch: pytest.MonkeyPatch) -> list[Job]:
    """Jobs the request units of work send, recorded instead of sent (on a scratch SQLite database)."""
    import services.jobs.buffer

    use_env(DATABASE_URL=f"sqlite:///{tmp_path / 'uow.db'}", CELERY_BROKER_URL=None)
    sent: list[Job] = []

    def record(jobs: list[Job]) -> int:
        sent.extend(jobs)
        return len(jobs)

    monkeypatch.setattr(services.jobs.buffer, "send_jobs", record)
    return sent


def _app(sent: list[Job]) -> FastAPI:
    app = FastAPI()

    @app.post("/sync")
    def sync_handler(session: DbSession) -> list[str]:
        enqueue("test.sync", "1")
        return [job.name for job in sent]  # what went before the handler returned

    @app.post("/async")
    async def async_handler(session: DbSession) -> None:
        enqueue("test.async", "2")

    @app.post("/fails")
    def failing_handler(session: DbSession) -> None:
        enqueue("test.rolled_back", "3")
        raise RuntimeError("the handler fails: its work is rolled back")

    return app


def test_jobs_go_after_the_commit_and_never_after_a_rollback(sent_jobs: list[Job]) -> None:
    """Sync and async handlers enqueue into the request's buffer; it is sent once the request's
    session committed, and dropped when the handler raised."""
    client = TestClient(_app(sent_jobs), raise_server_exceptions=False)
    assert client.post("/sync").json() == []
    assert client.post("/async").status_code == 200
    assert client.post("/fails").status_code == 500
    assert sent_jobs == [Job("test.sync", ("1",)), Job("test.async", ("2",))]
