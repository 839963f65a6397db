"""A fleet at a glance: servers by worst severity, the most frequent rules, servers whose live value of a
watched variable departs from the fleet's majority, what is newly wrong, and the latest run's progress.

One query reads each server's newest finished audit (compact columns only: finding keys, watched
settings, the comparison with the previous audit — never the findings themselves); the counting is
done here, in one pass, so it reads the same on PostgreSQL and on the embedded SQLite.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass
from typing import Any

from sqlalchemy.orm import Session

from advisor.findings import Severity
from services.audit_facts import KEY_SEPARATOR
from services.fleets.manage import get_fleet
from services.fleets.runs import latest_run_progress
from store.models import AuditStatus
from store.repositories import audits as audit_repository

SEVERITY_ORDER = tuple(Severity)
#: besides the severities: succeeded with nothing to say, failed, never audited.
STATES = (*SEVERITY_ORDER, "clean", "failed", "unaudited")
TOP_RULES = 10
MAX_LISTED_SERVERS = 50


@dataclass(frozen=True)
class _ServerState:
    server_id: str
    name: str
    audit_id: str | None
    state: str
    finding_keys: list[str]
    settings: dict[str, str]
    new_findings: list[str]


def _state(status: str | None, worst_severity: str | None) -> str:
    if status is None:
        return "unaudited"
    if status == AuditStatus.FAILED:
        return "failed"
    return worst_severity or "clean"


def _servers(session: Session, fleet_id: str) -> list[_ServerState]:
    return [
        _ServerState(
            server_id,
            name,
            audit_id,
            _state(status, worst),
            list(keys or []),
            dict(settings or {}),
            list((changes or {}).get("new") or []),
        )
        for server_id, name, audit_id, status, worst, keys, settings, changes in (
            audit_repository.latest_finished_in_fleet(session, fleet_id)
        )
    ]


def _brief(server: _ServerState) -> dict[str, Any]:
    return {"id": server.server_id, "name": server.name, "audit_id": server.audit_id}


def _by_state(servers: list[_ServerState]) -> dict[str, Any]:
    grouped: dict[str, list[_ServerState]] = {state: [] for state in STATES}
    for server in servers:
        grouped[server.state].append(server)
    return {
        state: {"count": len(members), "servers": [_brief(member) for member in members[:MAX_LISTED_SERVERS]]}
        for state, members in grouped.items()
    }


def _top_rules(servers: list[_ServerState]) -> list[dict[str, Any]]:
    """Rules by the number of servers whose latest audit raised them."""
    counted: Counter[str] = Counter()
    for server in servers:
        counted.update({key.split(KEY_SEPARATOR, 1)[0] for key in server.finding_keys})
    return [{"rule": rule, "servers": count} for rule, count in counted.most_common(TOP_RULES)]


def _departures(servers: list[_ServerState]) -> list[dict[str, Any]]:
    """For each watched variable with more than one value in the fleet: the majority value and the
    servers that depart from it (ties go to the value sorting first, so the answer is stable)."""
    values: dict[str, dict[str, list[_ServerState]]] = defaultdict(lambda: defaultdict(list))
    for server in servers:
        for variable, value in server.settings.items():
            values[variable][value].append(server)
    found = []
    for variable in sorted(values):
        by_value = values[variable]
        if len(by_value) < 2:
            continue
        majority = min(by_value, key=lambda value: (-len(by_value[value]), value))
        departing = [
            {**_brief(server), "value": value}
            for value in sorted(by_value)
            if value != majority
            for server in by_value[value]
        ]
        found.append(
            {
                "variable": variable,
                "majority_value": majority,
                "majority_servers": len(by_value[majority]),
                "servers_with_value": sum(len(members) for members in by_value.values()),
                "departing_count": len(departing),
                "departing": departing[:MAX_LISTED_SERVERS],
            }
        )
    return found


def _newly_wrong(servers: list[_ServerState]) -> dict[str, Any]:
    """Servers whose latest audit raised findings their previous audit did not."""
    flagged = [server for server in servers if server.new_findings]
    return {
        "count": len(flagged),
        "servers": [
            {**_brief(server), "new": server.new_findings} for server in flagged[:MAX_LISTED_SERVERS]
        ],
    }


def fleet_summary(session: Session, org_id: str, fleet_id: str) -> dict[str, Any]:
    """The fleet's summary (NotFound for another organisation's fleet)."""
    fleet = get_fleet(session, org_id, fleet_id)
    servers = _servers(session, fleet.id)
    return {
        "fleet_id": fleet.id,
        "name": fleet.name,
        "servers": len(servers),
        "by_severity": _by_state(servers),
        "top_rules": _top_rules(servers),
        "departures": _departures(servers),
        "newly_wrong": _newly_wrong(servers),
        "latest_run": latest_run_progress(session, fleet.id),
    }
