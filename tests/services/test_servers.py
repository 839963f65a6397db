"""Servers: unique names per organisation, validation, scoping and stable pagination."""

from __future__ import annotations

import pytest

from services.errors import Conflict, InvalidInput, NotFound
from services.fleets import FleetFields, create_fleet
from services.servers import (
    ServerFields,
    create_server,
    delete_server,
    get_server,
    list_servers,
    update_server,
)
from store.db import unit_of_work
from tests.fixtures.service_data import OrganizationHandle


def test_create_get_update_delete(organization: OrganizationHandle) -> None:
    """A server is created with defaults, updated field by field, and deleted."""
    with unit_of_work() as session:
        server = create_server(
            session,
            organization.id,
            ServerFields(name="db1", labels={"dc": "fra"}, hardware={"memory": "64G"}),
        )
        server_id = server.id
    with unit_of_work() as session:
        eu = create_fleet(session, organization.id, FleetFields(name="eu", schedule_cron="0 3 * * *")).id
        server = get_server(session, organization.id, server_id)
        assert (server.role, server.profile, server.labels) == ("standalone", "production", {"dc": "fra"})
        assert server.hardware == {"memory": 64 * 1024**3}
        update_server(
            session, organization.id, server_id, {"role": "replica", "fleet": "eu", "version": "8.0.36"}
        )
    with unit_of_work() as session:
        server = get_server(session, organization.id, server_id)
        assert (server.role, server.fleet, server.fleet_id, server.version) == ("replica", "eu", eu, "8.0.36")
        delete_server(session, organization.id, server_id)
    with unit_of_work() as session, pytest.raises(NotFound):
        get_server(session, organization.id, server_id)


def test_duplicate_name_is_a_conflict(
    organization: OrganizationHandle, other_organization: OrganizationHandle
) -> None:
    """Two servers of one organisation cannot share a name; another organisation may use it."""
    with unit_of_work() as session:
        create_server(session, organization.id, ServerFields(name="db1"))
        other = create_server(session, organization.id, ServerFields(name="db2"))
        create_server(session, other_organization.id, ServerFields(name="db1"))
        with pytest.raises(Conflict):
            create_server(session, organization.id, ServerFields(name="db1"))
        with pytest.raises(Conflict):
            update_server(session, organization.id, other.id, {"name": "db1"})


@pytest.mark.parametrize(
    ("changes", "words"),
    [
        ({"role": "leader"}, "role must be one of"),
        ({"flavor": "oracle"}, "flavor must be one of"),
        ({"version": "banana"}, "version"),
        ({"hardware": {"memory": "lots"}}, "not a size"),
        ({"hardware": {"ram": "64G"}}, "ram"),
        ({"colour": "blue"}, "unknown field"),
        ({"name": None}, "cannot be null"),
        ({"labels": {"a": 1}}, "labels"),
        ({"fleet": "nowhere"}, "no fleet 'nowhere'"),
        ({"fleet_id": "00000000-0000-0000-0000-000000000000"}, "create it first"),
    ],
)
def test_bad_fields_are_invalid_input(
    organization: OrganizationHandle, changes: dict[str, object], words: str
) -> None:
    """Each bad value is refused with a message naming what is wrong."""
    with unit_of_work() as session:
        server = create_server(session, organization.id, ServerFields(name="db"))
        with pytest.raises(InvalidInput) as caught:
            update_server(session, organization.id, server.id, changes)
    assert words in caught.value.detail


def test_another_organisations_server_is_not_found(
    organization: OrganizationHandle, other_organization: OrganizationHandle
) -> None:
    """Get, update, delete and list never reach another organisation's server."""
    with unit_of_work() as session:
        theirs = create_server(session, other_organization.id, ServerFields(name="theirs")).id
    with unit_of_work() as session:
        for call in (
            lambda: get_server(session, organization.id, theirs),
            lambda: update_server(session, organization.id, theirs, {"fleet": "x"}),
            lambda: delete_server(session, organization.id, theirs),
        ):
            with pytest.raises(NotFound):
                call()
        assert list_servers(session, organization.id, fleet=None, cursor=None, limit=50).items == []


def test_pagination_walks_every_server_once_in_creation_order(organization: OrganizationHandle) -> None:
    """Pages of two give all seven servers oldest first, each once, and end with no cursor."""
    with unit_of_work() as session:
        fleet_id = create_fleet(
            session, organization.id, FleetFields(name="eu", schedule_interval_seconds=60)
        ).id
        created = [
            create_server(
                session, organization.id, ServerFields(name=f"s{i}", fleet="eu" if i % 2 else None)
            ).id
            for i in range(7)
        ]
    seen: list[str] = []
    cursor: str | None = None
    with unit_of_work() as session:
        while True:
            page = list_servers(session, organization.id, fleet=None, cursor=cursor, limit=2)
            seen += [server.id for server in page.items]
            if page.next_cursor is None:
                break
            cursor = page.next_cursor
        assert seen == created
        for reference in ("eu", fleet_id):  # the fleet by name or by id
            fleet = list_servers(session, organization.id, fleet=reference, cursor=None, limit=50)
            assert [server.id for server in fleet.items] == created[1::2]
        with pytest.raises(InvalidInput):
            list_servers(session, organization.id, fleet=None, cursor="garbage", limit=2)


def test_a_server_created_into_a_fleet_takes_its_defaults(organization: OrganizationHandle) -> None:
    """Role and profile come from the fleet unless given; fleet and fleet_id naming two fleets is refused."""
    with unit_of_work() as session:
        fleet = create_fleet(
            session,
            organization.id,
            FleetFields(
                name="ci", schedule_interval_seconds=3600, default_role="replica", default_profile="ci"
            ),
        )
        other = create_fleet(
            session, organization.id, FleetFields(name="other", schedule_interval_seconds=60)
        )
        taken = create_server(session, organization.id, ServerFields(name="a", fleet_id=fleet.id))
        given = create_server(session, organization.id, ServerFields(name="b", fleet="ci", role="primary"))
        assert (taken.role, taken.profile, taken.fleet) == ("replica", "ci", "ci")
        assert (given.role, given.profile) == ("primary", "ci")
        with pytest.raises(InvalidInput, match="different fleets"):
            update_server(session, organization.id, taken.id, {"fleet": "ci", "fleet_id": other.id})
        moved = update_server(session, organization.id, taken.id, {"fleet_id": other.id})
        assert (moved.fleet, moved.role) == ("other", "replica")
