"""Servers: what an organisation audits, with the facts that shape the advice."""

from __future__ import annotations

import json
from dataclasses import dataclass, fields
from typing import Any

from sqlalchemy.orm import Session

from advisor.errors import InputError
from advisor.inputs.hardware import load_hardware
from advisor.model import Profile, Role
from advisor.version import parse_version
from services.errors import Conflict, InvalidInput, NotFound
from services.fleets.manage import fleet_for_reference
from services.pagination import Page, after, check_limit, make_page
from store.models import Fleet, Server
from store.repositories import servers as repository

FLAVORS = ("mysql", "mariadb", "percona")
MAX_LABELS = 50
MAX_TEXT_CHARS = 200
#: where a server's role comes from (Server.role_source): a detected role replaces only a default one.
ROLE_GIVEN, ROLE_DETECTED, ROLE_DEFAULT = "given", "detected", "default"


@dataclass
class ServerFields:
    """A server's settable fields; None means "not given" (create) or "leave as is" (update)."""

    name: str | None = None
    labels: dict[str, str] | None = None
    flavor: str | None = None
    version: str | None = None
    hardware: dict[str, Any] | None = None
    role: str | None = None
    profile: str | None = None
    #: the fleet by name (or id); `fleet_id` names it by id. Either joins the server to an existing fleet.
    fleet: str | None = None
    fleet_id: str | None = None


FIELD_NAMES = frozenset(field.name for field in fields(ServerFields))
_FLEET_FIELDS = ("fleet", "fleet_id")
_NOT_NULL = frozenset({"name", "labels", "role", "profile"})


def _text(field: str, value: Any) -> str:
    if not isinstance(value, str) or not value.strip() or len(value) > MAX_TEXT_CHARS:
        raise InvalidInput(f"{field} must be text of 1 to {MAX_TEXT_CHARS} characters")
    return value.strip()


def _choice(field: str, value: Any, allowed: tuple[str, ...]) -> str:
    if value not in tuple(allowed):
        raise InvalidInput(f"{field} must be one of {', '.join(allowed)}, not {value!r}")
    return str(value)


def _labels(value: Any) -> dict[str, str]:
    if not isinstance(value, dict) or len(value) > MAX_LABELS:
        raise InvalidInput(f"labels must be an object of at most {MAX_LABELS} text values")
    for key, item in value.items():
        if not isinstance(key, str) or not isinstance(item, str) or len(key) > 100 or len(item) > 200:
            raise InvalidInput("labels map names (up to 100 characters) to text (up to 200)")
    return dict(value)


def _version(value: Any) -> str:
    text = _text("version", value)
    try:
        parse_version(text)
    except InputError as exc:
        raise InvalidInput(f"version: {exc.message}") from None
    return text


def _hardware(value: Any) -> dict[str, Any]:
    """A HardwareSpec as JSON with sizes in bytes; the advisor's own model validates it."""
    if not isinstance(value, dict):
        raise InvalidInput('hardware must be an object such as {"memory": "64G", "cpus": 16}')
    try:
        spec = load_hardware(json.dumps(value), "hardware")
    except InputError as exc:
        raise InvalidInput.from_input_error(exc) from None
    return spec.as_dict()


def _clean(field: str, value: Any) -> Any:
    """Validate one field's value; the stored form."""
    if value is None:
        if field in _NOT_NULL:
            raise InvalidInput(f"{field} cannot be null")
        return None
    if field == "name":
        return _text("name", value)
    if field in _FLEET_FIELDS:
        return _text(field, value)
    if field == "labels":
        return _labels(value)
    if field == "flavor":
        return _choice("flavor", value, FLAVORS)
    if field == "role":
        return _choice("role", value, tuple(Role))
    if field == "profile":
        return _choice("profile", value, tuple(Profile))
    if field == "version":
        return _version(value)
    return _hardware(value)


def create_server(session: Session, org_id: str, fields: ServerFields) -> Server:
    """Add a server; its name is unique within the organisation (Conflict otherwise)."""
    if fields.name is None:
        raise InvalidInput("name is required")
    given = {name: value for name, value in vars(fields).items() if value is not None}
    values = {name: _clean(name, value) for name, value in given.items()}
    if repository.name_taken(session, org_id, values["name"]):
        raise Conflict(f"a server named {values['name']!r} already exists")
    values["role_source"] = ROLE_GIVEN if "role" in values else ROLE_DEFAULT
    fleet = _fleet_of(session, org_id, values)
    if fleet is not None:  # a server created into a fleet takes the fleet's role and profile unless given
        values.setdefault("role", fleet.default_role)
        values.setdefault("profile", fleet.default_profile)
    values.setdefault("labels", {})
    return repository.add_server(session, Server(organization_id=org_id, **values))


def _fleet_of(session: Session, org_id: str, values: dict[str, Any]) -> Fleet | None:
    """Replace `fleet`/`fleet_id` in `values` by the resolved `fleet_id`; the fleet, or None when cleared
    or not given. An unknown fleet is InvalidInput; both given and naming different fleets too."""
    given = {name: values.pop(name) for name in _FLEET_FIELDS if name in values}
    if not given:
        return None
    references = [value for value in given.values() if value is not None]
    if not references:
        values["fleet_id"] = None
        return None
    fleets = {fleet.id: fleet for fleet in (fleet_for_reference(session, org_id, ref) for ref in references)}
    if len(fleets) > 1 or len(references) < len(given):
        raise InvalidInput("fleet and fleet_id name different fleets")
    fleet = next(iter(fleets.values()))
    values["fleet_id"] = fleet.id
    return fleet


def get_server(session: Session, org_id: str, server_id: str) -> Server:
    """The organisation's server, or NotFound."""
    server = repository.get_server(session, org_id, server_id)
    if server is None:
        raise NotFound(f"no server {server_id}")
    return server


def list_servers(
    session: Session, org_id: str, *, fleet: str | None, cursor: str | None, limit: int, newest: bool = False
) -> Page[Server]:
    """The organisation's servers, oldest first, optionally of one fleet."""
    rows = repository.list_servers(
        session, org_id, fleet=fleet, after=after(cursor), limit=check_limit(limit), newest=newest
    )
    return make_page(rows, limit, lambda server: (server.created_at, server.id))


def update_server(session: Session, org_id: str, server_id: str, changes: dict[str, Any]) -> Server:
    """Change the given fields (a JSON merge patch's keys); unknown fields are InvalidInput."""
    unknown = set(changes) - FIELD_NAMES
    if unknown:
        raise InvalidInput(f"unknown field(s): {', '.join(sorted(unknown))}")
    server = get_server(session, org_id, server_id)
    values = {name: _clean(name, value) for name, value in changes.items()}
    if "name" in values and repository.name_taken(session, org_id, values["name"], other_than=server.id):
        raise Conflict(f"a server named {values['name']!r} already exists")
    _fleet_of(session, org_id, values)
    if "role" in values:
        values["role_source"] = ROLE_GIVEN
    for name, value in values.items():
        setattr(server, name, value)
    session.flush()
    return server


def learn_role(server: Server, detected: str | None) -> None:
    """Take the role the collector detected, unless a user gave the server its role."""
    if detected is not None and server.role_source != ROLE_GIVEN:
        server.role = detected
        server.role_source = ROLE_DETECTED


def delete_server(session: Session, org_id: str, server_id: str) -> None:
    """Delete the server with its snapshots and audits; NotFound when there is none."""
    if repository.delete_server(session, org_id, server_id) == 0:
        raise NotFound(f"no server {server_id}")
