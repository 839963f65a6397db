"""API fixtures: two organisations per test module, and a client of an app on the real PostgreSQL."""

from __future__ import annotations

import uuid
from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from tests.api.helpers import Tenant, Tenants
from tests.fixtures.real_services import ServiceUrls
from tests.fixtures.settings import reset_process_state


@pytest.fixture(scope="module")
def tenants(service_urls: ServiceUrls, request: pytest.FixtureRequest) -> Iterator[Tenants]:
    """Two organisations (mine, theirs) made through the service, in the run's database."""
    from services.orgs import create_organization
    from store.db import unit_of_work

    suffix = f"{request.module.__name__.rsplit('.', 1)[-1]} {uuid.uuid4().hex[:8]}"
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("DATABASE_URL", service_urls.database_url)
        reset_process_state()
        with unit_of_work() as session:
            mine, mine_key = create_organization(session, f"mine {suffix}")
            theirs, theirs_key = create_organization(session, f"theirs {suffix}")
            pair = Tenants(Tenant(mine.id, mine_key), Tenant(theirs.id, theirs_key))
    reset_process_state()
    yield pair


@pytest.fixture
def client(service_settings: ServiceUrls) -> Iterator[TestClient]:
    """A client of a fresh app (fresh rate limiter) pointed at the run's PostgreSQL and Redis queue."""
    from api.app import create_app

    with TestClient(create_app()) as test_client:
        yield test_client
