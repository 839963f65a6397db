"""The fleet page over plain HTTP: a run's progress (N of M done, failures) and the summary, signed in."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from services.fleets import start_reaudit
from services.orgs import create_api_key
from store.db import unit_of_work
from tests.fixtures.fleet_data import make_fleet
from tests.fixtures.real_services import ServiceUrls
from tests.fixtures.service_data import OrganizationHandle


@pytest.fixture
def web_client(service_settings: ServiceUrls) -> Iterator[TestClient]:
    from api.app import create_app

    with TestClient(create_app(), follow_redirects=False) as client:
        yield client


def _cookie(organization: OrganizationHandle) -> dict[str, str]:
    """A signed session of a fresh key of the organisation (what signing in on /ui/login sets)."""
    from api.web.session import COOKIE_NAME
    from services.web_sessions import sign_in

    with unit_of_work() as session:
        token = sign_in(session, create_api_key(session, organization.id))
    return {"Cookie": f"{COOKIE_NAME}={token}"}


def test_fleet_page_shows_the_run_in_progress(
    web_client: TestClient, fleet_organization: OrganizationHandle, other_organization: OrganizationHandle
) -> None:
    """A run with 3 servers waiting: 0 of 3 done, 0 failed, the page refreshing itself; another
    organisation gets the 404 page; without a session, the sign-in redirect."""
    fleet = make_fleet(fleet_organization, 3, with_snapshots=False, name="frankfurt")
    with unit_of_work() as session:
        start_reaudit(session, fleet_organization.id, fleet.id, force=False)
    page = web_client.get(f"/ui/fleets/{fleet.id}", headers=_cookie(fleet_organization))
    assert page.status_code == 200, page.text
    assert page.headers["content-type"].startswith("text/html")
    text = page.text
    assert "Fleet frankfurt" in text
    assert "<strong>0 of 3</strong> servers done — running;" in text and "<strong>0</strong> failed" in text
    assert 'http-equiv="refresh"' in text
    assert text.count('href="/ui/servers/') == 3  # the three unaudited servers are listed
    other = web_client.get(f"/ui/fleets/{fleet.id}", headers=_cookie(other_organization))
    assert other.status_code == 404 and "Fleet frankfurt" not in other.text
    anonymous = web_client.get(f"/ui/fleets/{fleet.id}")
    assert anonymous.status_code == 303 and anonymous.headers["location"].startswith("/ui/login")


def test_a_finished_run_stops_refreshing(
    web_client: TestClient, fleet_organization: OrganizationHandle
) -> None:
    """Servers without snapshots are skipped at once: 2 of 2 done, finished, no refresh."""
    from services.fleets.jobs import dispatch_fleets

    fleet = make_fleet(fleet_organization, 2, with_snapshots=False)
    with unit_of_work() as session:
        start_reaudit(session, fleet_organization.id, fleet.id, force=True)
    dispatch_fleets()
    text = web_client.get(f"/ui/fleets/{fleet.id}", headers=_cookie(fleet_organization)).text
    assert "<strong>2 of 2</strong> servers done — finished;" in text
    assert 'http-equiv="refresh"' not in text


def test_fleets_are_listed_and_linked_from_the_navigation_and_the_servers(
    web_client: TestClient, fleet_organization: OrganizationHandle
) -> None:
    """/ui/fleets lists each fleet with its schedule, last run and progress (N of M); every page's
    navigation links to it; the servers list names each server's fleet."""
    fleet = make_fleet(fleet_organization, 3, with_snapshots=False, name="lisbon")
    with unit_of_work() as session:
        start_reaudit(session, fleet_organization.id, fleet.id, force=False)
    cookie = _cookie(fleet_organization)
    listing = web_client.get("/ui/fleets", headers=cookie)
    assert listing.status_code == 200, listing.text
    row = next(line for line in listing.text.split("<tr>") if "lisbon" in line)
    assert f'href="/ui/fleets/{fleet.id}"' in row and "0 of 3 done — running" in row
    assert "every " in row or "cron " in row
    assert '<a href="/ui/fleets" aria-current="page">Fleets</a>' in listing.text
    servers = web_client.get("/ui/servers", headers=cookie).text
    assert '<a href="/ui/fleets">Fleets</a>' in servers
    assert servers.count(f'<a href="/ui/fleets/{fleet.id}">lisbon</a>') == 3
