"""Fleets: groups of servers re-audited on a schedule (a cron expression or an interval), and their runs.

A run is one re-audit of a fleet: starting it marks the fleet's servers as waiting for dispatch,
and `services.dispatch` turns the waiting servers into queued audits, a chunk at a time.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy.orm import Session

from services.errors import Conflict, InvalidInput, NotFound
from services.pagination import Page, after, check_limit, make_page
from services.servers import PROFILES, ROLES
from store.models import Fleet, FleetRun
from store.models._columns import new_id, utcnow
from store.repositories import fleets as repository

MAX_NAME_CHARS = 200
MAX_CRON_CHARS = 120
MIN_INTERVAL_SECONDS = 1
MAX_INTERVAL_SECONDS = 366 * 86400


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


def _aware(moment: datetime) -> datetime:
    # SQLite hands timestamps back without a zone; they were written in UTC.
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def check_cron(expression: Any) -> str:
    """A five-field cron expression (or an @alias such as @daily), evaluated in UTC; InvalidInput else."""
    from croniter import croniter

    if not isinstance(expression, str) or not expression.strip() or len(expression) > MAX_CRON_CHARS:
        raise InvalidInput(f"schedule_cron must be a cron expression of at most {MAX_CRON_CHARS} characters")
    text = " ".join(expression.split())
    if not (text.startswith("@") or len(text.split(" ")) == 5) or not croniter.is_valid(text):
        raise InvalidInput(
            f"schedule_cron {expression!r} is not a five-field cron expression such as '0 3 * * *' (UTC)"
        )
    return text


def check_interval(seconds: Any) -> int:
    if not isinstance(seconds, int) or isinstance(seconds, bool):
        raise InvalidInput("schedule_interval_seconds must be a whole number of seconds")
    if not MIN_INTERVAL_SECONDS <= seconds <= MAX_INTERVAL_SECONDS:
        raise InvalidInput(
            f"schedule_interval_seconds must be between {MIN_INTERVAL_SECONDS} and {MAX_INTERVAL_SECONDS}"
        )
    return seconds


def next_run_after(fleet: Fleet, now: datetime, *, previous: datetime | None = None) -> datetime:
    """The first scheduled moment strictly after `now`.

    An interval keeps its phase from `previous` (the run just due) so a late dispatcher does not
    shift the schedule, and a dispatcher that was down starts one run, not a backlog of them.
    """
    now = _aware(now)
    if fleet.schedule_cron is not None:
        from croniter import croniter

        found: datetime = croniter(fleet.schedule_cron, now.astimezone(UTC)).get_next(datetime)
        return _aware(found)
    interval = timedelta(seconds=fleet.schedule_interval_seconds or MAX_INTERVAL_SECONDS)
    if previous is None:
        return now + interval
    previous = _aware(previous)
    steps = max(1, math.floor((now - previous) / interval) + 1)
    return previous + steps * interval


def _text(field: str, value: Any) -> str:
    if not isinstance(value, str) or not value.strip() or len(value) > MAX_NAME_CHARS:
        raise InvalidInput(f"{field} must be text of 1 to {MAX_NAME_CHARS} characters")
    return value.strip()


def _choice(field: str, value: Any, allowed: tuple[str, ...]) -> str:
    if value not in allowed:
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
        return _choice(field, value, ROLES)
    return _choice(field, value, PROFILES)


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
    values.setdefault("default_role", "standalone")
    values.setdefault("default_profile", "production")
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


def list_fleets(session: Session, org_id: str, *, cursor: str | None, limit: int) -> Page[Fleet]:
    """The organisation's fleets, oldest first."""
    rows = repository.list_fleets(session, org_id, after=after(cursor), limit=check_limit(limit))
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


# ------------------------------------------------------------------ runs
def begin_run(session: Session, fleet: Fleet, now: datetime, *, forced: bool) -> FleetRun:
    """Start a re-audit of the (locked) fleet: a run row, and the fleet's servers marked as waiting."""
    run = repository.add_run(
        session,
        FleetRun(
            id=new_id(),
            organization_id=fleet.organization_id,
            fleet_id=fleet.id,
            started_at=now,
            total=0,
            forced=forced,
            skipped_unchanged=0,
            skipped_no_snapshot=0,
            skipped_in_flight=0,
        ),
    )
    run.total = repository.mark_servers_pending(session, fleet.id, run.id)
    fleet.last_dispatch_at = now
    return run


def start_reaudit(session: Session, org_id: str, fleet_id: str, *, force: bool) -> FleetRun:
    """Start a re-audit of the fleet now (the schedule is unchanged); the caller commits, then
    sends the dispatcher (`services.queue.enqueue_dispatch`)."""
    fleet = repository.lock_fleet(session, org_id, fleet_id)
    if fleet is None:
        raise NotFound(f"no fleet {fleet_id}")
    return begin_run(session, fleet, utcnow(), forced=force)


def run_progress(session: Session, run: FleetRun) -> dict[str, Any]:
    """How far a run is: N of M servers done (audited, failed or skipped), by state, one aggregate query."""
    counts = repository.run_counts(session, run.id)
    skipped = run.skipped_unchanged + run.skipped_no_snapshot + run.skipped_in_flight
    done = counts["succeeded"] + counts["failed"] + skipped
    return {
        "id": run.id,
        "fleet_id": run.fleet_id,
        "started_at": _aware(run.started_at),
        "forced": run.forced,
        "total": run.total,
        "done": done,
        "pending": counts["pending"],
        "queued": counts["queued"],
        "running": counts["running"],
        "succeeded": counts["succeeded"],
        "failed": counts["failed"],
        "skipped_unchanged": run.skipped_unchanged,
        "skipped_no_snapshot": run.skipped_no_snapshot,
        "skipped_in_flight": run.skipped_in_flight,
        "finished": counts["pending"] + counts["queued"] + counts["running"] == 0,
    }


def get_run_progress(session: Session, org_id: str, fleet_id: str, run_id: str) -> dict[str, Any]:
    """A run of the organisation's fleet with its progress, or NotFound."""
    run = repository.get_run(session, org_id, fleet_id, run_id)
    if run is None:
        raise NotFound(f"no run {run_id} of fleet {fleet_id}")
    return run_progress(session, run)


def latest_run_progress(session: Session, fleet_id: str) -> dict[str, Any] | None:
    """The progress of the fleet's newest run, or None before its first."""
    run = repository.latest_run(session, fleet_id)
    return run_progress(session, run) if run is not None else None
