"""/v1/fleets: groups of servers re-audited on a schedule, their re-audits and their summary."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query, Response

from api.deps import CurrentOrg, DbSession, JsonBody, Pagination
from api.schemas.common import AUTHENTICATED, Page, problem_responses
from api.schemas.fleets import FleetCreate, FleetRead, FleetSummary, FleetUpdate, RunProgress
from services import fleets
from services.fleets import FleetFields, fleet_summary

router = APIRouter(prefix="/v1/fleets", tags=["fleets"])


@router.post(
    "",
    status_code=201,
    summary="Create a fleet",
    dependencies=[JsonBody],
    responses=problem_responses(400, 409, 413, 415, 422, *AUTHENTICATED),
)
def create_fleet(body: FleetCreate, org: CurrentOrg, session: DbSession, response: Response) -> FleetRead:
    """Create a fleet with its schedule; a name already used in the organisation is a 409."""
    fleet = fleets.create_fleet(session, org.id, FleetFields(**body.model_dump()))
    response.headers["Location"] = f"{router.prefix}/{fleet.id}"
    return FleetRead.model_validate(fleet)


@router.get("", summary="List fleets", responses=problem_responses(400, 422, *AUTHENTICATED))
def list_fleets(org: CurrentOrg, session: DbSession, page: Pagination) -> Page[FleetRead]:
    """Fleets oldest first, a page at a time."""
    found = fleets.list_fleets(session, org.id, cursor=page.cursor, limit=page.limit, newest=page.newest)
    return Page[FleetRead](
        items=[FleetRead.model_validate(fleet) for fleet in found.items], next_cursor=found.next_cursor
    )


@router.get("/{fleet_id}", summary="Get a fleet", responses=problem_responses(404, *AUTHENTICATED))
def get_fleet(fleet_id: str, org: CurrentOrg, session: DbSession) -> FleetRead:
    """One fleet of the caller's organisation (another organisation's is a 404)."""
    return FleetRead.model_validate(fleets.get_fleet(session, org.id, fleet_id))


@router.patch(
    "/{fleet_id}",
    summary="Change a fleet",
    dependencies=[JsonBody],
    responses=problem_responses(400, 404, 409, 413, 415, 422, *AUTHENTICATED),
)
def update_fleet(fleet_id: str, body: FleetUpdate, org: CurrentOrg, session: DbSession) -> FleetRead:
    """Change the fields sent; a new schedule moves the next run."""
    return FleetRead.model_validate(fleets.update_fleet(session, org.id, fleet_id, body.changes()))


@router.delete(
    "/{fleet_id}", status_code=204, summary="Delete a fleet", responses=problem_responses(404, *AUTHENTICATED)
)
def delete_fleet(fleet_id: str, org: CurrentOrg, session: DbSession) -> Response:
    """Delete a fleet; its servers and their audits stay, in no fleet."""
    fleets.delete_fleet(session, org.id, fleet_id)
    return Response(status_code=204)


@router.post(
    "/{fleet_id}/reaudit",
    status_code=202,
    summary="Re-audit the fleet now",
    responses=problem_responses(404, *AUTHENTICATED),
)
def reaudit_fleet(
    fleet_id: str,
    org: CurrentOrg,
    session: DbSession,
    response: Response,
    force: Annotated[
        bool, Query(description="Re-audit servers whose snapshot and advisor version did not change too.")
    ] = False,
) -> RunProgress:
    """Start a re-audit of every server of the fleet: 202 with the run; follow `Location` for progress."""
    run = fleets.start_reaudit(session, org.id, fleet_id, force=force)  # the dispatch goes after the commit
    response.headers["Location"] = f"{router.prefix}/{fleet_id}/runs/{run.id}"
    return RunProgress.model_validate(fleets.run_progress(session, run))


@router.get(
    "/{fleet_id}/runs/{run_id}",
    summary="A fleet re-audit's progress",
    responses=problem_responses(404, *AUTHENTICATED),
)
def get_run(fleet_id: str, run_id: str, org: CurrentOrg, session: DbSession) -> RunProgress:
    """N of M servers done, by state: pending dispatch, queued, running, succeeded, failed, skipped."""
    return RunProgress.model_validate(fleets.get_run_progress(session, org.id, fleet_id, run_id))


@router.get(
    "/{fleet_id}/summary", summary="The fleet at a glance", responses=problem_responses(404, *AUTHENTICATED)
)
def get_summary(fleet_id: str, org: CurrentOrg, session: DbSession) -> FleetSummary:
    """Servers by worst severity, the most frequent rules, servers departing from the fleet's majority
    value of a watched variable, servers with new findings, and the latest re-audit's progress."""
    return FleetSummary.model_validate(fleet_summary(session, org.id, fleet_id))
