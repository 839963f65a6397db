"""Fleets: groups of servers re-audited on a schedule (a cron expression or an interval) — created,
read, changed and deleted here; their schedules in `schedule`, their runs in `runs`."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy.orm import Session

from advisor.model import Profile, Role
from services.errors import Conflict, InvalidInput, NotFound
from services.fleets.schedule import check_cron, check_interval, next_run_after
from services.pagination import Page, after, check_limit, make_page
from store.ids import new_id, utcnow
from store.models import Fleet
from store.repositories import fleets as repository

MAX_NAME_CHARS = 200


@dataclass
class FleetFields:
    """A fleet's settable fields; None means "not given" (create) or "leave as is" (update)."""

    name: str | None = None
    schedule_cron: str | None = None
    schedule_interval_seconds: int | None = None
    default_role: str | None = None
    default_profile: str | None = None


FIELD_NAMES = frozenset(FleetFields.__dataclass_fields__)
_SCHEDULE_FIELDS = ("schedule_cron", "schedule_interval_seconds")


def _text(field: str, value: Any) -> str:
    if not isinstance(value, str) or not value.strip() or len(value) > MAX_NAME_CHARS:
        raise InvalidInput(f"{field} must be text of 1 to {MAX_NAME_CHARS} characters")
    return value.strip()


def _choice(field: str, value: Any, allowed: type[Role] | type[Profile]) -> str:
    if value not in tuple(allowed):
        raise InvalidInput(f"{field} must be one of {', '.join(allowed)}, not {value!r}")
    return str(value)


def _clean(field: str, value: Any) -> Any:
    if value is None:
        if field in _SCHEDULE_FIELDS:
            return None
        raise InvalidInput(f"{field} cannot be null")
    if field == "name":
        return _text("name", value)
    if field == "schedule_cron":
        return check_cron(value)
    if field == "schedule_interval_seconds":
        return check_interval(value)
    if field == "default_role":
        return _choice(field, value, Role)
    return _choice(field, value, Profile)


def _check_one_schedule(cron: str | None, interval: int | None) -> None:
    if (cron is None) == (interval is None):
        raise InvalidInput("give a fleet exactly one schedule: schedule_cron or schedule_interval_seconds")


def create_fleet(session: Session, org_id: str, fields: FleetFields, *, now: datetime | None = None) -> Fleet:
    """Add a fleet; its name is unique within the organisation; its first run is one period away."""
    given = {name: value for name, value in vars(fields).items() if value is not None}
    if "name" not in given:
        raise InvalidInput("name is required")
    values = {name: _clean(name, value) for name, value in given.items()}
    _check_one_schedule(values.get("schedule_cron"), values.get("schedule_interval_seconds"))
    if repository.name_taken(session, org_id, values["name"]):
        raise Conflict(f"a fleet named {values['name']!r} already exists")
    values.setdefault("default_role", Role.STANDALONE.value)
    values.setdefault("default_profile", Profile.PRODUCTION.value)
    fleet = Fleet(id=new_id(), organization_id=org_id, created_at=utcnow(), **values)
    fleet.next_run_at = next_run_after(fleet, now or utcnow())
    return repository.add_fleet(session, fleet)


def get_fleet(session: Session, org_id: str, fleet_id: str) -> Fleet:
    """The organisation's fleet, or NotFound."""
    fleet = repository.get_fleet(session, org_id, fleet_id)
    if fleet is None:
        raise NotFound(f"no fleet {fleet_id}")
    return fleet


def fleet_for_reference(session: Session, org_id: str, reference: str) -> Fleet:
    """The organisation's fleet named by id or by name (the servers API accepts either)."""
    fleet = repository.get_fleet(session, org_id, reference) or repository.fleet_by_name(
        session, org_id, reference
    )
    if fleet is None:
        raise InvalidInput(f"no fleet {reference!r}: create it first with POST /v1/fleets")
    return fleet


def list_fleets(
    session: Session, org_id: str, *, cursor: str | None, limit: int, newest: bool = False
) -> Page[Fleet]:
    """The organisation's fleets, oldest first."""
    rows = repository.list_fleets(
        session, org_id, after=after(cursor), limit=check_limit(limit), newest=newest
    )
    return make_page(rows, limit, lambda fleet: (fleet.created_at, fleet.id))


def update_fleet(
    session: Session, org_id: str, fleet_id: str, changes: dict[str, Any], *, now: datetime | None = None
) -> Fleet:
    """Change the given fields. Giving one schedule clears the other; a new schedule restarts the clock."""
    unknown = set(changes) - FIELD_NAMES
    if unknown:
        raise InvalidInput(f"unknown field(s): {', '.join(sorted(unknown))}")
    fleet = get_fleet(session, org_id, fleet_id)
    values = {name: _clean(name, value) for name, value in changes.items()}
    if "name" in values and repository.name_taken(session, org_id, values["name"], other_than=fleet.id):
        raise Conflict(f"a fleet named {values['name']!r} already exists")
    given_schedules = [name for name in _SCHEDULE_FIELDS if values.get(name) is not None]
    if len(given_schedules) == 1:
        other = next(name for name in _SCHEDULE_FIELDS if name not in given_schedules)
        values.setdefault(other, None)
    cron = values.get("schedule_cron", fleet.schedule_cron)
    interval = values.get("schedule_interval_seconds", fleet.schedule_interval_seconds)
    _check_one_schedule(cron, interval)
    schedule_changed = (cron, interval) != (fleet.schedule_cron, fleet.schedule_interval_seconds)
    for name, value in values.items():
        setattr(fleet, name, value)
    if schedule_changed:
        fleet.next_run_at = next_run_after(fleet, now or utcnow())
    session.flush()
    return fleet


def delete_fleet(session: Session, org_id: str, fleet_id: str) -> None:
    """Delete the fleet; its servers stay, in no fleet; its runs go, its audits stay."""
    if repository.delete_fleet(session, org_id, fleet_id) == 0:
        raise NotFound(f"no fleet {fleet_id}")
