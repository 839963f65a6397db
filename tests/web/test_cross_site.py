"""Forms posted from another site are refused, also in the embedded default where no cookie guards them."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from tests.corpus import corpus_file
from tests.web.corpus_form import VARIABLES


@pytest.fixture
def embedded_client(use_env: Callable[..., None], tmp_path: Path) -> Iterator[TestClient]:
    """The app on a fresh, migrated SQLite file with no broker."""
    url = f"sqlite:///{tmp_path / 'innotune.db'}"
    use_env(DATABASE_URL=url, CELERY_BROKER_URL=None)
    from api.app import create_app
    from migrations.commands import upgrade

    upgrade(url)
    with TestClient(create_app()) as client:
        yield client
    from services.jobs.in_process import wait_for_embedded_work

    wait_for_embedded_work()  # the in-process audit finishes on this database, not the next test's


def _audit_count() -> int:
    from sqlalchemy import func, select

    from store.db import unit_of_work
    from store.models import Audit

    with unit_of_work() as session:
        return int(session.scalar(select(func.count()).select_from(Audit)) or 0)


def test_a_cross_site_post_is_refused_and_a_same_site_one_is_not(embedded_client: TestClient) -> None:
    """Sec-Fetch-Site: cross-site → 403 and no audit; same-origin → 303 to the new audit."""
    form = {"variables_text": corpus_file(VARIABLES).read_text(), "memory": "24G"}
    refused = embedded_client.post(
        "/ui/audits", data=form, headers={"Sec-Fetch-Site": "cross-site"}, follow_redirects=False
    )
    assert refused.status_code == 403
    assert _audit_count() == 0
    accepted = embedded_client.post(
        "/ui/audits", data=form, headers={"Sec-Fetch-Site": "same-origin"}, follow_redirects=False
    )
    assert accepted.status_code == 303 and accepted.headers["location"].startswith("/ui/audits/")
    assert _audit_count() == 1
    page = embedded_client.get("/ui")
    assert "default-src 'self'" in page.headers["content-security-policy"]
    assert page.headers["cache-control"] == "no-store"
