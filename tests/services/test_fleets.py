"""Fleets: one schedule each (cron or interval), names unique per organisation, scoping, runs' progress."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from services.errors import Conflict, InvalidInput, NotFound
from services.fleets import (
    FleetFields,
    create_fleet,
    delete_fleet,
    get_fleet,
    get_run_progress,
    list_fleets,
    next_run_after,
    start_reaudit,
    update_fleet,
)
from services.servers import ServerFields, create_server, get_server
from store.db import unit_of_work
from store.models import Fleet
from tests.fixtures.fleet_data import make_fleet
from tests.fixtures.service_data import OrganizationHandle

NOON = datetime(2026, 11, 23, 12, 0, 0, tzinfo=UTC)


def test_create_with_a_cron_schedule_sets_the_next_run(organization: OrganizationHandle) -> None:
    """A cron fleet's first run is the next matching minute (UTC); defaults are standalone/production."""
    with unit_of_work() as session:
        fleet = create_fleet(
            session, organization.id, FleetFields(name="nightly", schedule_cron="30  3 * * *"), now=NOON
        )
        assert fleet.schedule_cron == "30 3 * * *"
        assert fleet.next_run_at == datetime(2026, 11, 24, 3, 30, tzinfo=UTC)
        assert (fleet.default_role, fleet.default_profile, fleet.last_dispatch_at) == (
            "standalone",
            "production",
            None,
        )


@pytest.mark.parametrize(
    ("fields", "words"),
    [
        (FleetFields(name="x"), "exactly one schedule"),
        (
            FleetFields(name="x", schedule_cron="0 3 * * *", schedule_interval_seconds=60),
            "exactly one schedule",
        ),
        (FleetFields(name="x", schedule_cron="61 * * * *"), "not a five-field cron"),
        (FleetFields(name="x", schedule_cron="0 0 3 * * *"), "not a five-field cron"),
        (FleetFields(name="x", schedule_interval_seconds=0), "between 1 and"),
        (FleetFields(name="x", schedule_interval_seconds=60, default_role="leader"), "default_role"),
        (FleetFields(schedule_interval_seconds=60), "name is required"),
    ],
)
def test_bad_fleets_are_invalid(organization: OrganizationHandle, fields: FleetFields, words: str) -> None:
    """No schedule, two schedules, a bad cron line, a zero interval, an unknown role: each refused."""
    with unit_of_work() as session, pytest.raises(InvalidInput) as caught:
        create_fleet(session, organization.id, fields)
    assert words in caught.value.detail


def test_interval_schedule_keeps_its_phase() -> None:
    """A late dispatcher keeps the interval's phase; one down for hours starts one run, not a backlog."""
    fleet = Fleet(schedule_interval_seconds=600)
    due = NOON
    assert next_run_after(fleet, NOON + timedelta(seconds=5), previous=due) == NOON + timedelta(minutes=10)
    assert next_run_after(fleet, NOON + timedelta(hours=3, minutes=1), previous=due) == NOON + timedelta(
        hours=3, minutes=10
    )
    assert next_run_after(fleet, NOON) == NOON + timedelta(minutes=10)


def test_update_switches_schedule_and_renames(organization: OrganizationHandle) -> None:
    """Giving a cron clears the interval and moves the next run; a taken name is a Conflict."""
    with unit_of_work() as session:
        fleet = create_fleet(
            session, organization.id, FleetFields(name="a", schedule_interval_seconds=60), now=NOON
        )
        create_fleet(session, organization.id, FleetFields(name="b", schedule_interval_seconds=60))
        update_fleet(session, organization.id, fleet.id, {"schedule_cron": "0 * * * *"}, now=NOON)
        assert (fleet.schedule_cron, fleet.schedule_interval_seconds) == ("0 * * * *", None)
        assert fleet.next_run_at == NOON + timedelta(hours=1)
        with pytest.raises(Conflict):
            update_fleet(session, organization.id, fleet.id, {"name": "b"})
        with pytest.raises(InvalidInput, match="exactly one schedule"):
            update_fleet(session, organization.id, fleet.id, {"schedule_cron": None})
        with pytest.raises(InvalidInput, match="unknown field"):
            update_fleet(session, organization.id, fleet.id, {"colour": "red"})


def test_delete_leaves_the_servers_fleetless(organization: OrganizationHandle) -> None:
    """Deleting a fleet keeps its servers, now in no fleet."""
    with unit_of_work() as session:
        fleet = create_fleet(session, organization.id, FleetFields(name="gone", schedule_interval_seconds=60))
        server_id = create_server(session, organization.id, ServerFields(name="kept", fleet="gone")).id
        fleet_id = fleet.id
    with unit_of_work() as session:
        delete_fleet(session, organization.id, fleet_id)
    with unit_of_work() as session:
        server = get_server(session, organization.id, server_id)
        assert (server.fleet_id, server.fleet) == (None, None)
        with pytest.raises(NotFound):
            get_fleet(session, organization.id, fleet_id)


def test_another_organisations_fleet_is_not_found(
    organization: OrganizationHandle, other_organization: OrganizationHandle
) -> None:
    """Get, update, delete, re-audit and run progress never reach another organisation's fleet."""
    with unit_of_work() as session:
        theirs = create_fleet(
            session, other_organization.id, FleetFields(name="t", schedule_interval_seconds=60)
        )
        run_id = start_reaudit(session, other_organization.id, theirs.id, force=False).id
        theirs_id = theirs.id
    with unit_of_work() as session:
        for call in (
            lambda: get_fleet(session, organization.id, theirs_id),
            lambda: update_fleet(session, organization.id, theirs_id, {"name": "mine"}),
            lambda: delete_fleet(session, organization.id, theirs_id),
            lambda: start_reaudit(session, organization.id, theirs_id, force=True),
            lambda: get_run_progress(session, organization.id, theirs_id, run_id),
        ):
            with pytest.raises(NotFound):
                call()
        assert list_fleets(session, organization.id, cursor=None, limit=50).items == []
        with pytest.raises(InvalidInput, match="no fleet"):
            create_server(session, organization.id, ServerFields(name="x", fleet_id=theirs_id))


def test_a_run_counts_its_servers_as_pending(fleet_organization: OrganizationHandle) -> None:
    """Starting a re-audit marks every server waiting; a second run leaves them with the first."""
    fleet = make_fleet(fleet_organization, 4, with_snapshots=False)
    with unit_of_work() as session:
        first = start_reaudit(session, fleet_organization.id, fleet.id, force=True)
        second = start_reaudit(session, fleet_organization.id, fleet.id, force=False)
        assert (first.total, second.total) == (4, 0)
    with unit_of_work() as session:
        progress = get_run_progress(session, fleet_organization.id, fleet.id, first.id)
        assert (progress["total"], progress["pending"], progress["done"], progress["finished"]) == (
            4,
            4,
            0,
            False,
        )
        assert progress["forced"] is True
