"""Enqueueing: a broker outage at submit time loses nothing; the embedded default runs in-process."""

from __future__ import annotations

import socket
import time
from collections.abc import Callable
from pathlib import Path

from services.jobs import RUN_AUDIT
from services.jobs.in_process import wait_for_embedded_work
from tests.fixtures.jobs import enqueue_now
from tests.fixtures.real_services import ServiceUrls
from tests.fixtures.service_data import audit_status, make_organization, queued_audit


def _closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def test_broker_down_at_submit_leaves_the_audit_queued(
    service_settings: ServiceUrls, use_env: Callable[..., None]
) -> None:
    """With the broker unreachable, enqueue returns quickly without raising; the audit stays queued."""
    queued = queued_audit(make_organization())
    use_env(CELERY_BROKER_URL=f"redis://127.0.0.1:{_closed_port()}/0")
    started = time.monotonic()
    enqueue_now(RUN_AUDIT, queued.audit_id)
    assert time.monotonic() - started < 5
    assert audit_status(queued.audit_id) == "queued"


def test_embedded_default_runs_the_audit_in_process(tmp_path: Path, use_env: Callable[..., None]) -> None:
    """No broker and a SQLite file: enqueue runs the audit on a background thread to success."""
    from conf.settings import get_settings
    from migrations.commands import upgrade

    use_env(DATABASE_URL=f"sqlite:///{tmp_path / 'embedded.db'}", CELERY_BROKER_URL=None)
    assert get_settings().embedded
    upgrade(get_settings().database_url)
    queued = queued_audit(make_organization())
    enqueue_now(RUN_AUDIT, queued.audit_id)
    wait_for_embedded_work()
    assert audit_status(queued.audit_id) == "succeeded"
